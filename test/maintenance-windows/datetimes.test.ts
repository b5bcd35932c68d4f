import { describe, expect, it } from 'vitest';
import { parseDateTimeInZone } from '../../lib/maintenance-windows/datetimes';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('maintenance window datetimes', () => {
  it('reads a datetime without an offset as wall-clock time in the zone', () => {
    expect(iso(parseDateTimeInZone('2026-07-01 22:00', 'Europe/Berlin'))).toBe('2026-07-01T20:00:00.000Z');
    expect(iso(parseDateTimeInZone('2026-01-15T09:30:15.250', 'America/New_York'))).toBe('2026-01-15T14:30:15.250Z');
    expect(iso(parseDateTimeInZone('2026-01-15', 'Asia/Tokyo'))).toBe('2026-01-14T15:00:00.000Z');
  });

  it('keeps an explicit offset or Z whatever the zone', () => {
    expect(iso(parseDateTimeInZone('2026-07-02T02:00:00+02:00', 'America/Los_Angeles'))).toBe('2026-07-02T00:00:00.000Z');
    expect(iso(parseDateTimeInZone('2026-07-02T02:00:00Z', 'Asia/Kolkata'))).toBe('2026-07-02T02:00:00.000Z');
    expect(iso(parseDateTimeInZone('2026-07-02T02:00:00-0530', 'UTC'))).toBe('2026-07-02T07:30:00.000Z');
  });

  it('takes the offset before a spring-forward gap, and the first of a repeated hour', () => {
    expect(iso(parseDateTimeInZone('2026-03-29T02:30:00', 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(parseDateTimeInZone('2026-10-25T02:30:00', 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('refuses what is not a datetime, including dates that do not exist', () => {
    for (const raw of ['tomorrow', '2026-02-30T10:00:00', '2026-13-01', '2026-01-01T25:00', '1767225600', '']) {
      expect(parseDateTimeInZone(raw, 'UTC'), raw).toBeNull();
    }
  });
});
