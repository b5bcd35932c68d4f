// Data access for notifications, the storm-protection rate items and the response-link secret
// (lib/notify/ACCESS-PATTERNS.md): the only file of lib/notify that knows their keys.
//   notification   A#<acc>#NTF / <id>
//                  gsi1: A#<acc>#NTF#ALT#<alert id> / <id>    (only with an alert)
//                  gsi2: A#<acc>#NTF#ACU#<account user id> / <id>   (only with an account user)
//   counters       A#<acc>#COUNT / NTF   total, channel:<c>, template:<t>
//   rate item      A#<acc>#NRATE#<account user id> / <channel>   last send, pages waiting, the
//                  bundle in flight; due index (lib/store/due-index.ts) while something waits
//   secret         SYSTEM / RESPONSE_SECRET
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { dueIndexKeys } from '../store/due-index';
import { entityStore } from '../store/entity-store';
import { countItems, fromItem, getItem, isConditionFailure, putNew, type Item } from '../store/items';
import type { NotificationRecord, NotificationStatus, ProviderStatus } from './records';

const byAlert = (accountId: string, alertId: string) => `A#${accountId}#NTF#ALT#${alertId}`;
const byAccountUser = (accountId: string, accountUserId: string) => `A#${accountId}#NTF#ACU#${accountUserId}`;

/** Fields a notification recorded before they existed (welcome messages) may lack. */
const NOTIFICATION_DEFAULTS: Partial<NotificationRecord> = {
  account_user_id: null,
  alert_id: null,
  broadcast_id: null,
  workflow_id: null,
  group_id: null,
  provider_id: null,
  provider_status: null,
  err: [],
  cost: 0,
  source_key: null,
  sent_at: null,
  delivered_at: null,
};

const notifications = entityStore<NotificationRecord>({
  kind: 'notification',
  indexKeys: (n) => ({
    gsi1pk: n.alert_id ? byAlert(n.account_id, n.alert_id) : undefined,
    gsi1sk: n.alert_id ? n.id : undefined,
    gsi2pk: n.account_user_id ? byAccountUser(n.account_id, n.account_user_id) : undefined,
    gsi2sk: n.account_user_id ? n.id : undefined,
  }),
  counts: (n) => [`channel:${n.channel}`, `template:${n.template}`],
  decode: (item) => ({ ...NOTIFICATION_DEFAULTS, ...fromItem<NotificationRecord>(item) }),
});

export const getNotification = notifications.get;
export const getNotifications = notifications.getMany;
export const notificationCollection = notifications.collection;
export const readNotificationCounts = notifications.counts;

/** Writes a new notification (queued); false when one with that id exists already (a retry). */
export function insertNotification(record: NotificationRecord): Promise<boolean> {
  return notifications.insert(record);
}

export async function listNotificationsOfAlert(
  accountId: string,
  alertId: string,
  range: { forward?: boolean; limit?: number } = {},
): Promise<NotificationRecord[]> {
  return notifications.query(byAlert(accountId, alertId), { index: 'gsi1', forward: range.forward ?? false, limit: range.limit });
}

export async function listNotificationsOfAccountUser(
  accountId: string,
  accountUserId: string,
  range: { forward?: boolean; limit?: number } = {},
): Promise<NotificationRecord[]> {
  return notifications.query(byAccountUser(accountId, accountUserId), {
    index: 'gsi2',
    forward: range.forward ?? false,
    limit: range.limit,
  });
}

export const countNotificationsOfAlert = (accountId: string, alertId: string) => countItems(byAlert(accountId, alertId), { index: 'gsi1' });
export const countNotificationsOfAccountUser = (accountId: string, accountUserId: string) =>
  countItems(byAccountUser(accountId, accountUserId), { index: 'gsi2' });

export interface NotificationOutcome {
  status: NotificationStatus;
  provider?: string | null;
  provider_id?: string | null;
  provider_status?: ProviderStatus | null;
  err?: string[];
  cost?: number;
  sent_at?: string | null;
  delivered_at?: string | null;
  group_id?: string | null;
  message?: string;
  subject?: string | null;
}

/**
 * Moves a notification from one of `from` to `outcome.status` (with its other fields) in one
 * conditional write; returns the record after it, or null when it was no longer in `from`.
 */
export async function moveNotification(
  accountId: string,
  id: string,
  from: readonly NotificationStatus[],
  outcome: NotificationOutcome,
  now: string,
): Promise<NotificationRecord | null> {
  const names: Record<string, string> = { '#status': 'status', '#version': 'version', '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':status': outcome.status, ':one': 1, ':now': now };
  const sets = ['#status = :status', '#version = #version + :one', '#updated_at = :now'];
  let n = 0;
  for (const [field, value] of Object.entries(outcome)) {
    if (field === 'status' || value === undefined) continue;
    names[`#f${n}`] = field;
    values[`:f${n}`] = value;
    sets.push(`#f${n} = :f${n}`);
    n++;
  }
  const allowed = from.map((status, i) => {
    values[`:w${i}`] = status;
    return `:w${i}`;
  });
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: notifications.key(accountId, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(pk) AND #status IN (${allowed.join(', ')})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return notifications.decode(out.Attributes as Item);
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

// ── storm protection: one rate item per person and rate-limited channel ───────────────────────

export interface RateItem {
  account_id: string;
  account_user_id: string;
  channel: string;
  /** When the person was last sent a message on this channel (epoch ms); absent: never. */
  last_sent_at: number | null;
  /** Notification ids waiting for the window to open, in arrival order. */
  pending: string[];
  /** The bundle being sent now: its notification ids, and until when the sender may work on it. */
  inflight: string[];
  inflight_until: number | null;
  /** When a flush is due (the window opens, or a stalled bundle's sender gave up). */
  due_at: number | null;
  version: number;
}

const rateKey = (accountId: string, accountUserId: string, channel: string) => ({
  pk: `A#${accountId}#NRATE#${accountUserId}`,
  sk: channel,
});

export function rateDueKey(accountId: string, accountUserId: string, channel: string): string {
  return `RATE#${accountId}#${accountUserId}#${channel}`;
}

function decodeRate(item: Item | null, accountId: string, accountUserId: string, channel: string): RateItem {
  return {
    account_id: accountId,
    account_user_id: accountUserId,
    channel,
    last_sent_at: typeof item?.last_sent_at === 'number' ? item.last_sent_at : null,
    pending: Array.isArray(item?.pending) ? (item.pending as string[]) : [],
    inflight: Array.isArray(item?.inflight) ? (item.inflight as string[]) : [],
    inflight_until: typeof item?.inflight_until === 'number' ? item.inflight_until : null,
    due_at: typeof item?.due_at === 'number' ? item.due_at : null,
    version: typeof item?.version === 'number' ? item.version : 0,
  };
}

export async function getRateItem(accountId: string, accountUserId: string, channel: string): Promise<RateItem> {
  return decodeRate(await getItem(rateKey(accountId, accountUserId, channel)), accountId, accountUserId, channel);
}

/**
 * Writes the whole rate item on condition that it still holds `expectedVersion` (0: absent). The due
 * index entry follows `due_at`. False when another writer came first: the caller reads again.
 */
export async function saveRateItem(next: RateItem, expectedVersion: number): Promise<boolean> {
  const key = rateKey(next.account_id, next.account_user_id, next.channel);
  const item: Item = {
    ...key,
    account_id: next.account_id,
    account_user_id: next.account_user_id,
    channel: next.channel,
    kind: 'notification_rate',
    ...(next.last_sent_at !== null ? { last_sent_at: next.last_sent_at } : {}),
    ...(next.pending.length ? { pending: next.pending } : {}),
    ...(next.inflight.length ? { inflight: next.inflight, inflight_until: next.inflight_until } : {}),
    ...(next.due_at !== null
      ? { due_at: next.due_at, ...dueIndexKeys(next.due_at, rateDueKey(next.account_id, next.account_user_id, next.channel)) }
      : {}),
    version: expectedVersion + 1,
  };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : '#version = :v',
        ...(expectedVersion === 0
          ? {}
          : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':v': expectedVersion } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// ── the signing secret of one-click response links ──────────────────────────────────────────

const SECRET_KEY = { pk: 'SYSTEM', sk: 'RESPONSE_SECRET' };

export async function getStoredResponseSecret(): Promise<string | null> {
  const item = await getItem(SECRET_KEY);
  return typeof item?.secret === 'string' ? item.secret : null;
}

/** Stores the secret once; false when another process stored one first. */
export function insertResponseSecret(secret: string): Promise<boolean> {
  return putNew({ ...SECRET_KEY, secret, created_at: new Date().toISOString() });
}
