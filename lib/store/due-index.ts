// The due index: a sparse, sharded GSI (gsi5, keys only) of items that need work at a time: escalation states
// with a step or a leftover outbox due, notification rate items with pages waiting, heartbeats whose
// deadline may have passed (lib/integrations/sweep-heartbeats.ts: no queue message at all). Timers normally
// arrive as delayed queue messages; the sweeper reads this index so a timer lost with a crashed
// queue still fires. `what` names the item for its owner (`ESC#…`, `RATE#…`, `HB#…`); the owner derives its
// key from it.
//   gsi5: DUE#<shard 0..15> / <due epoch ms, 15 digits>#<what>
// Keys only: the sweeper needs the sort key alone (the owner reads its item with the step's own
// GetItem), and a due item is written often while due (an escalation state, ~2.4 KB, three times a
// step): with the whole item projected, each of those writes paid its size again in the index
// (docs/ARCHITECTURE.md, "Write budget per alert life"). Items made due before the move carry the
// keys in gsi3 (whole items): every write that moves or clears a due time removes those
// (FORMER_DUE_KEYS), and the sweeper reads both indexes until none is left there. Once a process finds
// none left (no due key in any shard of gsi3, due or not), it reads gsi3 again only an hour later:
// this version writes no due key there, so only an item a former version wrote during a rolling
// deploy could appear, found within the hour (its own delayed queue message fires it meanwhile).
// Before, every listDue (seven a sweep) queried gsi3's sixteen shards for nothing.
import { now as clockNow } from '../clock';
import { tableName } from './client';
import { queryItems } from './items';

export const DUE_SHARDS = 16;
const DUE_INDEX = 'gsi5';
const FORMER_DUE_INDEX = 'gsi3';
/** The attributes the former due index was keyed on, for the REMOVE of every write of a due time. */
export const FORMER_DUE_KEYS = 'gsi3pk, gsi3sk';

const padded = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

function shardOf(what: string): number {
  let sum = 0;
  for (let i = 0; i < what.length; i++) sum = (sum * 31 + what.charCodeAt(i)) >>> 0;
  return sum % DUE_SHARDS;
}

/** The index attributes of an item due at `dueAt`; leave them out (REMOVE them) when nothing is due. */
export function dueIndexKeys(dueAt: number, what: string): { gsi5pk: string; gsi5sk: string } {
  return { gsi5pk: `DUE#${shardOf(what)}`, gsi5sk: `${padded(dueAt)}#${what}` };
}

export interface DueEntry {
  what: string;
  dueAt: number;
}

/** How long the former index, once found without any due key, is not read again (service clock). */
export const FORMER_INDEX_RECHECK_MS = 3_600_000;
/** When this process last found the former index without any due key, and in which table. */
let formerFoundEmpty: { table: string; at: number } | null = null;

function formerIndexPresumedEmpty(now: number): boolean {
  const found = formerFoundEmpty;
  // A clock set back (a test's reset) or another table (the local runtime, tests) knows nothing.
  return found !== null && found.table === tableName() && now >= found.at && now - found.at < FORMER_INDEX_RECHECK_MS;
}

/** Whether no shard of the former index holds a due key at all, due now or later. */
async function formerIndexEmpty(): Promise<boolean> {
  const shards = await Promise.all(
    Array.from({ length: DUE_SHARDS }, (_, shard) => queryItems(`DUE#${shard}`, { index: FORMER_DUE_INDEX, limit: 1 })),
  );
  return shards.every((items) => items.length === 0);
}

/** Entries due at or before `upTo`, from every shard (earliest first within a shard). */
export async function listDue(upTo: number, limitPerShard: number): Promise<DueEntry[]> {
  const bound = `${padded(upTo)}#~`;
  const read = (index: string) =>
    Array.from({ length: DUE_SHARDS }, async (_, shard) =>
      (await queryItems(`DUE#${shard}`, { index, skBetween: ['0', bound], limit: limitPerShard })).map((item) =>
        String(item[`${index}sk`]),
      ),
    );
  const now = clockNow();
  const readFormer = !formerIndexPresumedEmpty(now);
  const [current, former] = await Promise.all([Promise.all(read(DUE_INDEX)), readFormer ? Promise.all(read(FORMER_DUE_INDEX)) : []]);
  if (readFormer && former.every((keys) => keys.length === 0) && (await formerIndexEmpty()))
    formerFoundEmpty = { table: tableName(), at: now };
  return [...current, ...former].flat().map((sk) => {
    const at = sk.indexOf('#');
    return { dueAt: Number(sk.slice(0, at)), what: sk.slice(at + 1) };
  });
}
