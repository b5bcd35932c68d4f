import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../lib/rule-engine';

describe('durations: ms notation or a number of minutes', () => {
  it('reads the ms notation', () => {
    expect(parseDuration('30s')).toEqual({ ok: true, ms: 30_000 });
    expect(parseDuration('5m')).toEqual({ ok: true, ms: 300_000 });
    expect(parseDuration('1h')).toEqual({ ok: true, ms: 3_600_000 });
    expect(parseDuration('1d')).toEqual({ ok: true, ms: 86_400_000 });
    expect(parseDuration('1.5h')).toEqual({ ok: true, ms: 5_400_000 });
    expect(parseDuration('500ms')).toEqual({ ok: true, ms: 500 });
    expect(parseDuration('2 minutes')).toEqual({ ok: true, ms: 120_000 });
    expect(parseDuration('1W')).toEqual({ ok: true, ms: 604_800_000 });
  });

  it('reads a bare number as minutes', () => {
    expect(parseDuration(5)).toEqual({ ok: true, ms: 300_000 });
    expect(parseDuration('5')).toEqual({ ok: true, ms: 300_000 });
    expect(parseDuration(0.5)).toEqual({ ok: true, ms: 30_000 });
    expect(parseDuration(0)).toEqual({ ok: true, ms: 0 });
  });

  it('refuses anything else', () => {
    for (const bad of ['soon', '5 parsecs', '-5m', '', 'm', '1h30m', -1, Number.NaN, Number.POSITIVE_INFINITY, null, true, {}, [5]]) {
      expect(parseDuration(bad).ok).toBe(false);
    }
    expect(parseDuration('32d')).toEqual({ ok: false, message: 'must be at most 31 days' });
  });
});
