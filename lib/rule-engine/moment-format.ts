// Date format strings in moment.js tokens, as the real service documents for `$now` and
// `$timeBetween` ("a valid momentjs string format"), rendered from wall-clock readings (wall-clock.ts).
// English names only, as moment's default locale. Tokens that depend on a locale's week rules or on
// eras (w, ww, wo, gg, gggg, y…, N…) are refused when a rule set is saved, so a rule never silently
// compares against a different calendar. Any other character is literal, as in moment; `[text]`
// and `\x` escape.
import type { WallClock } from './wall-clock';
import { msOfDay, zoneAbbreviation } from './wall-clock';

type Part = { literal: string } | { token: string };

// moment's own tokenizer order: longest alternatives first, one character otherwise.
const TOKENS =
  /(\[[^[]*\])|(\\)?([Hh]mm(ss)?|Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[o|w]?|W[o|W]?|Qo?|N{1,5}|YYYYYY|YYYYY|YYYY|YY|y{2,4}|yo?|gg(ggg?)?|GG(GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|.)/g;
const LOCALIZED = /(\[[^[]*\])|(\\)?(LTS|LT|LL?L?L?|l{1,4})/g;
const LOCALIZED_EN: Record<string, string> = {
  LT: 'h:mm A',
  LTS: 'h:mm:ss A',
  L: 'MM/DD/YYYY',
  LL: 'MMMM D, YYYY',
  LLL: 'MMMM D, YYYY h:mm A',
  LLLL: 'dddd, MMMM D, YYYY h:mm A',
  l: 'M/D/YYYY',
  ll: 'MMM D, YYYY',
  lll: 'MMM D, YYYY h:mm A',
  llll: 'ddd, MMM D, YYYY h:mm A',
};
const UNSUPPORTED = /^(w|wo|ww|gg|gggg|ggggg|y|yy|yyy|yyyy|yo|N{1,5})$/;
const SUPPORTED = new Set([
  'M',
  'Mo',
  'MM',
  'MMM',
  'MMMM',
  'Q',
  'Qo',
  'D',
  'Do',
  'DD',
  'DDD',
  'DDDo',
  'DDDD',
  'd',
  'do',
  'dd',
  'ddd',
  'dddd',
  'e',
  'E',
  'W',
  'Wo',
  'WW',
  'GG',
  'GGGG',
  'GGGGG',
  'YYYY',
  'YYYYY',
  'YYYYYY',
  'YY',
  'Y',
  'A',
  'a',
  'H',
  'HH',
  'h',
  'hh',
  'k',
  'kk',
  'm',
  'mm',
  's',
  'ss',
  'Z',
  'ZZ',
  'X',
  'x',
  'z',
  'zz',
  'Hmm',
  'hmm',
  'Hmmss',
  'hmmss',
]);
const TIME_TOKENS = new Set(['H', 'HH', 'h', 'hh', 'k', 'kk', 'm', 'mm', 's', 'ss', 'a', 'A']);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export type CompiledFormat = { ok: true; parts: Part[] } | { ok: false; message: string };

export const MAX_FORMAT_CHARS = 100;

export function compileFormat(format: string): CompiledFormat {
  if (format.length > MAX_FORMAT_CHARS) return { ok: false, message: `is longer than ${MAX_FORMAT_CHARS} characters` };
  const expanded = format.replace(LOCALIZED, (whole, bracket: string | undefined, escape: string | undefined, token: string) =>
    bracket || escape ? whole : LOCALIZED_EN[token],
  );
  const parts: Part[] = [];
  for (const match of expanded.matchAll(TOKENS)) {
    const [whole, bracket, escape, token] = match;
    if (bracket) parts.push({ literal: bracket.slice(1, -1) });
    else if (escape) parts.push({ literal: whole.slice(1) });
    else if (SUPPORTED.has(token) || /^S{1,9}$/.test(token)) parts.push({ token });
    else if (UNSUPPORTED.test(token)) return { ok: false, message: `uses the format token ${token}, which is not supported` };
    else parts.push({ literal: token });
  }
  // Adjacent literals are joined so rendering is one pass of few parts.
  const joined: Part[] = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if ('literal' in part && last && 'literal' in last) joined[joined.length - 1] = { literal: last.literal + part.literal };
    else joined.push(part);
  }
  return { ok: true, parts: joined };
}

function pad(value: number, width: number): string {
  const text = String(Math.abs(value)).padStart(width, '0');
  return value < 0 ? `-${text}` : text;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

function dayOfYear(clock: WallClock): number {
  return Math.round((Date.UTC(clock.year, clock.month - 1, clock.day) - Date.UTC(clock.year, 0, 1)) / 86_400_000) + 1;
}

/** ISO 8601 week number and week-based year. */
function isoWeek(clock: WallClock): { week: number; year: number } {
  const date = new Date(Date.UTC(clock.year, clock.month - 1, clock.day));
  date.setUTCDate(date.getUTCDate() + 4 - clock.weekday); // the Thursday of this week
  const year = date.getUTCFullYear();
  const week = Math.ceil(((date.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return { week, year };
}

function offsetText(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}${colon ? ':' : ''}${pad(abs % 60, 2)}`;
}

function renderToken(token: string, c: WallClock): string {
  const hour12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
  switch (token) {
    case 'M':
      return String(c.month);
    case 'Mo':
      return ordinal(c.month);
    case 'MM':
      return pad(c.month, 2);
    case 'MMM':
      return MONTHS[c.month - 1].slice(0, 3);
    case 'MMMM':
      return MONTHS[c.month - 1];
    case 'Q':
      return String(Math.ceil(c.month / 3));
    case 'Qo':
      return ordinal(Math.ceil(c.month / 3));
    case 'D':
      return String(c.day);
    case 'Do':
      return ordinal(c.day);
    case 'DD':
      return pad(c.day, 2);
    case 'DDD':
      return String(dayOfYear(c));
    case 'DDDo':
      return ordinal(dayOfYear(c));
    case 'DDDD':
      return pad(dayOfYear(c), 3);
    case 'd':
      return String(c.weekday % 7);
    case 'do':
      return ordinal(c.weekday % 7);
    case 'dd':
      return DAYS[c.weekday % 7].slice(0, 2);
    case 'ddd':
      return DAYS[c.weekday % 7].slice(0, 3);
    case 'dddd':
      return DAYS[c.weekday % 7];
    case 'e':
      return String(c.weekday % 7); // English weeks start on Sunday
    case 'E':
      return String(c.weekday);
    case 'W':
      return String(isoWeek(c).week);
    case 'Wo':
      return ordinal(isoWeek(c).week);
    case 'WW':
      return pad(isoWeek(c).week, 2);
    case 'GG':
      return pad(isoWeek(c).year % 100, 2);
    case 'GGGG':
      return pad(isoWeek(c).year, 4);
    case 'GGGGG':
      return pad(isoWeek(c).year, 5);
    case 'YYYY':
      return pad(c.year, 4);
    case 'YYYYY':
      return pad(c.year, 5);
    case 'YYYYYY':
      return `${c.year < 0 ? '-' : '+'}${pad(Math.abs(c.year), 6)}`;
    case 'YY':
      return pad(c.year % 100, 2);
    case 'Y':
      return c.year > 9999 ? `+${c.year}` : String(c.year);
    case 'A':
      return c.hour < 12 ? 'AM' : 'PM';
    case 'a':
      return c.hour < 12 ? 'am' : 'pm';
    case 'H':
      return String(c.hour);
    case 'HH':
      return pad(c.hour, 2);
    case 'h':
      return String(hour12);
    case 'hh':
      return pad(hour12, 2);
    case 'k':
      return String(c.hour === 0 ? 24 : c.hour);
    case 'kk':
      return pad(c.hour === 0 ? 24 : c.hour, 2);
    case 'm':
      return String(c.minute);
    case 'mm':
      return pad(c.minute, 2);
    case 's':
      return String(c.second);
    case 'ss':
      return pad(c.second, 2);
    case 'Hmm':
      return `${c.hour}${pad(c.minute, 2)}`;
    case 'hmm':
      return `${hour12}${pad(c.minute, 2)}`;
    case 'Hmmss':
      return `${c.hour}${pad(c.minute, 2)}${pad(c.second, 2)}`;
    case 'hmmss':
      return `${hour12}${pad(c.minute, 2)}${pad(c.second, 2)}`;
    case 'Z':
      return offsetText(c.offset, true);
    case 'ZZ':
      return offsetText(c.offset, false);
    case 'X':
      return String(Math.floor(c.epoch / 1000));
    case 'x':
      return String(c.epoch);
    case 'z':
    case 'zz':
      return zoneAbbreviation(c.zone, c.epoch);
    default:
      // S…: fractional seconds, digits beyond milliseconds are zeros (as moment).
      return pad(c.millisecond, 3).padEnd(token.length, '0').slice(0, token.length);
  }
}

export function renderFormat(parts: readonly Part[], clock: WallClock): string {
  let out = '';
  for (const part of parts) out += 'literal' in part ? part.literal : renderToken(part.token, clock);
  return out;
}

export type CompiledTimeFormat = { ok: true; parts: Part[] } | { ok: false; message: string };

/** A format for times of day only (`$timeBetween`'s timeformat). */
export function compileTimeFormat(format: string): CompiledTimeFormat {
  const compiled = compileFormat(format);
  if (!compiled.ok) return compiled;
  for (const part of compiled.parts) {
    if ('token' in part && !TIME_TOKENS.has(part.token)) {
      return { ok: false, message: `may hold only time tokens (H, HH, h, hh, k, kk, m, mm, s, ss, a, A), not ${part.token}` };
    }
  }
  if (!compiled.parts.some((part) => 'token' in part && /^[Hhk]/.test(part.token))) {
    return { ok: false, message: 'needs an hour token (H, HH, h, hh, k or kk)' };
  }
  return compiled;
}

/**
 * A time of day written in `parts` → milliseconds since midnight, or null. Lenient as moment's
 * non-strict parsing: each token is looked for in what is left of the text, literals that are not
 * there are skipped, missing minutes and seconds are zero, "9:00 AM" reads with "hh:mm a" and so
 * does "17:00".
 */
export function parseTimeOfDay(text: string, parts: readonly Part[]): number | null {
  if (text.length > MAX_FORMAT_CHARS) return null;
  let rest = text;
  let hour: number | null = null;
  let minute = 0;
  let second = 0;
  let meridiem: 'am' | 'pm' | null = null;
  let twentyFour = false;
  for (const part of parts) {
    if ('literal' in part) {
      const trimmed = rest.replace(/^\s+/, '');
      if (trimmed.startsWith(part.literal.trim()) && part.literal.trim()) rest = trimmed.slice(part.literal.trim().length);
      continue;
    }
    if (part.token === 'a' || part.token === 'A') {
      const found = /([ap])\.?\s*m?\.?/i.exec(rest);
      if (found) {
        meridiem = found[1].toLowerCase() === 'a' ? 'am' : 'pm';
        rest = rest.slice(found.index + found[0].length);
      }
      continue;
    }
    const found = /\d\d?/.exec(rest);
    if (!found) continue;
    rest = rest.slice(found.index + found[0].length);
    const value = Number(found[0]);
    if (/^[Hhk]/.test(part.token)) {
      hour = value;
      twentyFour = part.token.startsWith('k');
    } else if (part.token.startsWith('m')) minute = value;
    else second = value;
  }
  if (hour === null || minute > 59 || second > 59) return null;
  if (twentyFour && hour === 24) hour = 0;
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  if (hour > 23) return null;
  return ((hour * 60 + minute) * 60 + second) * 1000;
}

export { msOfDay };
