import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { TIME_ZONE_NAMES, resolveTimeZone } from '../../lib/oncall/time-zones';
import { zoneOffsets } from '../../lib/oncall/zone-offsets';
import { at, iso } from './event-builder';

const FRIENDLY_ZONES = [...new Set(TIME_ZONE_NAMES.map((name) => resolveTimeZone(name)!))];

function wall(text: string): number {
  return at(`${text}Z`);
}

describe('zone offsets', () => {
  it('agree with luxon at any instant in every listed zone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FRIENDLY_ZONES),
        fc.integer({ min: at('1990-01-01T00:00:00Z') / 1000, max: at('2040-01-01T00:00:00Z') / 1000 }),
        (zone, seconds) => {
          const instant = seconds * 1000;

          expect(zoneOffsets(zone).offsetAt(instant)).toBe(IANAZone.create(zone).offset(instant) * 60_000);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('find the exact second of a change', () => {
    const berlin = zoneOffsets('Europe/Berlin');
    const change = at('2024-03-31T01:00:00Z');

    expect(berlin.offsetAt(change - 1000)).toBe(3_600_000);
    expect(berlin.offsetAt(change)).toBe(7_200_000);
  });

  it('turn a wall-clock time that exists once into its instant', () => {
    expect(iso(zoneOffsets('Europe/Berlin').localToUtc(wall('2024-07-01T09:00:00')))).toBe('2024-07-01T07:00:00.000Z');
    expect(iso(zoneOffsets('Asia/Kolkata').localToUtc(wall('2024-07-01T09:00:00')))).toBe('2024-07-01T03:30:00.000Z');
    expect(iso(zoneOffsets('Pacific/Chatham').localToUtc(wall('2024-07-01T09:00:00')))).toBe('2024-06-30T20:15:00.000Z');
  });

  it('give a time in the spring-forward gap the offset in force before it', () => {
    expect(iso(zoneOffsets('Europe/Berlin').localToUtc(wall('2024-03-31T02:30:00')))).toBe('2024-03-31T01:30:00.000Z');
    expect(iso(zoneOffsets('America/Los_Angeles').localToUtc(wall('2024-03-10T02:30:00')))).toBe('2024-03-10T10:30:00.000Z');
    expect(iso(zoneOffsets('Australia/Sydney').localToUtc(wall('2024-10-06T02:30:00')))).toBe('2024-10-05T16:30:00.000Z');
  });

  it('give a time that exists twice its first instant', () => {
    expect(iso(zoneOffsets('Europe/Berlin').localToUtc(wall('2024-10-27T02:30:00')))).toBe('2024-10-27T00:30:00.000Z');
    expect(iso(zoneOffsets('America/Los_Angeles').localToUtc(wall('2024-11-03T01:30:00')))).toBe('2024-11-03T08:30:00.000Z');
    expect(iso(zoneOffsets('Australia/Sydney').localToUtc(wall('2024-04-07T02:30:00')))).toBe('2024-04-06T15:30:00.000Z');
    // Lord Howe Island moves its clocks by half an hour.
    expect(iso(zoneOffsets('Australia/Lord_Howe').localToUtc(wall('2024-04-07T01:45:00')))).toBe('2024-04-06T14:45:00.000Z');
  });

  it('map every wall-clock time to an instant showing that time, or the gap rule’s one', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Europe/Berlin', 'America/Los_Angeles', 'Australia/Sydney', 'Australia/Lord_Howe', 'America/Santiago'),
        fc.integer({ min: wall('2015-01-01T00:00:00') / 60_000, max: wall('2035-01-01T00:00:00') / 60_000 }),
        (zone, minutes) => {
          const local = minutes * 60_000;
          const offsets = zoneOffsets(zone);

          const instant = offsets.localToUtc(local);

          const shown = instant + offsets.offsetAt(instant);
          if (shown === local) {
            // The first of two readings: an hour earlier the clock did not show it already.
            const earlier = instant - 3_600_000;
            expect(earlier + offsets.offsetAt(earlier) === local && offsets.offsetAt(earlier) > offsets.offsetAt(instant)).toBe(false);
          } else {
            // Only in a gap: the instant is read with the offset of just before the change.
            expect(instant - local).toBe(-offsets.offsetAt(instant - 12 * 3_600_000));
            expect(shown).toBeGreaterThan(local);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
