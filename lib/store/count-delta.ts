// What a counter field moves by (lib/store/counters.ts): a number, or a bigint for a field that packs
// several counts into decimal places beyond a double's exact integers (the reports' histograms,
// lib/alerts/duration-histogram.ts). Apart from counters.ts so that deferred-counts.ts, which use cases
// import, sums them without reaching the table.

export type CountDelta = number | bigint;

/** a + b, exact: a bigint once either is one. */
export function sumDeltas(a: CountDelta | undefined, b: CountDelta): CountDelta {
  if (a === undefined) return b;
  return typeof a === 'number' && typeof b === 'number' ? a + b : BigInt(a) + BigInt(b);
}

/** n · factor (a sign, or a count of equal moves), exact. */
export function scaleDelta(n: CountDelta, factor: number): CountDelta {
  return typeof n === 'number' ? n * factor : n * BigInt(factor);
}

export const isZeroDelta = (n: CountDelta): boolean => n === 0 || n === 0n;

/** A stored counter attribute as a delta: a number, or the bigint the SDK reads a wide one as; else null. */
export function storedDelta(value: unknown): CountDelta | null {
  return typeof value === 'number' || typeof value === 'bigint' ? value : null;
}

/** Whether two deltas are the same amount, whatever their types. */
export const sameDelta = (a: CountDelta, b: CountDelta): boolean =>
  typeof a === 'number' && typeof b === 'number' ? a === b : BigInt(a) === BigInt(b);
