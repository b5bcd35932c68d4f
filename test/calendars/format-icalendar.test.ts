// The iCalendar text of the feeds, read back with a real parser (ical.js, Mozilla's, the one
// Thunderbird uses) and checked octet by octet against RFC 5545's line rules.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, formatICalendar, utcDateTime } from '../../lib/calendars/icalendar/format-icalendar';

/** The physical lines of a body as octets, split on CRLF. */
function physicalLines(body: string): Buffer[] {
  const bytes = Buffer.from(body, 'utf8');
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length - 1; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 2;
      i++;
    }
  }
  expect(start, 'the body ends with CRLF').toBe(bytes.length);
  return lines;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

describe('iCalendar text', () => {
  it('folds at 75 octets without splitting a UTF-8 character, and unfolds to the same text', () => {
    const summary = 'Équipe de garde 🚨 — Überwachung nuit, ';
    const long = summary.repeat(6);
    const body = formatICalendar({
      productId: '-//test//EN',
      name: 'Ops',
      stamp: Date.UTC(2026, 10, 27, 5, 30),
      entries: [{ uid: 'u1@test', start: Date.UTC(2026, 10, 27, 9), end: Date.UTC(2026, 10, 28, 9), summary: long }],
    });
    const lines = physicalLines(body);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(75);
      // Each physical line is whole UTF-8 on its own: no sequence was cut at a fold.
      expect(() => strictUtf8.decode(line)).not.toThrow();
      expect(line.includes(0x0a) || line.includes(0x0d)).toBe(false);
    }
    expect(
      lines.some((line) => line[0] === 0x20),
      'the summary was folded',
    ).toBe(true);
    const event = new ICAL.Component(ICAL.parse(body)).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe(long);
  });

  it('folds exactly: a 75-octet line stays whole, a 76-octet one breaks, a multi-octet character moves whole', () => {
    expect(foldLine('a'.repeat(75))).toBe('a'.repeat(75));
    expect(foldLine('a'.repeat(76))).toBe(`${'a'.repeat(75)}\r\n a`);
    // 74 octets then a 4-octet emoji: the emoji would end at octet 78, so it starts the continuation.
    expect(foldLine(`${'a'.repeat(74)}🚨b`)).toBe(`${'a'.repeat(74)}\r\n 🚨b`);
    // Continuations hold 74 octets after their leading space.
    const folded = foldLine('b'.repeat(75 + 74 + 3)).split('\r\n');
    expect(folded.map((l) => Buffer.byteLength(l))).toEqual([75, 75, 4]);
  });

  it('escapes backslash, semicolon, comma and line breaks in TEXT, and a parser reads them back', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
    const tricky = 'Ops; nights, weekends \\ "quoted"\nsecond line';
    const body = formatICalendar({
      productId: '-//test//EN',
      name: tricky,
      stamp: 0,
      entries: [{ uid: 'u@test', start: 0, end: 3_600_000, summary: tricky, description: tricky }],
    });
    const calendar = new ICAL.Component(ICAL.parse(body));
    const event = calendar.getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe(tricky);
    expect(event.getFirstPropertyValue('description')).toBe(tricky);
    // ical.js does not know X-WR-CALNAME's type (a TEXT by convention), so it shows the escaped form.
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(escapeText(tricky));
  });

  it('writes UTC DATE-TIMEs and the properties every VEVENT needs', () => {
    expect(utcDateTime(Date.UTC(2027, 2, 28, 7, 0, 0))).toBe('20270328T070000Z');
    const body = formatICalendar({
      productId: '-//test//EN',
      name: 'x',
      stamp: Date.UTC(2027, 2, 20, 12),
      entries: [{ uid: 'u@test', start: Date.UTC(2027, 2, 27, 8), end: Date.UTC(2027, 2, 28, 7), summary: 's' }],
    });
    const calendar = new ICAL.Component(ICAL.parse(body));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//test//EN');
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(event.uid).toBe('u@test');
    expect(event.startDate.zone?.tzid).toBe('UTC');
    expect(event.startDate.toJSDate().toISOString()).toBe('2027-03-27T08:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2027-03-28T07:00:00.000Z');
    expect(calendar.getFirstSubcomponent('vevent')!.getFirstPropertyValue('dtstamp')!.toString()).toBe('2027-03-20T12:00:00Z');
  });
});
