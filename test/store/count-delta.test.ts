// Counter deltas (lib/store/count-delta.ts): numbers while they are numbers, exact bigints once a
// histogram group's place (10^9·k, past 2^53) is among them, as group-committed ADDs sum them.
import { describe, expect, it } from 'vitest';
import { isZeroDelta, sameDelta, scaleDelta, storedDelta, sumDeltas } from '../../lib/store/count-delta';

describe('counter deltas', () => {
  it('sum numbers as numbers and anything with a bigint exactly as a bigint', () => {
    expect(sumDeltas(undefined, 3)).toBe(3);
    expect(sumDeltas(2, 3)).toBe(5);
    // 10^27 + 1 is not a double: the sum stays exact.
    expect(sumDeltas(10n ** 27n, 1)).toBe(10n ** 27n + 1n);
    expect(sumDeltas(1, 10n ** 27n)).toBe(10n ** 27n + 1n);
    // An alert's move out of a group and back in nets to zero, which the write then leaves out.
    const moved = sumDeltas(scaleDelta(10n ** 18n, -1), scaleDelta(10n ** 18n, 1));
    expect(isZeroDelta(moved)).toBe(true);
    expect(isZeroDelta(0)).toBe(true);
    expect(isZeroDelta(-1)).toBe(false);
    expect(scaleDelta(7, -1)).toBe(-7);
  });

  it('reads stored attributes and compares amounts across types', () => {
    expect([storedDelta(4), storedDelta(5n), storedDelta('01J…'), storedDelta(undefined)]).toEqual([4, 5n, null, null]);
    expect(sameDelta(5, 5n)).toBe(true);
    expect(sameDelta(10n ** 27n, 10n ** 27n + 1n)).toBe(false);
  });
});
