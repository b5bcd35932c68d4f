// Data access for heartbeats (lib/integrations/ACCESS-PATTERNS.md, "Heartbeats"): one small state item
// per heartbeat integration, apart from the integration item so a beat never races an edit of it.
//   state   INT#<integration>#HEARTBEAT / STATE   {account_id, armed_at, last_beat_at, alert_id,
//           missed_beat_at, alert_stored}   (+ gsi5 due index `HB#<acc>#<integration>` while armed)
// A beat is one conditional UpdateItem of `last_beat_at` that leaves the due index where it is: the
// index entry may lag behind the real deadline (never pass it), and the sweeper moves it on when it
// comes due, once per window however often beats come. Opening an alert is a conditional claim of
// `alert_id` on the state as read, so two sweepers never both open one.
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '../store/commands';
import { dueIndexKeys } from '../store/due-index';
import { db, tableName } from '../store/client';
import { batchGet, deleteItem, isConditionFailure, keyString, type Item } from '../store/items';

const stateKey = (integrationId: string) => ({ pk: `INT#${integrationId}#HEARTBEAT`, sk: 'STATE' });

/** The due index names a heartbeat `HB#<acc>#<integration>`. */
export const heartbeatDueKey = (accountId: string, integrationId: string) => `HB#${accountId}#${integrationId}`;

export function parseHeartbeatDueKey(what: string): { accountId: string; integrationId: string } | null {
  const [kind, accountId, integrationId, ...rest] = what.split('#');
  return kind === 'HB' && accountId && integrationId && rest.length === 0 ? { accountId, integrationId } : null;
}

export interface HeartbeatState {
  integration_id: string;
  account_id: string;
  /** When counting started (creation, enabled again), epoch ms. */
  armed_at: number;
  last_beat_at: number | null;
  /** The alert opened for the missed deadline, until a beat resolves it. */
  alert_id: string | null;
  /** `last_beat_at` as it was when the alert was claimed (0: none): a later beat ends the miss. */
  missed_beat_at: number | null;
  /** The claimed alert was stored (until then a sweep stores it: the claim survives a crash). */
  alert_stored: boolean;
  /** Where the due index holds it (epoch ms); null when parked (disabled). */
  due_at: number | null;
}

function fromItem(integrationId: string, item: Item): HeartbeatState {
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  const dueSk = typeof item.gsi5sk === 'string' ? item.gsi5sk : null;
  return {
    integration_id: integrationId,
    account_id: String(item.account_id),
    armed_at: number(item.armed_at) ?? 0,
    last_beat_at: number(item.last_beat_at),
    alert_id: typeof item.alert_id === 'string' ? item.alert_id : null,
    missed_beat_at: number(item.missed_beat_at),
    alert_stored: item.alert_stored === true,
    due_at: dueSk ? Number(dueSk.slice(0, dueSk.indexOf('#'))) : null,
  };
}

async function update(input: Omit<UpdateCommandInput, 'TableName'>): Promise<Item | null | false> {
  try {
    const out = await db().send(new UpdateCommand({ TableName: tableName(), ...input }));
    return (out.Attributes as Item | undefined) ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

const dueValues = (accountId: string, integrationId: string, dueAt: number) => {
  const keys = dueIndexKeys(dueAt, heartbeatDueKey(accountId, integrationId));
  return { ':duePk': keys.gsi5pk, ':dueSk': keys.gsi5sk };
};

export async function getHeartbeat(integrationId: string): Promise<HeartbeatState | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: stateKey(integrationId), ConsistentRead: true }));
  return out.Item ? fromItem(integrationId, out.Item as Item) : null;
}

/** The states of several integrations in one round trip (a page of a list), by integration id. */
export async function getHeartbeats(integrationIds: string[]): Promise<Map<string, HeartbeatState>> {
  const found = await batchGet(integrationIds.map(stateKey));
  const states = new Map<string, HeartbeatState>();
  for (const id of integrationIds) {
    const item = found.get(keyString(stateKey(id)));
    if (item) states.set(id, fromItem(id, item));
  }
  return states;
}

/** Starts counting at `armedAt` (created, enabled again), due for a sweep at `dueAt`; keeps the last beat. */
export async function armHeartbeat(accountId: string, integrationId: string, armedAt: number, dueAt: number): Promise<void> {
  await update({
    Key: stateKey(integrationId),
    UpdateExpression: 'SET account_id = :acc, armed_at = :armed, gsi5pk = :duePk, gsi5sk = :dueSk',
    ExpressionAttributeValues: { ':acc': accountId, ':armed': armedAt, ...dueValues(accountId, integrationId, dueAt) },
  });
}

/** Moves the state's due index entry (the sweeper, or a changed window); false when the state is gone. */
export async function moveHeartbeatDue(accountId: string, integrationId: string, dueAt: number): Promise<boolean> {
  const moved = await update({
    Key: stateKey(integrationId),
    UpdateExpression: 'SET gsi5pk = :duePk, gsi5sk = :dueSk',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: dueValues(accountId, integrationId, dueAt),
  });
  return moved !== false;
}

/** Leaves the due index (a disabled heartbeat waits for nothing); the state stays. */
export async function parkHeartbeat(integrationId: string): Promise<void> {
  await update({ Key: stateKey(integrationId), UpdateExpression: 'REMOVE gsi5pk, gsi5sk', ConditionExpression: 'attribute_exists(pk)' });
}

export async function removeHeartbeat(integrationId: string): Promise<void> {
  await deleteItem(stateKey(integrationId));
}

/**
 * A beat at `at`: one conditional write, only forward in time (a beat that arrives after a later one
 * changes nothing). Returns the state after it; null when the state is missing (never armed), the same
 * state unchanged when a later beat was already recorded.
 */
export async function recordBeat(integrationId: string, at: number): Promise<HeartbeatState | null> {
  const after = await update({
    Key: stateKey(integrationId),
    UpdateExpression: 'SET last_beat_at = :at',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_beat_at) OR last_beat_at < :at)',
    ExpressionAttributeValues: { ':at': at },
    ReturnValues: 'ALL_NEW',
  });
  if (after) return fromItem(integrationId, after);
  return getHeartbeat(integrationId);
}

/**
 * Claims the miss of the deadline the sweeper saw: records the alert it will open, only if nobody
 * claimed one and no beat (or re-arming) came since it read the state. The due entry moves to
 * `recheckAt`, so a crash before the alert is stored leaves it to the next sweep.
 */
export async function claimMiss(seen: HeartbeatState, alertId: string, recheckAt: number): Promise<boolean> {
  const beat = seen.last_beat_at === null ? 'attribute_not_exists(last_beat_at)' : 'last_beat_at = :last';
  const claimed = await update({
    Key: stateKey(seen.integration_id),
    UpdateExpression: 'SET alert_id = :alert, missed_beat_at = :missed, alert_stored = :no, gsi5pk = :duePk, gsi5sk = :dueSk',
    ConditionExpression: `attribute_not_exists(alert_id) AND armed_at = :armed AND ${beat}`,
    ExpressionAttributeValues: {
      ':alert': alertId,
      ':missed': seen.last_beat_at ?? 0,
      ':no': false,
      ':armed': seen.armed_at,
      ...(seen.last_beat_at === null ? {} : { ':last': seen.last_beat_at }),
      ...dueValues(seen.account_id, seen.integration_id, recheckAt),
    },
  });
  return claimed !== false;
}

export async function markAlertStored(integrationId: string, alertId: string): Promise<void> {
  await update({
    Key: stateKey(integrationId),
    UpdateExpression: 'SET alert_stored = :yes',
    ConditionExpression: 'alert_id = :alert',
    ExpressionAttributeValues: { ':yes': true, ':alert': alertId },
  });
}

/** The miss is over (its alert resolved): forget the alert and wait for the deadline at `dueAt`. */
export async function clearMiss(state: HeartbeatState, dueAt: number): Promise<boolean> {
  const cleared = await update({
    Key: stateKey(state.integration_id),
    UpdateExpression: 'REMOVE alert_id, missed_beat_at, alert_stored SET gsi5pk = :duePk, gsi5sk = :dueSk',
    ConditionExpression: 'alert_id = :alert',
    ExpressionAttributeValues: { ':alert': state.alert_id, ...dueValues(state.account_id, state.integration_id, dueAt) },
  });
  return cleared !== false;
}
