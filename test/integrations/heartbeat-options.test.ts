// The pure part of heartbeats (lib/integrations/heartbeat-options.ts): the options' checks, the window
// under TIME_SCALE, the deadline and the status the integration shows. Figures worked out by hand.
import { describe, expect, it } from 'vitest';
import { heartbeatFaults, heartbeatStatus, heartbeatWindowMs, nextDueAt } from '../../lib/integrations/heartbeat-options';

describe('heartbeat options', () => {
  it('normalizes whole seconds from numbers and form strings, grace 0 by default', () => {
    const options: Record<string, unknown> = { interval_seconds: ' 300 ' };
    expect(heartbeatFaults(options)).toEqual([]);
    expect(options).toEqual({ interval_seconds: 300, grace_seconds: 0 });
    const edges: Record<string, unknown> = { interval_seconds: 60, grace_seconds: '2592000' };
    expect(heartbeatFaults(edges)).toEqual([]);
    expect(edges).toEqual({ interval_seconds: 60, grace_seconds: 2_592_000 });
  });

  it('names the option of every fault and leaves a refused value as it was', () => {
    for (const interval of [
      59,
      0,
      -60,
      60.5,
      '60.5',
      '-60',
      '1e3',
      'hourly',
      true,
      [60],
      { s: 60 },
      2_592_001,
      Number.MAX_VALUE,
      Infinity,
      NaN,
    ]) {
      const options: Record<string, unknown> = { interval_seconds: interval };
      expect(heartbeatFaults(options), JSON.stringify(interval)).toEqual([
        'options.interval_seconds must be a whole number of seconds from 60 to 2592000',
      ]);
      expect(options.interval_seconds).toBe(interval);
    }
    expect(heartbeatFaults({})).toEqual(["options.interval_seconds can't be blank (a whole number of seconds, at least 60)"]);
    for (const grace of [-1, 0.5, 'none', 2_592_001, [0]]) {
      expect(heartbeatFaults({ interval_seconds: 60, grace_seconds: grace }), JSON.stringify(grace)).toEqual([
        'options.grace_seconds must be a whole number of seconds from 0 to 2592000',
      ]);
    }
  });

  it('divides interval + grace by TIME_SCALE', () => {
    expect(heartbeatWindowMs({ interval_seconds: 300, grace_seconds: 60 }, 1)).toBe(360_000);
    expect(heartbeatWindowMs({ interval_seconds: 300, grace_seconds: 60 }, 60)).toBe(6_000);
    expect(heartbeatWindowMs({ interval_seconds: 60, grace_seconds: 0 }, 600)).toBe(100);
  });

  it('counts from the later of the last beat and the arming, and shows waiting, up, then missed', () => {
    const armed = { armed_at: 1_000_000, last_beat_at: null };
    expect(nextDueAt(armed, 60_000)).toBe(1_060_000);
    expect(heartbeatStatus(armed, 60_000, 1_059_999)).toBe('waiting');
    expect(heartbeatStatus(armed, 60_000, 1_060_000)).toBe('missed');
    const beaten = { armed_at: 1_000_000, last_beat_at: 1_030_000 };
    expect(nextDueAt(beaten, 60_000)).toBe(1_090_000);
    expect(heartbeatStatus(beaten, 60_000, 1_089_999)).toBe('up');
    expect(heartbeatStatus(beaten, 60_000, 1_090_000)).toBe('missed');
    // Enabled again after the last beat: counting starts from the arming.
    expect(nextDueAt({ armed_at: 2_000_000, last_beat_at: 1_030_000 }, 60_000)).toBe(2_060_000);
  });
});
