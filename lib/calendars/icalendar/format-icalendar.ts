// iCalendar text (RFC 5545) for the calendar feeds: CRLF line ends, content lines folded at 75
// octets without splitting a UTF-8 sequence (§3.1), TEXT values escaped (§3.3.11), every time a
// UTC DATE-TIME, so no VTIMEZONE is needed and every client reads the same instants.

/** One VEVENT: a span of one attendee. */
export interface CalendarEntry {
  uid: string;
  start: number;
  end: number;
  summary: string;
  description?: string;
}

export interface CalendarDocument {
  /** PRODID: who made the file. */
  productId: string;
  /** The calendar's display name (X-WR-CALNAME, read by the common clients). */
  name: string;
  /** When the file was made: every DTSTAMP. */
  stamp: number;
  entries: readonly CalendarEntry[];
}

const CRLF = '\r\n';
const MAX_OCTETS = 75;

const TEXT_SPECIALS = /\\|;|,|\r\n|\r|\n/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', ';': '\\;', ',': '\\,' };

/** A TEXT value: backslash, semicolon, comma and line breaks escaped (§3.3.11). */
export function escapeText(value: string): string {
  return value.replace(TEXT_SPECIALS, (special) => ESCAPED[special] ?? '\\n');
}

function utf8Octets(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

// eslint-disable-next-line no-control-regex -- any code point beyond ASCII
const BEYOND_ASCII = /[^\x00-\x7f]/;

/**
 * One content line folded: no physical line over 75 octets (the leading space of a continuation
 * counts), a break only between characters, never inside a multi-octet one.
 */
export function foldLine(line: string): string {
  // Most lines are short ASCII: one octet per character, nothing to fold (a feed has thousands).
  if (line.length <= MAX_OCTETS && !BEYOND_ASCII.test(line)) return line;
  const pieces: string[] = [];
  let pieceStart = 0;
  let octets = 0;
  for (let i = 0; i < line.length;) {
    const codePoint = line.codePointAt(i)!;
    const size = utf8Octets(codePoint);
    if (octets + size > MAX_OCTETS) {
      pieces.push(line.slice(pieceStart, i));
      pieceStart = i;
      octets = 1;
    }
    octets += size;
    i += codePoint > 0xffff ? 2 : 1;
  }
  pieces.push(line.slice(pieceStart));
  return pieces.join(`${CRLF} `);
}

/** 20261127T053000Z: a UTC DATE-TIME (form #2 of §3.3.5), to the second. */
export function utcDateTime(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** The whole VCALENDAR, ending with CRLF. */
export function formatICalendar(document: CalendarDocument): string {
  const stamp = utcDateTime(document.stamp);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${document.productId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(document.name)}`,
    // How often subscribers should look again (RFC 7986, and the older name Outlook reads).
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const entry of document.entries) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${entry.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${utcDateTime(entry.start)}`,
      `DTEND:${utcDateTime(entry.end)}`,
      `SUMMARY:${escapeText(entry.summary)}`,
      ...(entry.description === undefined ? [] : [`DESCRIPTION:${escapeText(entry.description)}`]),
      // Being on call is not being busy: free/busy lookups should not see these as meetings.
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
