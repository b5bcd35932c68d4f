// Data access for broadcasts (lib/broadcasts/ACCESS-PATTERNS.md): the only file that knows their keys.
//   broadcast   A#<acc>#BRD / <id>                 (+ gsi5 due index while a timer is due)
//   addressee   A#<acc>#BRD#<id>#TO / <acu id>     who it was delivered to (written at delivery)
//   answer      A#<acc>#BRD#<id>#RE / <acu id>     one per person, replaced by a conditional put
// The counts of the answers are derived from the answer items on every read: nothing to keep exact.
import type { Entity } from '../store/entity-store';
import { entityStore } from '../store/entity-store';
import { dueIndexKeys } from '../store/due-index';
import { batchWrite, fromItem, getItem, putIfVersion, putNew, queryItems } from '../store/items';
import type { BroadcastRecord, BroadcastResponseRecord } from './records';

/** The due index names a broadcast `BRD#<acc>#<id>`. */
export const broadcastDueKey = (accountId: string, id: string) => `BRD#${accountId}#${id}`;

export function parseBroadcastDueKey(what: string): { accountId: string; broadcastId: string } | null {
  const parts = what.split('#');
  return parts.length === 3 && parts[0] === 'BRD' ? { accountId: parts[1], broadcastId: parts[2] } : null;
}

const broadcasts = entityStore<BroadcastRecord>({
  kind: 'broadcast',
  audit: { objectType: 'broadcast', callersOnly: true },
  indexKeys: (b) => (b.due_at === null ? {} : dueIndexKeys(b.due_at, broadcastDueKey(b.account_id, b.id))),
});

export const getBroadcast = broadcasts.get;
export const broadcastCollection = broadcasts.collection;
export const nextBroadcastTinyId = broadcasts.nextTinyId;

export async function insertBroadcast(record: BroadcastRecord): Promise<void> {
  if (!(await broadcasts.insert(record))) throw new Error(`broadcast ${record.id} already exists`);
}

/** A versioned save (`next.version` = the version read + 1); false when another write came first. */
export const saveBroadcast = (next: BroadcastRecord) => broadcasts.save(next);

const addressees = (accountId: string, broadcastId: string) => `A#${accountId}#BRD#${broadcastId}#TO`;
const answers = (accountId: string, broadcastId: string) => `A#${accountId}#BRD#${broadcastId}#RE`;

/** Records who the broadcast went to (idempotent: a resumed delivery writes the same items). */
export async function putAddressees(accountId: string, broadcastId: string, accountUserIds: readonly string[]): Promise<void> {
  await batchWrite(
    accountUserIds.map((id) => ({ PutRequest: { Item: { pk: addressees(accountId, broadcastId), sk: id, account_user_id: id } } })),
  );
}

export async function isAddressee(accountId: string, broadcastId: string, accountUserId: string): Promise<boolean> {
  return (await getItem({ pk: addressees(accountId, broadcastId), sk: accountUserId })) !== null;
}

type StoredResponse = BroadcastResponseRecord & Entity;

const decodeResponse = (item: Record<string, unknown>) => fromItem<StoredResponse>(item);

/** Every answer of the broadcast (one per person). */
export async function listResponses(accountId: string, broadcastId: string): Promise<StoredResponse[]> {
  return (await queryItems(answers(accountId, broadcastId))).map(decodeResponse);
}

export async function getResponse(accountId: string, broadcastId: string, accountUserId: string): Promise<StoredResponse | null> {
  const item = await getItem({ pk: answers(accountId, broadcastId), sk: accountUserId });
  return item ? decodeResponse(item) : null;
}

/**
 * Writes a person's answer: the first one on condition that they have none, a later one on condition
 * that the answer read (`previous`) is still the stored one. False when another answer came first.
 */
export async function putResponse(response: BroadcastResponseRecord, previous: StoredResponse | null): Promise<boolean> {
  const item = {
    pk: answers(response.account_id, response.broadcast_id),
    sk: response.account_user_id,
    ...response,
    version: previous ? previous.version + 1 : 1,
  };
  return previous ? putIfVersion(item, previous.version) : putNew(item);
}

/** Removes the broadcast, its addressees and its answers; returns what it held (null: absent). */
export async function removeBroadcast(accountId: string, id: string): Promise<BroadcastRecord | null> {
  const removed = await broadcasts.remove(accountId, id);
  if (!removed) return null;
  for (const partition of [addressees(accountId, id), answers(accountId, id)]) {
    const items = await queryItems(partition);
    await batchWrite(items.map((item) => ({ DeleteRequest: { Key: { pk: String(item.pk), sk: String(item.sk) } } })));
  }
  return removed;
}
