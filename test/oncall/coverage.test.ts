// Coverage from on-call spans, worked out by hand: gaps at the window's edges, a layer nobody is on,
// two people at once, spans cut by the window, and a DST change on the wall clock of a rotation.
import { describe, expect, it } from 'vitest';
import { coverageOf } from '../../lib/oncall/coverage';
import { spansInWindow } from '../../lib/oncall/oncall-spans';
import type { OncallEvent } from '../../lib/oncall/types';
import { at, HOUR, iso, rotationOf, someEvent } from './event-builder';

function coverage(events: OncallEvent[], from: string, to: string) {
  const start = at(from);
  const end = at(to);
  const result = coverageOf(
    spansInWindow(events, start, end),
    events.map((e) => e.layer),
    start,
    end,
  );
  return {
    layers: result.layers.map((l) => ({
      layer: l.layer,
      gaps: l.gaps.map((g) => `${iso(g.start)}–${iso(g.end)}`),
      hours: l.coveredMs / HOUR,
    })),
    people: result.people.map((p) => `L${p.layer} ${p.attendeeId} ${p.onCallMs / HOUR}h ${p.spans} spans`),
  };
}

describe('coverage of a window', () => {
  it('finds the gaps at both edges and between shifts, and counts spans cut by the window whole', () => {
    // 09:00–17:00 every day, Alice and Bob alternating; the window starts at noon on day 1 and ends at 10:00 on day 3.
    const dayShift = someEvent({
      start: at('2026-06-01T09:00:00Z'),
      end: at('2026-06-01T17:00:00Z'),
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
      ...rotationOf('alice', 'bob'),
    });
    expect(coverage([dayShift], '2026-06-01T12:00:00Z', '2026-06-03T10:00:00Z')).toEqual({
      layers: [
        {
          layer: 1,
          gaps: ['2026-06-01T17:00:00.000Z–2026-06-02T09:00:00.000Z', '2026-06-02T17:00:00.000Z–2026-06-03T09:00:00.000Z'],
          // 5 h on day 1 (12–17), 8 h on day 2, 1 h on day 3 (9–10).
          hours: 14,
        },
      ],
      // Most time first within a layer.
      people: ['L1 bob 8h 1 spans', 'L1 alice 6h 2 spans'],
    });
    // A window that starts and ends outside any shift has gaps that reach its edges.
    expect(coverage([dayShift], '2026-06-01T06:00:00Z', '2026-06-01T20:00:00Z').layers[0].gaps).toEqual([
      '2026-06-01T06:00:00.000Z–2026-06-01T09:00:00.000Z',
      '2026-06-01T17:00:00.000Z–2026-06-01T20:00:00.000Z',
    ]);
  });

  it('lists layer 1 even with no events, and a layer whose event has nobody as one gap', () => {
    expect(coverage([], '2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z')).toEqual({
      layers: [{ layer: 1, gaps: ['2026-06-01T00:00:00.000Z–2026-06-02T00:00:00.000Z'], hours: 0 }],
      people: [],
    });
    const nobody = someEvent({ id: 'empty', layer: 3, start: at('2026-06-01T00:00:00Z'), end: at('2026-06-02T00:00:00Z'), attendees: [] });
    expect(coverage([nobody], '2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z').layers).toEqual([
      { layer: 1, gaps: ['2026-06-01T00:00:00.000Z–2026-06-02T00:00:00.000Z'], hours: 0 },
      { layer: 3, gaps: ['2026-06-01T00:00:00.000Z–2026-06-02T00:00:00.000Z'], hours: 0 },
    ]);
  });

  it('counts two people on call at once each in full, and the layer once', () => {
    const both = someEvent({
      start: at('2026-06-01T00:00:00Z'),
      end: at('2026-06-01T12:00:00Z'),
      attendees: [
        { attendeeId: 'alice', position: 0 },
        { attendeeId: 'bob', position: 1 },
      ],
    });
    // Alice again, overlapping her own shift on the same layer: her time is not counted twice.
    const aliceLater = someEvent({ id: 'evt-2', start: at('2026-06-01T10:00:00Z'), end: at('2026-06-01T14:00:00Z') });
    aliceLater.attendees = [{ attendeeId: 'alice', position: 0 }];
    expect(coverage([both, aliceLater], '2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z')).toEqual({
      layers: [{ layer: 1, gaps: ['2026-06-01T14:00:00.000Z–2026-06-02T00:00:00.000Z'], hours: 14 }],
      people: ['L1 alice 14h 2 spans', 'L1 bob 12h 1 spans'],
    });
  });

  it('joins shifts that hand off without a gap, across a DST change (a 23-hour Berlin day)', () => {
    // Daily 09:00–09:00 Berlin: 2026-03-28 08:00Z → 03-29 07:00Z lasts 23 hours, and the next shift starts where it ends.
    const rotation = someEvent({
      start: at('2026-03-27T08:00:00Z'),
      end: at('2026-03-28T08:00:00Z'),
      timeZone: 'Europe/Berlin',
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
      exceptions: [at('2026-03-30T07:00:00Z')],
      ...rotationOf('alice', 'bob'),
    });
    expect(coverage([rotation], '2026-03-28T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual({
      // The removed occurrence (Monday 09:00 local) is the one gap.
      layers: [{ layer: 1, gaps: ['2026-03-30T07:00:00.000Z–2026-03-31T07:00:00.000Z'], hours: 96 - 24 }],
      people: [
        // alice: 03-28 00:00–08:00 (8 h of occurrence 0), 03-31 07:00–04-01 00:00 (17 h of occurrence 4).
        // bob: occurrence 1, the short day (23 h); occurrence 3 is removed.
        // occurrence 2 (alice): 03-29 07:00 → 03-30 07:00, 24 h.
        'L1 alice 49h 3 spans',
        'L1 bob 23h 1 spans',
      ],
    });
  });
});
