// Event → its occurrences (docs/api.md#schedules-and-events). Expansion jumps straight to the window: the occurrence
// number at the window's start is counted arithmetically, so the cost follows the occurrences in
// the window, not the age of the event.
import { DAY_MS, HOUR_MS, civilFromDays, countCongruent, daysFromCivil, daysInMonth, popcount, weekdayOfDay } from './civil-calendar';
import { resolveTimeZone } from './time-zones';
import type { Occurrence, OncallEvent } from './types';
import { LocalTimeConverter, zoneOffsets } from './zone-offsets';

type Plan = SinglePlan | HourlyPlan | CalendarPlan;

interface PlanBase {
  start: number;
  end: number;
  /** Real length of the first occurrence. */
  elapsed: number;
  /** Inclusive; +Infinity when the repetition never ends. */
  repeatEnd: number;
  exceptions: ReadonlySet<number>;
}

interface SinglePlan extends PlanBase {
  kind: 'single';
}

interface HourlyPlan extends PlanBase {
  kind: 'hourly';
  stepMs: number;
}

interface CalendarPlan extends PlanBase {
  kind: 'days' | 'weekdays' | 'months';
  timeZone: string;
  /** Wall-clock reading of the first start, as local ms. */
  localStart: number;
  /** Local day number of the first start and its local time of day. */
  startDay: number;
  timeOfDay: number;
  /** Wall-clock length of the first occurrence (local end − local start). */
  wallLength: number;
  /** 'days': days between candidates; 'months': months between candidates. */
  step: number;
  /** 'weekdays': repeat every `weekFrequency`-th week. */
  weekFrequency: number;
  /** Bit d set = weekday d listed; 0 = no days_of_week filter. */
  weekdayMask: number;
  /** 'months': absolute month (year·12 + month − 1) and day of month of the first start. */
  startMonth: number;
  dayOfMonth: number;
}

/** Receives an occurrence: its number, real start and real end. */
export type OccurrenceVisitor = (index: number, start: number, end: number) => void;

export interface OccurrenceOptions {
  /** Also report occurrences removed by exceptions (they keep their number either way). */
  includeRemoved?: boolean;
}

function weekdayMaskOf(days: readonly number[] | null | undefined): number {
  let mask = 0;
  for (const day of days ?? []) {
    if (Number.isInteger(day) && day >= 0 && day <= 6) mask |= 1 << day;
  }
  return mask;
}

function planFor(event: OncallEvent): Plan {
  const base: PlanBase = {
    start: event.start,
    end: event.end,
    elapsed: event.end - event.start,
    repeatEnd: event.repeatEnd ?? Number.POSITIVE_INFINITY,
    exceptions: new Set(event.exceptions),
  };
  const frequency = Math.floor(Number(event.frequency));
  if (!event.repeat || !event.frequencyUnit || !(frequency >= 1)) {
    return { ...base, kind: 'single', repeatEnd: Number.POSITIVE_INFINITY };
  }
  const unit = event.frequencyUnit;
  if (unit === 'hourly') return { ...base, kind: 'hourly', stepMs: frequency * HOUR_MS };

  // time_zone is stored as given, so a friendly name may reach the engine; unknown names fail in Intl.
  const timeZone = resolveTimeZone(event.timeZone) ?? event.timeZone;
  const zone = zoneOffsets(timeZone);
  const localStart = event.start + zone.offsetAt(event.start);
  const localEnd = event.end + zone.offsetAt(event.end);
  const startDay = Math.floor(localStart / DAY_MS);
  const civil = civilFromDays(startDay);
  const mask = weekdayMaskOf(event.daysOfWeek);
  const calendar = {
    ...base,
    timeZone,
    localStart,
    startDay,
    timeOfDay: localStart - startDay * DAY_MS,
    wallLength: localEnd - localStart,
    step: frequency,
    weekFrequency: 1,
    weekdayMask: 0,
    startMonth: civil.year * 12 + civil.month - 1,
    dayOfMonth: civil.day,
  };
  switch (unit) {
    case 'daily':
      return { ...calendar, kind: 'days', weekdayMask: mask };
    case 'weekly':
      return mask === 0
        ? { ...calendar, kind: 'days', step: 7 * frequency }
        : { ...calendar, kind: 'weekdays', weekFrequency: frequency, weekdayMask: mask };
    case 'monthly':
      return { ...calendar, kind: 'months' };
    case 'yearly':
      return { ...calendar, kind: 'months', step: 12 * frequency };
    default:
      return { ...base, kind: 'single', repeatEnd: Number.POSITIVE_INFINITY };
  }
}

/** Occurrences among candidates j in [0, candidate) of a daily repeat filtered by weekday. */
function dailyOccurrencesBefore(plan: CalendarPlan, candidate: number): number {
  if (candidate <= 0) return 0;
  const startWeekday = weekdayOfDay(plan.startDay);
  let matches = 0;
  for (let day = 0; day < 7; day++) {
    if (plan.weekdayMask & (1 << day)) matches += countCongruent(candidate, startWeekday - day, plan.step, 7);
  }
  // The first start is always occurrence 0, listed weekday or not.
  const startMatches = (plan.weekdayMask >> startWeekday) & 1;
  return matches - startMatches + 1;
}

/** Occurrences of a weekly-by-weekday repeat on local days before `day` (day > startDay). */
function weekdayOccurrencesBefore(plan: CalendarPlan, day: number): number {
  if (day <= plan.startDay) return 0;
  const startWeekday = weekdayOfDay(plan.startDay);
  const weekStart = plan.startDay - startWeekday;
  const weeks = Math.floor((day - weekStart) / 7);
  const rest = day - weekStart - weeks * 7;
  const perWeek = popcount(plan.weekdayMask);
  const activeWeeks = Math.floor((weeks + plan.weekFrequency - 1) / plan.weekFrequency);
  let listedDays = activeWeeks * perWeek;
  if (weeks % plan.weekFrequency === 0) listedDays += popcount(plan.weekdayMask & ((1 << rest) - 1));
  const listedUpToStart = popcount(plan.weekdayMask & ((1 << (startWeekday + 1)) - 1));
  return 1 + listedDays - listedUpToStart;
}

/** Candidate months j in [0, candidate) whose date does not exist (the 31st, Feb 29…). */
function missingMonthsBefore(plan: CalendarPlan, candidate: number): number {
  const { dayOfMonth: day, startMonth: first, step } = plan;
  if (day <= 28 || candidate <= 0) return 0;
  // Month m (0-based) of year y is absolute month 12y + m; February is m = 1.
  const februaries = countCongruent(candidate, first - 1, step, 12);
  if (day === 30) return februaries;
  if (day === 29) {
    // 12y + 1 ≡ 1 (mod 48) ⇔ 4 | y; likewise 1200 ↔ 100 | y and 4800 ↔ 400 | y.
    const leapFebruaries =
      countCongruent(candidate, first - 1, step, 48) -
      countCongruent(candidate, first - 1, step, 1200) +
      countCongruent(candidate, first - 1, step, 4800);
    return februaries - leapFebruaries;
  }
  let missing = 0;
  for (const shortMonth of [1, 3, 5, 8, 10]) missing += countCongruent(candidate, first - shortMonth, step, 12);
  return missing;
}

const STOP = true;

/**
 * Calls `visit` for every occurrence overlapping [from, to), in occurrence-number order.
 * Occurrence 0 is exactly [event.start, event.end); later ones keep its wall-clock time and length.
 */
function visitPlan(plan: Plan, from: number, to: number, visit: OccurrenceVisitor, includeRemoved: boolean): void {
  if (!(to > from)) return;
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError('occurrence window must be finite');
  const { exceptions, repeatEnd } = plan;

  if (plan.kind === 'single') {
    if (plan.start < to && plan.end > from && (includeRemoved || !exceptions.has(plan.start))) {
      visit(0, plan.start, plan.end);
    }
    return;
  }

  if (plan.kind === 'hourly') {
    const { stepMs, elapsed } = plan;
    for (let index = Math.max(0, Math.floor((from - elapsed - plan.start) / stepMs) + 1); ; index++) {
      const start = plan.start + index * stepMs;
      if (start >= to || start > repeatEnd) break;
      if (includeRemoved || !exceptions.has(start)) visit(index, start, start + elapsed);
    }
    return;
  }

  const { timeOfDay, wallLength, elapsed } = plan;
  const reach = Math.max(wallLength, elapsed);
  // Local and real times differ by less than a day, so these bounds (in local ms) surely hold
  // every candidate whose real interval can touch [from, to).
  const lowest = from - reach - 2 * DAY_MS;
  const highest = to + 2 * DAY_MS;
  const converter: LocalTimeConverter = zoneOffsets(plan.timeZone).converter(lowest - DAY_MS, highest + Math.max(0, wallLength) + DAY_MS);

  // Returns STOP once occurrences start too late; real starts never decrease from one candidate to
  // the next because candidates are at least a day apart on the wall clock.
  const consider = (index: number, localStart: number): boolean => {
    let start: number;
    let end: number;
    if (index === 0) {
      start = plan.start;
      end = plan.end;
    } else {
      start = converter.toUtc(localStart);
      end = converter.toUtc(localStart + wallLength);
      // Only when a DST change swallows the whole wall-clock span: keep the first one's real length.
      if (end <= start) end = start + elapsed;
    }
    if (start >= to || start > repeatEnd) return STOP;
    if (end > from && (includeRemoved || !exceptions.has(start))) visit(index, start, end);
    return !STOP;
  };

  if (plan.kind === 'days') {
    const { step, weekdayMask, startDay } = plan;
    let candidate = Math.max(0, Math.ceil((lowest - plan.localStart) / (step * DAY_MS)));
    let index = weekdayMask === 0 ? candidate : dailyOccurrencesBefore(plan, candidate);
    for (; ; candidate++) {
      const day = startDay + candidate * step;
      const localStart = day * DAY_MS + timeOfDay;
      if (localStart > highest) break;
      if (candidate > 0 && weekdayMask !== 0 && !(weekdayMask & (1 << weekdayOfDay(day)))) continue;
      if (consider(index, localStart) === STOP) break;
      index++;
    }
    return;
  }

  if (plan.kind === 'weekdays') {
    const { startDay, weekFrequency, weekdayMask } = plan;
    const weekStart = startDay - weekdayOfDay(startDay);
    let day = Math.max(startDay, Math.ceil((lowest - timeOfDay) / DAY_MS));
    let index = weekdayOccurrencesBefore(plan, day);
    for (; ; day++) {
      const localStart = day * DAY_MS + timeOfDay;
      if (localStart > highest) break;
      if (day !== startDay) {
        const week = Math.floor((day - weekStart) / 7);
        const skippedWeeks = week % weekFrequency;
        if (skippedWeeks !== 0) {
          // Jump to the last day before the next active week (the loop's day++ lands on its Sunday).
          day = weekStart + (week + weekFrequency - skippedWeeks) * 7 - 1;
          continue;
        }
        if (!(weekdayMask & (1 << (day - weekStart - week * 7)))) continue;
      }
      if (consider(index, localStart) === STOP) break;
      index++;
    }
    return;
  }

  const { startMonth, step, dayOfMonth } = plan;
  const lowestCivil = civilFromDays(Math.floor(lowest / DAY_MS));
  const lowestMonth = lowestCivil.year * 12 + lowestCivil.month - 1;
  let candidate = Math.max(0, Math.ceil((lowestMonth - startMonth) / step));
  let index = candidate - missingMonthsBefore(plan, candidate);
  for (; ; candidate++) {
    const month = startMonth + candidate * step;
    const year = Math.floor(month / 12);
    const monthOfYear = month - year * 12 + 1;
    const firstOfMonth = daysFromCivil(year, monthOfYear, 1);
    if (firstOfMonth * DAY_MS + timeOfDay > highest) break;
    if (dayOfMonth > daysInMonth(year, monthOfYear)) continue;
    if (consider(index, (firstOfMonth + dayOfMonth - 1) * DAY_MS + timeOfDay) === STOP) break;
    index++;
  }
}

/** Visits the occurrences of `event` overlapping [from, to) without building an array. */
export function visitOccurrences(
  event: OncallEvent,
  from: number,
  to: number,
  visit: OccurrenceVisitor,
  options: OccurrenceOptions = {},
): void {
  visitPlan(planFor(event), from, to, visit, options.includeRemoved ?? false);
}

/** Occurrences overlapping [from, to), numbered from the first (0), exceptions left out. */
export function expandOccurrences(event: OncallEvent, from: number, to: number, options: OccurrenceOptions = {}): Occurrence[] {
  const occurrences: Occurrence[] = [];
  visitOccurrences(event, from, to, (index, start, end) => occurrences.push({ eventId: event.id, index, start, end }), options);
  return occurrences;
}

/**
 * The occurrence starting exactly at `instant`, or null (add_exception, terminate_on and override
 * answer 422 then). An occurrence already removed by an exception is only found with includeRemoved.
 */
export function findOccurrenceStartingAt(event: OncallEvent, instant: number, options: OccurrenceOptions = {}): Occurrence | null {
  const found = expandOccurrences(event, instant, instant + 1, options);
  return found.find((occurrence) => occurrence.start === instant) ?? null;
}

/**
 * The latest occurrence starting strictly before `instant`, or null. Removed occurrences count by
 * default: terminate_on sets repeat_end to this start so that numbering and exceptions stay intact.
 */
export function lastOccurrenceBefore(
  event: OncallEvent,
  instant: number,
  options: OccurrenceOptions = { includeRemoved: true },
): Occurrence | null {
  // Nothing starts after repeat_end, so there is no point looking back from later than that.
  const repeatEnd = event.repeat && event.repeatEnd != null ? event.repeatEnd : Number.POSITIVE_INFINITY;
  const until = Math.min(instant, Math.floor(repeatEnd) + 1);
  if (until <= event.start) return null;
  // Look back over a growing window; every occurrence starting inside it is seen, so the latest
  // one found there is the answer as soon as one starts inside it.
  for (let reach = 2 * Math.max(event.end - event.start, 40 * DAY_MS); ; reach *= 4) {
    const from = Math.max(event.start, until - reach);
    let latest: Occurrence | null = null;
    visitOccurrences(
      event,
      from,
      until,
      (index, start, end) => {
        if (start < until && (!latest || start >= latest.start)) latest = { eventId: event.id, index, start, end };
      },
      options,
    );
    const best = latest as Occurrence | null;
    if ((best && best.start >= from) || from === event.start) return best;
  }
}

export type TerminationPlan = { kind: 'delete' } | { kind: 'truncate'; repeatEnd: number };

/**
 * terminate_on: null when `instant` starts no occurrence (422); 'delete' when it is the first
 * occurrence (the whole event goes, 204); otherwise the repeat_end that keeps every earlier one.
 */
export function planTermination(event: OncallEvent, instant: number): TerminationPlan | null {
  const occurrence = findOccurrenceStartingAt(event, instant, { includeRemoved: true });
  if (!occurrence) return null;
  if (occurrence.index === 0) return { kind: 'delete' };
  const previous = lastOccurrenceBefore(event, instant);
  return previous ? { kind: 'truncate', repeatEnd: previous.start } : { kind: 'delete' };
}
