import { describe, expect, it } from 'vitest';
import { parseDateTimeIn } from '../../lib/oncall/datetime-inputs';
import { parseWindowBound } from '../../lib/schedules/read-oncall';

const utc = (iso: string) => Date.parse(iso);

describe('datetime inputs without an offset are wall-clock times in the zone', () => {
  it('reads a winter and a summer time in Berlin with their own offsets', () => {
    expect(parseDateTimeIn('2026-01-15T09:00:00', 'Europe/Berlin')).toBe(utc('2026-01-15T08:00:00Z'));
    expect(parseDateTimeIn('2026-07-15 09:00', 'Europe/Berlin')).toBe(utc('2026-07-15T07:00:00Z'));
  });

  it('moves a time in the spring-forward gap by the gap (02:30 becomes 03:30)', () => {
    // Los Angeles skips 02:00–03:00 on 2026-03-08: 02:30 is read with PST (−8), which is 03:30 PDT.
    expect(parseDateTimeIn('2026-03-08T02:30:00', 'America/Los_Angeles')).toBe(utc('2026-03-08T10:30:00Z'));
  });

  it('reads a time that exists twice as the first of the two', () => {
    // Sydney repeats 02:00–03:00 on 2026-04-05; the first 02:30 is still AEDT (+11).
    expect(parseDateTimeIn('2026-04-05T02:30:00', 'Australia/Sydney')).toBe(utc('2026-04-04T15:30:00Z'));
  });

  it('honours an explicit offset or Z whatever the zone', () => {
    expect(parseDateTimeIn('2026-03-29T09:00:00+02:00', 'America/Los_Angeles')).toBe(utc('2026-03-29T07:00:00Z'));
    expect(parseDateTimeIn('2026-03-29T09:00:00.250Z', 'Europe/Berlin')).toBe(utc('2026-03-29T09:00:00.250Z'));
    expect(parseDateTimeIn('2026-03-29T09:00:00-0530', 'UTC')).toBe(utc('2026-03-29T14:30:00Z'));
    expect(parseDateTimeIn('2026-07-02T02:00:00Z', 'Asia/Kolkata')).toBe(utc('2026-07-02T02:00:00Z'));
  });

  it('reads a bare date as local midnight', () => {
    expect(parseDateTimeIn('2026-06-01', 'Australia/Sydney')).toBe(utc('2026-05-31T14:00:00Z'));
    expect(parseDateTimeIn('2026-01-15', 'Asia/Tokyo')).toBe(utc('2026-01-14T15:00:00Z'));
  });

  it('keeps the milliseconds of a local time', () => {
    expect(parseDateTimeIn('2026-01-15T09:30:15.250', 'America/New_York')).toBe(utc('2026-01-15T14:30:15.250Z'));
  });

  it('applies both rules in Berlin too (2026-03-29 skips 02:00–03:00, 2026-10-25 repeats it)', () => {
    expect(parseDateTimeIn('2026-03-29T02:30:00', 'Europe/Berlin')).toBe(utc('2026-03-29T01:30:00Z'));
    expect(parseDateTimeIn('2026-10-25T02:30:00', 'Europe/Berlin')).toBe(utc('2026-10-25T00:30:00Z'));
  });

  it.each(['', 'tomorrow', '2026-02-30T09:00', '2026-13-01', '2026-01-01T24:00', '2026-01-01T10:61', '1767225600'])('refuses %j', (raw) => {
    expect(parseDateTimeIn(raw, 'UTC')).toBeNull();
  });
});

describe('window bounds: UTC, or ISO 8601', () => {
  it('reads YYYY-MM-DD HH:mm:ss as UTC, and ISO 8601 with or without an offset', () => {
    expect(parseWindowBound('2026-03-29 00:00:00')).toBe(utc('2026-03-29T00:00:00Z'));
    expect(parseWindowBound('2026-03-29T00:00:00Z')).toBe(utc('2026-03-29T00:00:00Z'));
    expect(parseWindowBound('2026-03-29T02:00:00+02:00')).toBe(utc('2026-03-29T00:00:00Z'));
    expect(parseWindowBound('2026-03-28T19:00:00.000-05:00')).toBe(utc('2026-03-29T00:00:00Z'));
    expect(parseWindowBound('2026-03-29')).toBe(utc('2026-03-29T00:00:00Z'));
    expect(parseWindowBound('2026-03-29T00:00')).toBe(utc('2026-03-29T00:00:00Z'));
  });

  it('reads an offset whose + a query decoded as a space', () => {
    expect(parseWindowBound('2026-03-29T02:00:00 02:00')).toBe(utc('2026-03-29T00:00:00Z'));
  });

  it.each(['29.03.2026 00:00:00', '2026-02-29 00:00:00', 'yesterday', '2026-03-29T00:00:00+25:00'])('refuses %j', (raw) => {
    expect(parseWindowBound(raw)).toBeNull();
  });
});
