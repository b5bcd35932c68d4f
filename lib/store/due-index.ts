// The due index: a sparse, sharded GSI (gsi3) of items that need work at a time: escalation states
// with a step or a leftover outbox due, notification rate items with pages waiting. Timers normally
// arrive as delayed queue messages; the sweeper reads this index so a timer lost with a crashed
// queue still fires. `what` names the item for its owner (`ESC#…`, `RATE#…`); the owner derives its
// key from it.
//   gsi3: DUE#<shard 0..15> / <due epoch ms, 15 digits>#<what>
import { queryItems } from './items';

export const DUE_SHARDS = 16;

const padded = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

function shardOf(what: string): number {
  let sum = 0;
  for (let i = 0; i < what.length; i++) sum = (sum * 31 + what.charCodeAt(i)) >>> 0;
  return sum % DUE_SHARDS;
}

/** The index attributes of an item due at `dueAt`; leave them out (REMOVE them) when nothing is due. */
export function dueIndexKeys(dueAt: number, what: string): { gsi3pk: string; gsi3sk: string } {
  return { gsi3pk: `DUE#${shardOf(what)}`, gsi3sk: `${padded(dueAt)}#${what}` };
}

export interface DueEntry {
  what: string;
  dueAt: number;
}

/** Entries due at or before `upTo`, from every shard (earliest first within a shard). */
export async function listDue(upTo: number, limitPerShard: number): Promise<DueEntry[]> {
  const bound = `${padded(upTo)}#~`;
  const shards = await Promise.all(
    Array.from({ length: DUE_SHARDS }, (_, shard) =>
      queryItems(`DUE#${shard}`, { index: 'gsi3', skBetween: ['0', bound], limit: limitPerShard }),
    ),
  );
  return shards.flat().map((item) => {
    const sk = String(item.gsi3sk);
    const at = sk.indexOf('#');
    return { dueAt: Number(sk.slice(0, at)), what: sk.slice(at + 1) };
  });
}
