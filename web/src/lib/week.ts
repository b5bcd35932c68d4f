// The schedule's week view: the week's bounds in the viewer's time zone (the browser's local time),
// window_events entries cut into days and told apart (rotation, override, plain shift), removed
// occurrences (exceptions), and the occurrence an override form acts on. Pure: no DOM.
import type { OncallEntry } from './oncall';

export interface ScheduleEvent {
  id: string;
  start_datetime: string;
  end_datetime: string;
  layer: number;
  time_zone: string;
  repeat: boolean;
  rotation: boolean;
  parent_id: string | null;
  event_attendees: { attendee_id: string; position: number }[];
  exceptions: { id: string; start_datetime: string }[];
}

export type EntryKind = 'override' | 'rotation' | 'shift';

export interface DayPiece {
  entry: OncallEntry;
  kind: EntryKind;
  /** The part of the entry inside this day. */
  start: number;
  end: number;
  /** Whether the entry goes on before / after this day. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

export interface RemovedOccurrence {
  event: ScheduleEvent;
  start: number;
  end: number;
}

export interface WeekDay {
  start: number;
  end: number;
  pieces: DayPiece[];
  removed: RemovedOccurrence[];
}

/** Monday 00:00 local time of the week holding `at`. */
export function weekStart(at: Date): Date {
  const day = new Date(at.getFullYear(), at.getMonth(), at.getDate());
  const sinceMonday = (day.getDay() + 6) % 7;
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() - sinceMonday);
}

/** The seven local midnights of a week, and the next Monday (days may be 23 or 25 hours long). */
export function weekDays(start: Date): Date[] {
  return Array.from({ length: 8 }, (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i));
}

export function shiftWeek(start: Date, weeks: number): Date {
  return new Date(start.getFullYear(), start.getMonth(), start.getDate() + 7 * weeks);
}

/** `2026-11-23`: the week's Monday as a local date, for links. */
export function localDateKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function parseLocalDateKey(key: string | null | undefined): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key ?? '');
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function kindOf(entry: OncallEntry, events: Map<string, ScheduleEvent>): EntryKind {
  const event = events.get(entry.event_id);
  if (event?.parent_id) return 'override';
  if (event?.rotation) return 'rotation';
  return 'shift';
}

/** Exceptions of the schedule's events that remove an occurrence starting in [from, to). */
export function removedOccurrences(events: ScheduleEvent[], from: number, to: number): RemovedOccurrence[] {
  const removed: RemovedOccurrence[] = [];
  for (const event of events) {
    const length = Date.parse(event.end_datetime) - Date.parse(event.start_datetime);
    for (const exception of event.exceptions ?? []) {
      const start = Date.parse(exception.start_datetime);
      if (start < to && start + length > from) removed.push({ event, start, end: start + length });
    }
  }
  return removed.sort((a, b) => a.start - b.start);
}

export function layoutWeek(start: Date, entries: OncallEntry[], events: ScheduleEvent[]): WeekDay[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  const bounds = weekDays(start).map((d) => d.getTime());
  const removed = removedOccurrences(events, bounds[0], bounds[7]);
  return bounds.slice(0, 7).map((dayStart, i) => {
    const dayEnd = bounds[i + 1];
    const pieces: DayPiece[] = [];
    for (const entry of entries) {
      const s = Date.parse(entry.start_time);
      const e = Date.parse(entry.end_time);
      if (s >= dayEnd || e <= dayStart) continue;
      pieces.push({
        entry,
        kind: kindOf(entry, byId),
        start: Math.max(s, dayStart),
        end: Math.min(e, dayEnd),
        continuesBefore: s < dayStart,
        continuesAfter: e > dayEnd,
      });
    }
    pieces.sort((a, b) => a.start - b.start || a.entry.layer - b.entry.layer);
    return {
      start: dayStart,
      end: dayEnd,
      pieces,
      removed: removed.filter((r) => r.start < dayEnd && r.end > dayStart),
    };
  });
}

/**
 * The start of the occurrence a window entry belongs to (an override's action_time). An entry starts
 * its occurrence unless an override of its event cut it: then the occurrence began where the piece
 * before that override began, or with the override itself when it covered the occurrence's start.
 */
export function occurrenceStartOf(entry: OncallEntry, entries: OncallEntry[], events: Map<string, ScheduleEvent>): number {
  let start = Date.parse(entry.start_time);
  for (let hops = 0; hops < 50; hops++) {
    const cutter = entries.find(
      (e) => e.layer === entry.layer && Date.parse(e.end_time) === start && events.get(e.event_id)?.parent_id === entry.event_id,
    );
    if (!cutter) return start;
    const cutterStart = Date.parse(cutter.start_time);
    const before = entries.find((e) => e.event_id === entry.event_id && e.layer === entry.layer && Date.parse(e.end_time) === cutterStart);
    start = before ? Date.parse(before.start_time) : cutterStart;
    if (!before) return start;
  }
  return start;
}
