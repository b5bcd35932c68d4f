// The compact histogram of durations that the alert reports keep per day (time to acknowledge, time
// to resolve; docs/api.md#reports): fixed buckets, so the days and teams of a report merge by adding
// counts, and a day item holds only the buckets it has seen. Whole seconds below 16 s each have a
// bucket of their own (exact); from 16 s on, four buckets per doubling (each 19 % wide), so a
// percentile read from the middle of its bucket is within 9.1 % of the true value. 30 days span
// 16 + 4·17 = 84 buckets; a day's durations usually fill 20 to 40 of them.
// Stored, four neighbouring buckets share one number (a group): bucket k is the 9-digit decimal place
// k mod 4 of group ⌊k/4⌋, so counting a duration is still one ADD (of 10^(9·place)) and merging days
// still sums numbers, while a busy day item holds 6 to 12 group numbers instead of 20 to 40 bucket
// counters: a report reads a quarter of the attributes (the emulator and the SDK pay per attribute).
// A place holds up to ±499 999 999 alerts of one day in one bucket before it would carry into the
// next; the highest place of a group takes what is left (DynamoDB keeps 38 digits), so it never does.

/** Below this many seconds every whole second is a bucket. */
const EXACT_BELOW = 16;
/** Buckets per doubling above EXACT_BELOW. */
const PER_DOUBLING = 4;
/** The last bucket: 16 s · 2^24, eight and a half years, holds everything longer. */
export const LAST_BUCKET = EXACT_BELOW + PER_DOUBLING * 24;

const lowerBound = (bucket: number) => (bucket < EXACT_BELOW ? bucket : EXACT_BELOW * 2 ** ((bucket - EXACT_BELOW) / PER_DOUBLING));

/** The bucket of a duration in milliseconds (negative ones, a clock step back, count as 0 s). */
export function durationBucket(ms: number): number {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < EXACT_BELOW) return seconds;
  let bucket = EXACT_BELOW + Math.floor(PER_DOUBLING * Math.log2(seconds / EXACT_BELOW));
  // log2 may land a hair off at a bucket's edge: the bounds decide.
  while (lowerBound(bucket + 1) <= seconds) bucket++;
  while (bucket > EXACT_BELOW && lowerBound(bucket) > seconds) bucket--;
  return Math.min(bucket, LAST_BUCKET);
}

/** The seconds a bucket stands for: the second itself when exact, else the geometric middle of its
 * bounds, to a tenth of a second. */
export function bucketSeconds(bucket: number): number {
  if (bucket < EXACT_BELOW) return bucket;
  return Math.round(Math.sqrt(lowerBound(bucket) * lowerBound(bucket + 1)) * 10) / 10;
}

/** Buckets per stored group number, each a decimal place of PLACE_DIGITS digits. */
export const BUCKETS_PER_GROUP = 4;
const PLACE_DIGITS = 9;
const PLACE = 10 ** PLACE_DIGITS;
const HALF_PLACE = PLACE / 2;
/** The last group: the one holding LAST_BUCKET. */
export const LAST_GROUP = Math.floor(LAST_BUCKET / BUCKETS_PER_GROUP);

/** The group of a bucket and what one duration in that bucket adds to the group's number. */
export function bucketGroup(bucket: number): { group: number; weight: bigint } {
  return { group: Math.floor(bucket / BUCKETS_PER_GROUP), weight: BigInt(PLACE) ** BigInt(bucket % BUCKETS_PER_GROUP) };
}

/**
 * Adds the counts a group's stored number holds to `into` (bucket → count). The lower places are read
 * as balanced digits (−PLACE/2, PLACE/2] of the number's magnitude, so a bucket taken below zero (a
 * recount's correction, an ADD whose opposite has not landed yet) reads as its negative count instead
 * of borrowing from the next; the sign applies to all. Read from the decimal digits: a report reads
 * thousands of these, and slicing the string is several times quicker than BigInt division.
 */
export function addGroupCounts(into: Map<number, number>, group: number, stored: number | bigint): void {
  const negative = stored < 0;
  const digits = typeof stored === 'bigint' ? String(negative ? -stored : stored) : String(Math.abs(stored));
  const first = group * BUCKETS_PER_GROUP;
  let end = digits.length;
  let carry = 0;
  for (let place = 0; place < BUCKETS_PER_GROUP; place++) {
    const top = place === BUCKETS_PER_GROUP - 1;
    const start = top ? 0 : Math.max(0, end - PLACE_DIGITS);
    let digit = (end > start ? Number(digits.slice(start, end)) : 0) + carry;
    carry = 0;
    if (!top && digit > HALF_PLACE) {
      digit -= PLACE;
      carry = 1;
    }
    if (digit !== 0) into.set(first + place, (into.get(first + place) ?? 0) + (negative ? -digit : digit));
    end = start;
  }
}

/**
 * The p-th percentile (0 < p ≤ 1) of a merged histogram (bucket → count), by nearest rank: the bucket
 * holding the ⌈p·n⌉-th smallest duration. Null when it holds nothing.
 */
export function percentileSeconds(histogram: ReadonlyMap<number, number>, p: number): number | null {
  const buckets = [...histogram].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const total = buckets.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [bucket, n] of buckets) {
    seen += n;
    if (seen >= rank) return bucketSeconds(bucket);
  }
  return bucketSeconds(buckets[buckets.length - 1][0]);
}
