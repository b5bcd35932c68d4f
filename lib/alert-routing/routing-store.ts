// The routing worker's own items (lib/alert-routing/ACCESS-PATTERNS.md):
//   aggregate window   A#<acc>#AGG / <router>#<rule>#<key>   {parent_id, started_at, expires_at}
//   automation claim   A#<acc>#AGG#RUN / <alert>#<router>#<rule>#<automation>   {claimed_at}
// dynalite has no TTL, so a window's end is compared (expires_at < now), never waited for; claims are
// small and permanent (one per automation action that ran).
import { getItem, isConditionFailure, putNew } from '../store/items';
import { db, tableName } from '../store/client';
import { PutCommand, UpdateCommand } from '../store/commands';

const windowKey = (accountId: string, slot: string) => ({ pk: `A#${accountId}#AGG`, sk: slot });
const claimKey = (accountId: string, claim: string) => ({ pk: `A#${accountId}#AGG#RUN`, sk: claim });

export interface AggregateWindow {
  parent_id: string;
  started_at: number;
  expires_at: number;
}

/**
 * Opens a window with `alertId` as its parent when there is none, the last one ended, or it is
 * already this alert's (a redelivery): true. False when another alert's window is open.
 */
export async function openAggregateWindow(
  accountId: string,
  slot: string,
  alertId: string,
  now: number,
  windowMs: number,
): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...windowKey(accountId, slot), parent_id: alertId, started_at: now, expires_at: now + windowMs },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now OR parent_id = :me',
        ExpressionAttributeValues: { ':now': now, ':me': alertId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function getAggregateWindow(accountId: string, slot: string): Promise<AggregateWindow | null> {
  const item = await getItem(windowKey(accountId, slot));
  return item ? { parent_id: String(item.parent_id), started_at: Number(item.started_at), expires_at: Number(item.expires_at) } : null;
}

/** Takes over a window whose parent is over (resolved, gone): only while `previous` still holds it. */
export async function takeOverAggregateWindow(
  accountId: string,
  slot: string,
  previous: string,
  alertId: string,
  now: number,
  windowMs: number,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowKey(accountId, slot),
        UpdateExpression: 'SET parent_id = :me, started_at = :now, expires_at = :end',
        ConditionExpression: 'parent_id = :previous',
        ExpressionAttributeValues: { ':me': alertId, ':now': now, ':end': now + windowMs, ':previous': previous },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Claims one automation run for an alert and rule: true once, false ever after (at most once). */
export async function claimAutomationRun(accountId: string, claim: string, now: string): Promise<boolean> {
  return putNew({ ...claimKey(accountId, claim), claimed_at: now });
}
