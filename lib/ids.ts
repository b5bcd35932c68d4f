// Identifiers (docs/api.md#ids): a ULID `id`, a `<prefix>_<ULID>` prefix id, and per-account tiny ids
// (issued by the store). Paths accept either form; anything else is simply absent.
import { createHash, randomFillSync } from 'node:crypto';
import { encodeTime, monotonicFactory } from 'ulid';
import { ENTITIES, type EntityKind } from './entities';

/** The prefix of each kind's prefix ids (from the registry, lib/entities.ts). */
export const PREFIXES = Object.fromEntries(Object.entries(ENTITIES).map(([kind, info]) => [kind, info.prefix])) as {
  [K in EntityKind]: (typeof ENTITIES)[K]['prefix'];
};

export type { EntityKind };

/** A ULID's characters (Crockford's base 32), for patterns that embed it. */
export const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';
const ULID_RE = new RegExp(`^${ULID_PATTERN}$`);
// ulid's own source asks crypto for one byte per character, 16 calls per new millisecond: a few
// percent of an acknowledgement's CPU. The same cryptographic bytes, drawn 4 KiB at a time.
const randomBytes = Buffer.alloc(4096);
let nextByte = randomBytes.length;
function randomFraction(): number {
  if (nextByte === randomBytes.length) {
    randomFillSync(randomBytes);
    nextByte = 0;
  }
  return randomBytes[nextByte++] / 256;
}
const nextUlid = monotonicFactory(randomFraction);

export function newId(): string {
  return nextUlid();
}

// Ids of records whose creation time is the service's clock (lib/clock.ts), so that their ULID and
// their created_at agree when a test moves the clock. While the clock reads wall time (always, in
// production) they come from newId's own sequence, so every id of the process keeps growing; a clock
// moved further than the created_at ranges' slack gets a sequence of its own, stamped with its time,
// which starts again when that clock steps back (a test putting it back to wall time) instead of
// stamping every later id with the time it left.
const WALL_CLOCK_SLACK_MS = 60_000;
let clockUlid = monotonicFactory(randomFraction);
let lastClockTime = 0;

/** A new ULID for a record created at `timeMs` by the service's clock. */
export function newIdAt(timeMs: number): string {
  if (Math.abs(timeMs - Date.now()) <= WALL_CLOCK_SLACK_MS) return nextUlid();
  if (timeMs < lastClockTime) clockUlid = monotonicFactory(randomFraction);
  lastClockTime = timeMs;
  return clockUlid(timeMs);
}

// Not a type predicate (`value is string`): false does not mean "not a string", and the compiler would
// take it to (a non-ULID string narrowed to never).
export function isUlid(value: unknown): boolean {
  return typeof value === 'string' && ULID_RE.test(value);
}

export function prefixId(kind: EntityKind, id: string): string {
  return `${PREFIXES[kind]}_${id}`;
}

/** The ULID named by `value` (a ULID or this kind's prefix id), or null when it names nothing of this kind. */
export function parseId(kind: EntityKind, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const upper = value.length === 26 ? value.toUpperCase() : value;
  if (ULID_RE.test(upper)) return upper;
  const prefix = `${PREFIXES[kind]}_`;
  if (value.startsWith(prefix)) {
    const rest = value.slice(prefix.length).toUpperCase();
    if (ULID_RE.test(rest)) return rest;
  }
  return null;
}

const KIND_BY_PREFIX = new Map<string, EntityKind>(Object.entries(PREFIXES).map(([kind, prefix]) => [prefix, kind as EntityKind]));

/** Splits a prefix id of any known kind (`tem_…`, `usr_…`): used for mixed reference lists. */
export function parsePrefixedId(value: unknown): { kind: EntityKind; id: string } | null {
  if (typeof value !== 'string') return null;
  const at = value.indexOf('_');
  if (at <= 0) return null;
  const kind = KIND_BY_PREFIX.get(value.slice(0, at));
  const id = value.slice(at + 1).toUpperCase();
  if (!kind || !ULID_RE.test(id)) return null;
  return { kind, id };
}

/** Milliseconds since the epoch encoded in a ULID: its creation time. */
export function ulidTime(id: string): number {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = 0;
  for (let i = 0; i < 10; i++) time = time * 32 + alphabet.indexOf(id[i]);
  return time;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID that is the same every time for the same (time, seed): the id of something a retried
 * message may try to write again (a timeline entry, a notification of one page), so the retry
 * finds it instead of writing a second one.
 */
export function derivedUlid(timeMs: number, seed: string): string {
  return sequencedUlid(timeMs, -1, seed);
}

/**
 * A derived ULID whose first two random characters are `sequence` (0..1023), so the entries one step
 * writes in the same millisecond sort in the order written (a routing's hops, then its outcome)
 * without moving their time into the future, where a later writer's entries would sort first.
 * A negative sequence leaves all sixteen characters to the seed (derivedUlid).
 */
export function sequencedUlid(timeMs: number, sequence: number, seed: string): string {
  let time = '';
  let t = Math.max(0, Math.floor(timeMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = createHash('sha256').update(seed).digest();
  let random = '';
  if (sequence >= 0) {
    const seq = Math.min(Math.floor(sequence), 1023);
    random = CROCKFORD[seq >> 5] + CROCKFORD[seq & 31];
  }
  for (let i = random.length; i < 16; i++) random += CROCKFORD[bytes[i] % 32];
  return time + random;
}

/** The smallest and largest ULIDs of a millisecond: an id range of a creation-time range. */
export function ulidBoundsOf(ms: number): { low: string; high: string } {
  const time = encodeTime(Math.min(Math.max(0, Math.floor(ms)), 2 ** 48 - 1), 10);
  return { low: `${time}0000000000000000`, high: `${time}ZZZZZZZZZZZZZZZZ` };
}
