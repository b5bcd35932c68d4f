// The rule engine reads wall clocks through the on-call engine's zone engine; luxon (which it used
// before) is the oracle here, at and around every real offset change.
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneOffsets } from '../../lib/oncall/zone-offsets';
import { isKnownZone, wallClock, zoneAbbreviation } from '../../lib/rule-engine/wall-clock';
import { FROM, TO, TRANSITION_ZONES } from '../oncall/zone-transitions';

const MINUTE = 60_000;

describe('wall clocks of the rule engine against luxon', () => {
  it.each(TRANSITION_ZONES)('%s: every field and the zone’s short name around every offset change', (zone) => {
    const changes = zoneOffsets(zone).transitionsBetween(FROM, TO);
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      for (const shift of [-90 * MINUTE, -1, 0, 1, 29 * MINUTE + 999, 90 * MINUTE]) {
        const epoch = change.at + shift;
        const expected = DateTime.fromMillis(epoch, { zone });
        const label = `${zone} at ${new Date(epoch).toISOString()}`;
        expect(wallClock(zone, epoch), label).toEqual({
          epoch,
          zone,
          year: expected.year,
          month: expected.month,
          day: expected.day,
          weekday: expected.weekday,
          hour: expected.hour,
          minute: expected.minute,
          second: expected.second,
          millisecond: expected.millisecond,
          offset: expected.offset,
        });
        expect(zoneAbbreviation(zone, epoch), label).toBe(IANAZone.create(zone).offsetName(epoch, { format: 'short', locale: 'en-US' }));
      }
    }
  });

  it('knows the zones luxon knows, in any case, and no others', () => {
    for (const name of ['Europe/Berlin', 'europe/berlin', 'Etc/UTC', 'UTC', 'Europe/Kiev', 'Europe/Kyiv', 'Mars/Olympus', 'Berlin', '']) {
      expect(isKnownZone(name), name).toBe(IANAZone.isValidZone(name));
    }
    expect(isKnownZone(`Europe/${'x'.repeat(80)}`)).toBe(false);
    expect(isKnownZone(42)).toBe(false);
  });

  it('reads a zone nobody knows as no time at all instead of failing', () => {
    const reading = wallClock('Mars/Olympus', Date.UTC(2026, 0, 1));
    expect(reading.hour).toBeNaN();
    expect(reading.weekday).toBeNaN();
    expect(zoneAbbreviation('Mars/Olympus', Date.UTC(2026, 0, 1))).toBe('');
  });
});
