// Packed timeline entries (docs/ARCHITECTURE.md "Write budget per alert life", Logs): the entries one
// escalation step writes in the same millisecond (a layer's timed_out, then escalated), or one routing
// writes (an entry per router, then the outcome: lib/alert-routing/route-alert.ts) stored as ONE item
// instead of one each, which saves the table's and the owner index's unit of every entry but
// the first. Pure: the store (store.ts) holds the keys and hands in what they give.
//   - The item's sort key is the first entry's id; the others' ids follow it one by one (nextUlid),
//     so no other log of the account sorts between them: every reader unpacks an item where it stands
//     and the account's logs keep their id order.
//   - An entry is kept compact: its `data`, and only those fields that differ from what the data,
//     the keys and the pack's tiny id derive (an alert timeline entry's content, source, times; see
//     derivedEntry). The derivation is a default, not a rule: what it does not give is stored.
import { isDeepStrictEqual } from 'node:util';
import type { LogRecord } from './records';

/** The attribute of a packed item that holds its entries (a single log never has it). */
export const PACK_ATTRIBUTE = 'pack';
/** The alert's tiny id, as its entries' content names it. */
const TINY_ATTRIBUTE = 'tiny';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The ULID `step` away from `id` in its random part: nothing can sort between the two. */
function movedUlid(id: string, step: 1 | -1): string {
  const chars = id.split('');
  // Only the sixteen random characters move: the time part stays the entries' millisecond.
  for (let i = chars.length - 1; i >= chars.length - 16; i--) {
    const value = CROCKFORD.indexOf(chars[i]);
    if (value < 0) throw new Error(`not a ULID: ${id}`);
    const moved = value + step;
    if (moved >= 0 && moved < 32) {
      chars[i] = CROCKFORD[moved];
      return chars.join('');
    }
    chars[i] = step > 0 ? '0' : 'Z';
  }
  throw new Error(`no ULID ${step > 0 ? 'follows' : 'precedes'} ${id} in its millisecond`);
}

/** The ULID right after `id` (its random part plus one). */
export const nextUlid = (id: string): string => movedUlid(id, 1);

/** The ULID right before `id` (its random part minus one). */
export const previousUlid = (id: string): string => movedUlid(id, -1);

/** The ids of a pack of `count` entries whose LAST id is `last` (the routing's outcome, route-alert.ts). */
export function packIdsEndingAt(last: string, count: number): string[] {
  const ids = [last];
  while (ids.length < count) ids.unshift(previousUlid(ids[0]));
  return ids;
}

/** The ids of a pack of `count` entries whose first id is `base`. */
export function packIds(base: string, count: number): string[] {
  const ids = [base];
  while (ids.length < count) ids.push(nextUlid(ids[ids.length - 1]));
  return ids;
}

/** One entry as stored in a pack: its data and what the derivation does not give. */
interface PackedEntry {
  d: Record<string, unknown>;
  x?: Record<string, unknown>;
}

export interface PackContext {
  accountId: string;
  ownerId: string;
  /** The item's sort key: the first entry's id. */
  baseId: string;
}

/** An alert timeline entry as lib/alerts/timeline.ts writes it, from its data and keys. */
function derivedEntry(data: Record<string, unknown>, id: string, context: PackContext, tiny: unknown): LogRecord {
  const actorId = (data.actor as { id?: unknown } | undefined)?.id;
  const who = typeof actorId === 'string' ? actorId : 'system';
  const [from, to] = [data.old_status, data.new_status];
  const statusPart = typeof from === 'string' && typeof to === 'string' && from && to && from !== to ? ` (${from} → ${to})` : '';
  const time = typeof data.time === 'string' ? data.time : '';
  return {
    id,
    account_id: context.accountId,
    type: 'alert',
    subtype: null,
    content: `Alert #${String(tiny)} ${String(data.action)} by ${who}${statusPart}`,
    owner_id: context.ownerId,
    source_id: typeof actorId === 'string' ? actorId : context.ownerId,
    level: 1,
    meta: {},
    data,
    created_at: time,
    updated_at: time,
    version: 1,
  };
}

/** The fields a pack derives or holds apart; any other field of an entry is kept in its `x`. */
const KEPT_APART = new Set(['id', 'account_id', 'owner_id', 'data']);

function unpackEntry(entry: PackedEntry, id: string, context: PackContext, tiny: unknown): LogRecord {
  const derived = derivedEntry(entry.d, id, context, tiny) as unknown as Record<string, unknown>;
  const record = { ...derived, ...(entry.x ?? {}) };
  // A derived field the entry did not have (named in `x` as undefined cannot be stored): `_absent`.
  const absent = (entry.x?._absent as string[] | undefined) ?? [];
  for (const name of absent) delete record[name];
  delete record._absent;
  return record as unknown as LogRecord;
}

/**
 * The attributes of one item holding `logs` (besides its keys), or null when they cannot share one:
 * not one account and owner, ids not consecutive from the first (packIds), or an entry the compact
 * form would not give back as it is.
 */
export function packEntries(logs: readonly LogRecord[]): Record<string, unknown> | null {
  if (logs.length < 2) return null;
  const [first] = logs;
  const context: PackContext = { accountId: first.account_id, ownerId: first.owner_id, baseId: first.id };
  const ids = packIds(first.id, logs.length);
  if (logs.some((log, i) => log.id !== ids[i] || log.account_id !== context.accountId || log.owner_id !== context.ownerId)) return null;
  const tiny = /^Alert #(\S+) /.exec(first.content)?.[1] ?? '';
  const tinyValue: string | number = /^\d+$/.test(tiny) ? Number(tiny) : tiny;
  const entries = logs.map((log): PackedEntry => {
    const derived = derivedEntry(log.data, log.id, context, tinyValue) as unknown as Record<string, unknown>;
    const stored = log as unknown as Record<string, unknown>;
    const x: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(stored)) {
      if (!KEPT_APART.has(name) && value !== undefined && !isDeepStrictEqual(value, derived[name])) x[name] = value;
    }
    const absent = Object.keys(derived).filter((name) => !KEPT_APART.has(name) && stored[name] === undefined);
    if (absent.length) x._absent = absent;
    return Object.keys(x).length ? { d: log.data, x } : { d: log.data };
  });
  const attributes = { [PACK_ATTRIBUTE]: entries, [TINY_ATTRIBUTE]: tinyValue };
  const back = unpackEntries(attributes, context);
  return back.every((log, i) => isDeepStrictEqual(log, logs[i])) ? attributes : null;
}

/** Whether a stored item holds packed entries. */
export function isPacked(item: Record<string, unknown>): boolean {
  return Array.isArray(item[PACK_ATTRIBUTE]);
}

/** How many entries an item holds: those of its pack, or itself. */
export function entriesIn(item: Record<string, unknown>): number {
  const pack = item[PACK_ATTRIBUTE];
  return Array.isArray(pack) ? pack.length : 1;
}

/** The entries of a packed item, in id order. */
export function unpackEntries(item: Record<string, unknown>, context: PackContext): LogRecord[] {
  const entries = item[PACK_ATTRIBUTE] as PackedEntry[];
  const ids = packIds(context.baseId, entries.length);
  return entries.map((entry, i) => unpackEntry(entry, ids[i], context, item[TINY_ATTRIBUTE]));
}
