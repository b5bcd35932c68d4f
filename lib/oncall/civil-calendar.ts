// Proleptic Gregorian calendar arithmetic on integers. Wall-clock times are handled as "local ms":
// the epoch-ms number a wall clock reading would have if it were UTC, so that calendar steps are
// plain integer arithmetic and only the final local → UTC step needs the zone.

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Euclidean modulo: the result has the sign of m, so negative years and days still work. */
export function mod(a: number, m: number): number {
  // The outer % also turns -0 into 0.
  return ((a % m) + m) % m;
}

// Howard Hinnant's days_from_civil: avoids Date objects (and Date.UTC's 0..99 → 19xx quirk).
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

/** 0 = Sunday … 6 = Saturday; 1970-01-01 was a Thursday. */
export function weekdayOfDay(days: number): number {
  return mod(days + 4, 7);
}

function gcd(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return Math.abs(a);
}

function modInverse(a: number, m: number): number {
  let [oldR, r] = [mod(a, m), m];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const q = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return mod(oldS, m);
}

/**
 * How many i in [0, n) satisfy a + i·b ≡ 0 (mod m), for b, m > 0.
 * This is what lets occurrence numbers be counted without walking from the event's start.
 */
export function countCongruent(n: number, a: number, b: number, m: number): number {
  if (n <= 0) return 0;
  const g = gcd(b, m);
  const target = mod(-a, m);
  if (target % g !== 0) return 0;
  const period = m / g;
  const first = period === 1 ? 0 : mod((target / g) * modInverse(b / g, period), period);
  return first < n ? Math.floor((n - 1 - first) / period) + 1 : 0;
}

export function popcount(bits: number): number {
  let count = 0;
  for (let x = bits; x !== 0; x &= x - 1) count++;
  return count;
}
