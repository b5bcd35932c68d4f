import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { TIME_ZONE_NAMES, resolveTimeZone } from '../../lib/oncall/time-zones';
import { zoneOffsets } from '../../lib/oncall/zone-offsets';
import { at, HOUR, iso } from './event-builder';
import { FROM, TO, TRANSITION_ZONES } from './zone-transitions';

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

describe('zone offsets against luxon across real DST transitions', () => {
  it.each(TRANSITION_ZONES)('%s: the same offset every 31 hours for 24 years, and each change at the same second', (zone) => {
    const offsets = zoneOffsets(zone);
    const luxon = IANAZone.create(zone);
    const changes = offsets.transitionsBetween(FROM, TO);
    for (let instant = FROM + 17 * 60_000; instant < TO; instant += 31 * HOUR) {
      expect(offsets.offsetAt(instant), `${zone} at ${iso(instant)}`).toBe(luxon.offset(instant) * 60_000);
    }
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      expect(luxon.offset(change.at - 1000) * 60_000, `${zone} before ${iso(change.at)}`).toBe(change.before);
      expect(luxon.offset(change.at) * 60_000, `${zone} at ${iso(change.at)}`).toBe(change.after);
      expect(offsets.offsetAt(change.at - 1)).toBe(change.before);
      expect(offsets.offsetAt(change.at)).toBe(change.after);
    }
  });

  it.each(TRANSITION_ZONES)('%s: wall-clock times around every change read as luxon’s offsets say, by the contract’s rules', (zone) => {
    const offsets = zoneOffsets(zone);
    const luxon = IANAZone.create(zone);
    for (const change of offsets.transitionsBetween(FROM, TO)) {
      const before = luxon.offset(change.at - 1000) * 60_000;
      const after = luxon.offset(change.at) * 60_000;
      // Every quarter hour from two hours before the change to two hours after it, on the wall clock.
      const from = change.at + Math.min(before, after) - 2 * HOUR;
      const to = change.at + Math.max(before, after) + 2 * HOUR;
      const converter = offsets.converter(from, to);
      for (let local = from; local <= to; local += 15 * 60_000) {
        // The instants whose wall clock shows `local`, by luxon: none in a gap, two in a repeated hour.
        const showing = [local - before, local - after].filter((instant) => instant + luxon.offset(instant) * 60_000 === local);
        // The contract: the first of two, and in a gap the offset in force before the change.
        const expected = showing.length > 0 ? Math.min(...showing) : local - before;
        const label = `${zone} ${iso(local).slice(0, 16)} (change at ${iso(change.at)})`;
        expect(iso(offsets.localToUtc(local)), label).toBe(iso(expected));
        expect(iso(converter.toUtc(local)), label).toBe(iso(expected));
      }
    }
  });
});
