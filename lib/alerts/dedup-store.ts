// Data access for deduplication (lib/integrations/ACCESS-PATTERNS.md, "Deduplication and
// exactly-once"). The dedup item: one per integration and third-party id, the single point where "is there an alert
// for this sender's id, and was this request already counted?" is decided, by conditional writes.
//   dedup item   A#<acc>#INT#<integration>#DEDUP#<thirdparty id, or sha256: when long> / #
// It names the current generation's alert (alert_id, created by the request `created_by` at
// `started_at`), its `count` (the truth dedup_count converges to) and the request tokens counted in
// it (`counted`; the previous generation's in `previous_counted`, so a late redelivery of a request
// of the previous alert is not counted again on the next one). Before any generation, the item may
// hold only `resolved_by_log`: a resolve for the id was processed before any create of it (queues
// do not keep order, and a create and its resolve may share a batch), so a create the sender made
// before that resolve, processed after it, opens nothing. While a sender's resolve ends the current
// generation's alert, `ending_log` holds its request's log id: creates accepted before it count onto
// that alert, creates accepted after it wait for the alert to end and start the next generation, and
// a resolve that finds a create accepted after it already counted is outdated (the sender's last word
// was that create).
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { batchGet, isConditionFailure, keyString, type Key } from '../store/items';

export interface DedupItem {
  alert_id: string;
  created_by: string;
  started_at: number;
  /** True once the generation's alert was stored: a missing alert is then a deleted one. */
  alert_created?: boolean;
  count: number;
  counted: Set<string>;
  previous_counted?: Set<string>;
  /** The latest resolve processed while no generation existed: its request's log id (a ULID). */
  resolved_by_log?: string;
  /** The sender's resolve ending this generation's alert: its request's log id, and when it claimed (ms). */
  ending_log?: string;
  ending_at?: number;
}

/**
 * How long a resolve's claim holds creates accepted after it back: a resolve that dies between its
 * claim and its transition is redelivered within minutes; should it never finish, creates count onto
 * the open alert again after this (as they would have without the claim), so none waits forever.
 */
export const ENDING_CLAIM_MS = 10 * 60_000;

/** The log id a request token belongs to (a token is the log id, or `<log id>#<action's position>`). */
export const tokenLog = (token: string): string => token.split('#')[0];

/** False for an item that only remembers a resolve (no alert was ever started for the id). */
export const hasGeneration = (item: DedupItem): boolean => item.alert_id !== '';

export function dedupKey(accountId: string, integrationId: string, thirdpartyId: string): Key {
  const id =
    Buffer.byteLength(thirdpartyId, 'utf8') > 512 ? `sha256:${createHash('sha256').update(thirdpartyId).digest('hex')}` : thirdpartyId;
  return { pk: `A#${accountId}#INT#${integrationId}#DEDUP#${id}`, sk: '#' };
}

function decodeDedup(item: Record<string, unknown> | undefined): DedupItem | null {
  if (!item) return null;
  const resolved = typeof item.resolved_by_log === 'string' ? { resolved_by_log: item.resolved_by_log } : {};
  const ending = typeof item.ending_log === 'string' ? { ending_log: item.ending_log, ending_at: Number(item.ending_at ?? 0) } : {};
  if (item.alert_id === undefined) return { alert_id: '', created_by: '', started_at: 0, count: 0, counted: new Set(), ...resolved };
  return {
    alert_id: item.alert_id as string,
    created_by: String(item.created_by),
    started_at: Number(item.started_at),
    alert_created: item.alert_created === true,
    count: Number(item.count),
    counted: (item.counted as Set<string> | undefined) ?? new Set(),
    previous_counted: item.previous_counted as Set<string> | undefined,
    ...resolved,
    ...ending,
  };
}

/** Many dedup items in one round trip per 100, keyed `pk|sk` (dedupKeyString). */
export async function getDedupItems(keys: Key[]): Promise<Map<string, DedupItem | null>> {
  const found = await batchGet(keys);
  return new Map(keys.map((key) => [keyString(key), decodeDedup(found.get(keyString(key)))]));
}

/** The text form of a dedup key, as getDedupItems keys its answer. */
export const dedupKeyString = keyString;

export async function getDedupItem(key: Key): Promise<DedupItem | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return decodeDedup(out.Item);
}

/**
 * Starts a generation: the first alert for this id (`seen` null: only if no item exists), or a new
 * alert after the previous one ended (only if the item is still exactly as `seen`, so two requests
 * cannot both start one, and no request counted meanwhile is dropped). False when the race was lost.
 */
export async function startGeneration(
  key: Key,
  token: string,
  alertId: string,
  now: number,
  seen: DedupItem | null,
  extra: Record<string, unknown>,
): Promise<boolean> {
  try {
    if (!seen || !hasGeneration(seen)) {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...key, ...extra, alert_id: alertId, created_by: token, started_at: now, count: 1, counted: new Set([token]) },
          // Over an item that only remembered a resolve: this create came after it (its caller checked).
          ConditionExpression: seen ? 'attribute_not_exists(alert_id) AND resolved_by_log = :resolved' : 'attribute_not_exists(pk)',
          ...(seen ? { ExpressionAttributeValues: { ':resolved': seen.resolved_by_log ?? '' } } : {}),
        }),
      );
      return true;
    }
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression:
          'SET alert_id = :alert, created_by = :token, started_at = :now, #count = :one, counted = :counted, previous_counted = :previous ' +
          'REMOVE alert_created, ending_log, ending_at',
        ConditionExpression: 'alert_id = :seen AND #count = :seenCount',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: {
          ':alert': alertId,
          ':token': token,
          ':now': now,
          ':one': 1,
          ':counted': new Set([token]),
          ':previous': seen.counted.size > 0 ? seen.counted : new Set(['-']),
          ':seen': seen.alert_id,
          ':seenCount': seen.count,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Counts one request onto the current alert: count + 1 and the token recorded, in one write that
 * applies only while the item still names `alertId`, has not counted this token, and no resolve
 * accepted before the request is ending the alert. Returns the new count, or null when the condition
 * failed (the caller re-reads and decides again).
 */
export async function countOnto(key: Key, token: string, alertId: string, now: number): Promise<number | null> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD #count :one, counted :token',
        ConditionExpression:
          'alert_id = :alert AND NOT contains(counted, :tokenValue) AND ' +
          '(attribute_not_exists(previous_counted) OR NOT contains(previous_counted, :tokenValue)) AND ' +
          '(attribute_not_exists(ending_log) OR ending_log > :log OR ending_at < :claimedBefore)',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':token': new Set([token]),
          ':tokenValue': token,
          ':alert': alertId,
          ':log': tokenLog(token),
          ':claimedBefore': now - ENDING_CLAIM_MS,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.count);
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/**
 * Notes that the generation's alert was stored (its deletion calls this first), so that once it is
 * absent it counts as deleted rather than still being created; returns the item as it is now, null
 * when there is none or it names another alert.
 */
export async function markAlertStored(key: Key, alertId: string): Promise<DedupItem | null> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET alert_created = :yes',
        ConditionExpression: 'alert_id = :alert',
        ExpressionAttributeValues: { ':yes': true, ':alert': alertId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return decodeDedup(out.Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** Drops tokens older than `before` (ms) from a long-lived alert's counted set, keeping the item small. */
export async function pruneCounted(key: Key, alertId: string, stale: string[]): Promise<void> {
  if (stale.length === 0) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'DELETE counted :stale',
        ConditionExpression: 'alert_id = :alert',
        ExpressionAttributeValues: { ':stale': new Set(stale), ':alert': alertId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Notes that the sender's resolve `logId` is ending the generation's alert `alertId`, before it
 * resolves it, so that from here a create accepted after it no longer counts onto that alert (it
 * waits for the alert to end and starts the next generation). Never goes back to an older resolve.
 * The item as it is now (null when the generation is no longer `alertId`'s): its counted tokens
 * tell whether a create accepted after this resolve was counted before it (the resolve is outdated).
 */
export async function claimEnding(key: Key, alertId: string, logId: string, now: number): Promise<DedupItem | null> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET ending_log = :log, ending_at = :now',
        ConditionExpression: 'alert_id = :alert AND (attribute_not_exists(ending_log) OR ending_log <= :log)',
        ExpressionAttributeValues: { ':log': logId, ':alert': alertId, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return decodeDedup(out.Attributes);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = await getDedupItem(key);
    return current?.alert_id === alertId ? current : null;
  }
}

/** Takes back an outdated resolve's claim (only its own), so creates count onto the alert again. */
export async function releaseEnding(key: Key, logId: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'REMOVE ending_log, ending_at',
        ConditionExpression: 'ending_log = :log',
        ExpressionAttributeValues: { ':log': logId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Remembers a resolve of an id that has no alert yet (`logId`: its request's log id), so a create
 * of it the sender made earlier, processed later, opens nothing. Only while no generation exists,
 * and never going back to an older resolve. When the condition fails (a later resolve is remembered
 * already, or a create started a generation after all), the item as it is now, read once, so the
 * caller need not read it again.
 */
export async function rememberResolve(
  key: Key,
  logId: string,
  extra: Record<string, unknown>,
): Promise<{ remembered: true } | { remembered: false; current: DedupItem | null }> {
  const names = Object.keys(extra);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET resolved_by_log = :log${names.map((_, i) => `, #x${i} = :x${i}`).join('')}`,
        ConditionExpression: 'attribute_not_exists(alert_id) AND (attribute_not_exists(resolved_by_log) OR resolved_by_log < :log)',
        ExpressionAttributeNames: names.length ? Object.fromEntries(names.map((name, i) => [`#x${i}`, name])) : undefined,
        ExpressionAttributeValues: { ':log': logId, ...Object.fromEntries(names.map((name, i) => [`:x${i}`, extra[name]])) },
      }),
    );
    return { remembered: true };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { remembered: false, current: await getDedupItem(key) };
  }
}
