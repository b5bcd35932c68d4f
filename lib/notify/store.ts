// Data access for notifications, the storm-protection rate items and the response-link secret
// (lib/notify/ACCESS-PATTERNS.md): the only file of lib/notify that knows their keys.
//   notification   A#<acc>#NTF / <id>
//                  gsi4: A#<acc>#NTF#ALT#<alert id> / <id>    (only with an alert; keys only)
//                  gsi6: A#<acc>#NTF#ACU#<account user id> / <id>   (only with an account user; keys only)
//                  (gsi1 / gsi2, the same keys with whole copies: notifications stored before)
//   counters       A#<acc>#COUNT / NTF   total, channel:<c>, template:<t>
//   owner counts   A#<acc>#OCOUNT#NTF / ACU#<account user id>   n (exact, per index partition; an alert's
//                  are counted from its partition: ALT#<alert id> items are from before)
//   rate item      A#<acc>#NRATE#<account user id> / <channel>   last send, how many wait, the
//                  bundle in flight; due index (lib/store/due-index.ts) while something waits
//   waiting        A#<acc>#NRATE#<account user id>#<channel>#W / <notification id>
//   secret         SYSTEM / RESPONSE_SECRET
//   VAPID keys     SYSTEM / VAPID_KEYS
//   phone pages    PHONE#<E.164 number>#PAGES / <acc>#<workflow id>   pages an SMS reply may answer (TTL 24 h)
//   provider msg   PMSG#<provider>#<provider's message id> / PMSG   → account, notification (receipts; TTL 14 days)
import { UpdateCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { dueIndexKeys, FORMER_DUE_KEYS } from '../store/due-index';
import { entityStore } from '../store/entity-store';
import {
  batchWrite,
  countItems,
  deleteItem,
  fromItem,
  getItem,
  isConditionFailure,
  putItem,
  putNew,
  queryItems,
  type Item,
} from '../store/items';
import type { NotificationRecord, NotificationStatus, ProviderStatus, ReceiptEventType } from './records';
import { nowIso } from '../clock';

const byAlert = (accountId: string, alertId: string) => `A#${accountId}#NTF#ALT#${alertId}`;
const byAccountUser = (accountId: string, accountUserId: string) => `A#${accountId}#NTF#ACU#${accountUserId}`;

const accountUserOwner = (accountUserId: string) => `ACU#${accountUserId}`;

/** Fields a notification recorded before they existed (welcome messages) may lack. */
const NOTIFICATION_DEFAULTS: Partial<NotificationRecord> = {
  account_user_id: null,
  alert_id: null,
  broadcast_id: null,
  workflow_id: null,
  group_id: null,
  provider_message_id: null,
  provider_status: null,
  err: [],
  cost: 0,
  source_key: null,
  sent_at: null,
  delivered_at: null,
};

/**
 * The stored attributes: without the id and the account (the item's keys hold them) and without the
 * fields that hold their default (restored by decode). A page's notification then stays under 1 KB
 * before and after it is sent, so each of its writes costs one unit in the table and in each of its
 * two indexes instead of two (docs/ARCHITECTURE.md, "Write budget per alert life").
 */
function encodeNotification(record: NotificationRecord): object {
  return Object.fromEntries(
    Object.entries(record).filter(([field, value]) => field !== 'id' && field !== 'account_id' && !isDefault(field, value)),
  );
}

/** Whether the field holds the value decode restores when it is absent. */
function isDefault(field: string, value: unknown): boolean {
  const defaults = NOTIFICATION_DEFAULTS as Record<string, unknown>;
  return field in defaults && JSON.stringify(value) === JSON.stringify(defaults[field]);
}

/**
 * The two lists of a notification, by alert and by person, are keys-only indexes (gsi4, gsi6): a
 * notification's moves (sent, delivered, failed) change no key, so they cost the item alone, where
 * whole copies in two indexes paid its size twice more on every move. Notifications stored before
 * sit in gsi1 / gsi2 under the same keys and are read beside them (FORMER_INDEX).
 */
const INDEX = { alert: 'gsi4', accountUser: 'gsi6' } as const;
const FORMER_INDEX = { alert: 'gsi1', accountUser: 'gsi2' } as const;

const notifications = entityStore<NotificationRecord>({
  kind: 'notification',
  indexKeys: (n) => ({
    gsi4pk: n.alert_id ? byAlert(n.account_id, n.alert_id) : undefined,
    gsi4sk: n.alert_id ? n.id : undefined,
    gsi6pk: n.account_user_id ? byAccountUser(n.account_id, n.account_user_id) : undefined,
    gsi6sk: n.account_user_id ? n.id : undefined,
  }),
  counts: (n) => [`channel:${n.channel}`, `template:${n.template}`],
  // A person's notifications grow for as long as they are paged, so their total is an owner count.
  // An alert's are tens (a few channels a page, a page a layer and repeat): their total is a COUNT
  // of the alert's keys-only partition, and a paging step writes one owner count instead of two
  // (docs/ARCHITECTURE.md, "Write budget per alert life"), as an alert's timeline is counted.
  owners: (n) => (n.account_user_id ? [accountUserOwner(n.account_user_id)] : []),
  encode: encodeNotification,
  decode: (item) => {
    const record = {
      ...NOTIFICATION_DEFAULTS,
      id: String(item.sk),
      account_id: String(item.pk).split('#')[1],
      ...fromItem<Partial<NotificationRecord> & { provider_id?: string | null }>(item),
    } as NotificationRecord & { provider_id?: string | null };
    // Stored before the field had its name: the provider's id was `provider_id`.
    if (record.provider_message_id === null && typeof record.provider_id === 'string') record.provider_message_id = record.provider_id;
    delete record.provider_id;
    return record;
  },
});

export const getNotification = notifications.get;
export const getNotifications = notifications.getMany;
export const notificationCollection = notifications.collection;
export const readNotificationCounts = notifications.counts;

/** Writes a new notification (queued); false when one with that id exists already (a retry). */
/**
 * Writes a new notification and counts it; false when one with its id exists already. A put whose
 * answer was lost applied all the same: the SDK's retry then finds the item, and its insert_token
 * tells this call's own record (written and counted once, then sent) from another call's.
 */
export function insertNotification(record: NotificationRecord): Promise<boolean> {
  return notifications.insert(record, (stored) => record.insert_token !== undefined && stored.insert_token === record.insert_token);
}

/** Many new notifications of one account at once (seeding, imports), counted as insert counts them. */
export const importNotifications = notifications.importMany;

export async function listNotificationsOfAlert(
  accountId: string,
  alertId: string,
  range: { forward?: boolean; limit?: number } = {},
): Promise<NotificationRecord[]> {
  return listIndexed(accountId, byAlert(accountId, alertId), 'alert', range);
}

export async function listNotificationsOfAccountUser(
  accountId: string,
  accountUserId: string,
  range: { forward?: boolean; limit?: number } = {},
): Promise<NotificationRecord[]> {
  return listIndexed(accountId, byAccountUser(accountId, accountUserId), 'accountUser', range);
}

/**
 * The notifications of one index partition in id order: its keys in the keys-only index and a
 * BatchGet of them, merged with those stored before in the whole-item index under the same key (a
 * Query that finds nothing once none is left there; both read `limit` at most).
 */
async function listIndexed(
  accountId: string,
  partition: string,
  by: keyof typeof INDEX,
  range: { forward?: boolean; limit?: number },
): Promise<NotificationRecord[]> {
  const forward = range.forward ?? false;
  const [keys, former] = await Promise.all([
    queryItems(partition, { index: INDEX[by], forward, limit: range.limit }),
    notifications.query(partition, { index: FORMER_INDEX[by], forward, limit: range.limit }),
  ]);
  const found = await notifications.getMany(
    accountId,
    keys.map((key) => String(key.sk)),
  );
  const merged = new Map([...former, ...found].map((n) => [n.id, n]));
  const ordered = [...merged.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (forward ? 1 : -1));
  return range.limit === undefined ? ordered : ordered.slice(0, range.limit);
}

/** An index partition counted (both indexes: see listIndexed). */
async function countIndexed(partition: string, by: keyof typeof INDEX): Promise<number> {
  const [keys, former] = await Promise.all([
    countItems(partition, { index: INDEX[by] }),
    countItems(partition, { index: FORMER_INDEX[by] }),
  ]);
  return keys + former;
}

/** An alert's notifications: a COUNT of its index partition (tens of keys), as for its timeline
 * (lib/logs/store.ts). An owner count an alert got before is not read: nothing adds to it now. */
export function countNotificationsOfAlert(accountId: string, alertId: string): Promise<number> {
  return countIndexed(byAlert(accountId, alertId), 'alert');
}

/** An account user's notifications: their owner count (one GetItem); without one (nothing counted
 * there since owner counts exist) their index partition is counted instead. */
export async function countNotificationsOfAccountUser(accountId: string, accountUserId: string): Promise<number> {
  const counted = await notifications.ownerCount(accountId, accountUserOwner(accountUserId));
  return counted ?? countIndexed(byAccountUser(accountId, accountUserId), 'accountUser');
}

export interface NotificationOutcome {
  status: NotificationStatus;
  provider?: string | null;
  provider_message_id?: string | null;
  provider_status?: ProviderStatus | (ReceiptEventType & {}) | null;
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
 * conditional write; returns the record after it, or null when it was no longer in `from` (or its
 * provider_status not one of `providerStatusIn`, when given).
 */
export async function moveNotification(
  accountId: string,
  id: string,
  from: readonly NotificationStatus[],
  outcome: NotificationOutcome,
  now: string,
  providerStatusIn?: readonly string[],
): Promise<NotificationRecord | null> {
  const names: Record<string, string> = { '#status': 'status', '#version': 'version', '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':status': outcome.status, ':one': 1, ':now': now };
  const sets = ['#status = :status', '#version = #version + :one', '#updated_at = :now'];
  // The insert's token only tells a retried insert its own item: once the notification moves on, it is dead weight.
  const removes = ['insert_token'];
  // A page's bundle facts (tiny id, title, urgency) are read only while it waits to be bundled.
  if (outcome.status === 'sent' || outcome.status === 'delivered' || outcome.status === 'failed') removes.push('bundle');
  let n = 0;
  for (const [field, value] of Object.entries(outcome)) {
    if (field === 'status' || value === undefined) continue;
    names[`#f${n}`] = field;
    // A field at its default is left out of the item, as an insert leaves it (decode restores it):
    // each byte kept counts toward the 1 KB that every later write of the item is billed by.
    if (isDefault(field, value)) removes.push(`#f${n}`);
    else {
      values[`:f${n}`] = value;
      sets.push(`#f${n} = :f${n}`);
    }
    n++;
  }
  const allowed = from.map((status, i) => {
    values[`:w${i}`] = status;
    return `:w${i}`;
  });
  let condition = `attribute_exists(pk) AND #status IN (${allowed.join(', ')})`;
  if (providerStatusIn) {
    names['#provider_status'] = 'provider_status';
    const statuses = providerStatusIn.map((status, i) => {
      values[`:p${i}`] = status;
      return `:p${i}`;
    });
    condition += ` AND #provider_status IN (${statuses.join(', ')})`;
  }
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: notifications.key(accountId, id),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
        ConditionExpression: condition,
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

// ── the provider's message id → the notification: what a delivery receipt is matched by ──────

/** How long a receipt may still arrive (End User Messaging: up to 72 hours; SES bounces: days). */
const PROVIDER_MESSAGE_TTL_S = 14 * 86_400;

const providerMessageKey = (provider: string, messageId: string) => ({ pk: `PMSG#${provider}#${messageId}`, sk: 'PMSG' });

/** Remembers which notification a provider's message id names (idempotent: the same put again). */
export async function putProviderMessage(pointer: {
  provider: string;
  messageId: string;
  accountId: string;
  notificationId: string;
  now: number;
}): Promise<void> {
  await putItem({
    ...providerMessageKey(pointer.provider, pointer.messageId),
    account_id: pointer.accountId,
    notification_id: pointer.notificationId,
    expires_at: Math.ceil(pointer.now / 1000) + PROVIDER_MESSAGE_TTL_S,
  });
}

/** The notification a provider's message id names (one GetItem), or null. */
export async function findProviderMessage(
  provider: string,
  messageId: string,
): Promise<{ accountId: string; notificationId: string } | null> {
  const item = await getItem(providerMessageKey(provider, messageId));
  if (typeof item?.account_id !== 'string' || typeof item.notification_id !== 'string') return null;
  return { accountId: item.account_id, notificationId: item.notification_id };
}

// ── storm protection: one rate item per person and rate-limited channel ───────────────────────
// The rate item holds the window (last_sent_at), the bundle in flight and the due time of the next
// flush; the messages waiting are small items of their own, so a storm's appends never contend on
// the rate item (an ADD of the waiting count and an if_not_exists due time, no condition).

export interface RateItem {
  account_id: string;
  account_user_id: string;
  channel: string;
  /** When the person was last sent a message on this channel (epoch ms); null: never. */
  last_sent_at: number | null;
  /** How many messages wait (may run ahead of the waiting items by a crash: never below what is there). */
  pending_count: number;
  /** The bundle being sent now: its notification ids, and until when its sender may work on it. */
  inflight: string[];
  inflight_until: number | null;
  /** When a flush is due (the window opens, or a stalled bundle's sender gave up). */
  due_at: number | null;
  /** +1 on every claim and flush (appends leave it alone). */
  version: number;
}

const rateKey = (accountId: string, accountUserId: string, channel: string) => ({
  pk: `A#${accountId}#NRATE#${accountUserId}`,
  sk: channel,
});
const waitingPartition = (accountId: string, accountUserId: string, channel: string) =>
  `A#${accountId}#NRATE#${accountUserId}#${channel}#W`;

export function rateDueKey(accountId: string, accountUserId: string, channel: string): string {
  return `RATE#${accountId}#${accountUserId}#${channel}`;
}

function decodeRate(item: Item | null, accountId: string, accountUserId: string, channel: string): RateItem {
  return {
    account_id: accountId,
    account_user_id: accountUserId,
    channel,
    last_sent_at: typeof item?.last_sent_at === 'number' ? item.last_sent_at : null,
    pending_count: typeof item?.pending_count === 'number' ? item.pending_count : 0,
    inflight: Array.isArray(item?.inflight) ? (item.inflight as string[]) : [],
    inflight_until: typeof item?.inflight_until === 'number' ? item.inflight_until : null,
    due_at: typeof item?.due_at === 'number' ? item.due_at : null,
    version: typeof item?.version === 'number' ? item.version : 0,
  };
}

export async function getRateItem(accountId: string, accountUserId: string, channel: string): Promise<RateItem> {
  return decodeRate(await getItem(rateKey(accountId, accountUserId, channel)), accountId, accountUserId, channel);
}

/** The item still holds the version read (0: it had none yet). */
function versionIs(version: number): { condition: string; values: Record<string, number> } {
  return version === 0
    ? { condition: 'attribute_not_exists(#version)', values: {} }
    : { condition: '#version = :v', values: { ':v': version } };
}

async function conditionalUpdate(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<Item | null> {
  try {
    const out = await db().send(new UpdateCommand(input));
    return (out.Attributes as Item | undefined) ?? {};
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/**
 * Claims the window for one message: only when it is open (nothing sent within the window) and
 * nothing waits or is being sent. False when the message must wait.
 */
export async function claimSendWindow(
  accountId: string,
  accountUserId: string,
  channel: string,
  now: number,
  windowMs: number,
): Promise<boolean> {
  const claimed = await conditionalUpdate({
    TableName: tableName(),
    Key: rateKey(accountId, accountUserId, channel),
    UpdateExpression: 'SET last_sent_at = :now, #version = if_not_exists(#version, :zero) + :one',
    ConditionExpression:
      '(attribute_not_exists(last_sent_at) OR last_sent_at <= :opened) AND (attribute_not_exists(pending_count) OR pending_count <= :zero) AND attribute_not_exists(inflight)',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':now': now, ':opened': now - windowMs, ':zero': 0, ':one': 1 },
  });
  return claimed !== null;
}

/**
 * Adds a message to the person's waiting list (an item of its own, then the count) and sets the due
 * time of the flush if none is set. Returns true when this call set it (the caller schedules the flush).
 */
export async function addWaiting(
  accountId: string,
  accountUserId: string,
  channel: string,
  notificationId: string,
  dueAt: number,
): Promise<boolean> {
  await putItem({ pk: waitingPartition(accountId, accountUserId, channel), sk: notificationId, notification_id: notificationId });
  const due = dueIndexKeys(dueAt, rateDueKey(accountId, accountUserId, channel));
  const old = await conditionalUpdate({
    TableName: tableName(),
    Key: rateKey(accountId, accountUserId, channel),
    UpdateExpression:
      'ADD pending_count :one SET due_at = if_not_exists(due_at, :due), gsi5pk = if_not_exists(gsi5pk, :gpk), gsi5sk = if_not_exists(gsi5sk, :gsk)',
    ExpressionAttributeValues: { ':one': 1, ':due': dueAt, ':gpk': due.gsi5pk, ':gsk': due.gsi5sk },
    ReturnValues: 'ALL_OLD',
  });
  return old?.due_at === undefined;
}

/** The messages waiting, oldest first (at most `limit`). */
export async function listWaiting(accountId: string, accountUserId: string, channel: string, limit: number): Promise<string[]> {
  return (await queryItems(waitingPartition(accountId, accountUserId, channel), { limit })).map((item) => String(item.sk));
}

export async function removeWaiting(accountId: string, accountUserId: string, channel: string, ids: readonly string[]): Promise<void> {
  await batchWrite(ids.map((id) => ({ DeleteRequest: { Key: { pk: waitingPartition(accountId, accountUserId, channel), sk: id } } })));
}

/**
 * Takes a bundle: the window is claimed for it (last_sent_at now), its ids go in flight until
 * `until` (the due time then, so a crashed sender's bundle is recovered), and `taken` leave the
 * waiting count. Conditional on the version read (another flush or claim came first: null).
 */
export async function takeBundle(rate: RateItem, ids: readonly string[], taken: number, now: number, until: number): Promise<boolean> {
  const due = dueIndexKeys(until, rateDueKey(rate.account_id, rate.account_user_id, rate.channel));
  const set = ids.length
    ? 'SET last_sent_at = :now, inflight = :ids, inflight_until = :until, due_at = :until, gsi5pk = :gpk, gsi5sk = :gsk, #version = if_not_exists(#version, :zero) + :one'
    : 'SET due_at = :until, gsi5pk = :gpk, gsi5sk = :gsk, #version = if_not_exists(#version, :zero) + :one';
  const done = await conditionalUpdate({
    TableName: tableName(),
    Key: rateKey(rate.account_id, rate.account_user_id, rate.channel),
    UpdateExpression: `${set} ADD pending_count :minus REMOVE ${FORMER_DUE_KEYS}`,
    ConditionExpression: versionIs(rate.version).condition,
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: {
      ':until': until,
      ':gpk': due.gsi5pk,
      ':gsk': due.gsi5sk,
      ':one': 1,
      ':zero': 0,
      ':minus': -taken,
      ...versionIs(rate.version).values,
      ...(ids.length ? { ':now': now, ':ids': ids } : {}),
    },
  });
  return done !== null;
}

/** A bundle is sent (or recovered): nothing in flight, and a flush due at `dueAt` for what came meanwhile. */
export async function releaseBundle(rate: Pick<RateItem, 'account_id' | 'account_user_id' | 'channel'>, dueAt: number): Promise<void> {
  const due = dueIndexKeys(dueAt, rateDueKey(rate.account_id, rate.account_user_id, rate.channel));
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateKey(rate.account_id, rate.account_user_id, rate.channel),
      UpdateExpression: `SET due_at = :due, gsi5pk = :gpk, gsi5sk = :gsk, #version = if_not_exists(#version, :zero) + :one REMOVE inflight, inflight_until, ${FORMER_DUE_KEYS}`,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':due': dueAt, ':gpk': due.gsi5pk, ':gsk': due.gsi5sk, ':one': 1, ':zero': 0 },
    }),
  );
}

/** Moves the next flush to `dueAt` (the window opens then); false when the item changed meanwhile. */
export async function postponeFlush(rate: RateItem, dueAt: number): Promise<boolean> {
  const due = dueIndexKeys(dueAt, rateDueKey(rate.account_id, rate.account_user_id, rate.channel));
  return (
    (await conditionalUpdate({
      TableName: tableName(),
      Key: rateKey(rate.account_id, rate.account_user_id, rate.channel),
      UpdateExpression: `SET due_at = :due, gsi5pk = :gpk, gsi5sk = :gsk, #version = if_not_exists(#version, :zero) + :one REMOVE ${FORMER_DUE_KEYS}`,
      ConditionExpression: versionIs(rate.version).condition,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: {
        ':due': dueAt,
        ':gpk': due.gsi5pk,
        ':gsk': due.gsi5sk,
        ':one': 1,
        ':zero': 0,
        ...versionIs(rate.version).values,
      },
    })) !== null
  );
}

/** Nothing waits: no flush is due any more (unless a message was added meanwhile: false). */
export async function clearFlush(rate: RateItem): Promise<boolean> {
  return (
    (await conditionalUpdate({
      TableName: tableName(),
      Key: rateKey(rate.account_id, rate.account_user_id, rate.channel),
      UpdateExpression: `SET #version = if_not_exists(#version, :zero) + :one, pending_count = :zero REMOVE due_at, gsi5pk, gsi5sk, inflight, inflight_until, ${FORMER_DUE_KEYS}`,
      ConditionExpression: `${versionIs(rate.version).condition} AND (attribute_not_exists(pending_count) OR pending_count <= :zero)`,
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':one': 1, ':zero': 0, ...versionIs(rate.version).values },
    })) !== null
  );
}

// ── the signing secret of one-click response links ──────────────────────────────────────────

const SECRET_KEY = { pk: 'SYSTEM', sk: 'RESPONSE_SECRET' };

export async function getStoredResponseSecret(): Promise<string | null> {
  const item = await getItem(SECRET_KEY);
  return typeof item?.secret === 'string' ? item.secret : null;
}

/** Stores the secret once; false when another process stored one first. */
export function insertResponseSecret(secret: string): Promise<boolean> {
  return putNew({ ...SECRET_KEY, secret, created_at: nowIso() });
}

// ── the VAPID key pair of Web Push ────────────────────────────────────────────────────────────

const VAPID_KEY = { pk: 'SYSTEM', sk: 'VAPID_KEYS' };

export async function getStoredVapidKeys(): Promise<{ publicKey: string; privateKey: string } | null> {
  const item = await getItem(VAPID_KEY);
  return typeof item?.public_key === 'string' && typeof item.private_key === 'string'
    ? { publicKey: item.public_key, privateKey: item.private_key }
    : null;
}

/** Stores the pair once; false when another process stored one first. */
export function insertVapidKeys(keys: { publicKey: string; privateKey: string }): Promise<boolean> {
  return putNew({ ...VAPID_KEY, public_key: keys.publicKey, private_key: keys.privateKey, created_at: nowIso() });
}

// ── pages sent to a phone: what an SMS reply from that number may answer ─────────────────────

/** A page that went to a phone by SMS or call: an SMS reply from that number may answer it. */
export interface PhonePage {
  phone: string;
  account_id: string;
  account_user_id: string;
  alert_id: string;
  workflow_id: string;
  /** Epoch seconds after which the page is no longer answered by SMS (TTL removes it later). */
  expires_at: number;
}

const phonePartition = (phone: string) => `PHONE#${phone}#PAGES`;

/** Remembers a page sent to a phone (idempotent: one item per workflow). */
export async function putPhonePage(page: PhonePage): Promise<void> {
  await putItem({ pk: phonePartition(page.phone), sk: `${page.account_id}#${page.workflow_id}`, ...page });
}

/** The pages sent to a phone, at most `limit` (the newest come last within an account). */
export async function listPhonePages(phone: string, limit = 100): Promise<PhonePage[]> {
  const items = await queryItems(phonePartition(phone), { limit });
  return items.map((item) => fromItem<PhonePage>(item));
}

export async function removePhonePage(page: Pick<PhonePage, 'phone' | 'account_id' | 'workflow_id'>): Promise<void> {
  await deleteItem({ pk: phonePartition(page.phone), sk: `${page.account_id}#${page.workflow_id}` });
}
