// Events → on-call entries (window_events, current_oncall): one per occurrence, or per piece an
// override leaves of it, with real bounds; override children are entries of their own.
import { visitOccurrences } from './recurrence';
import type { OncallEvent, OncallEventAttendee, OncallSpan, OncallSpanAttendee } from './types';

/** The attendees of occurrence `index` for a piece starting at `at` (only deactivations look at `at`). */
type AttendeeChooser = (index: number, at: number) => OncallSpanAttendee[];

// Entries share their attendee lists (a year of hourly entries would otherwise allocate one list
// each, and the garbage collector then dominates); the lists are frozen so that a consumer that
// tries to modify one fails loudly instead of changing other entries.
function attendeeChooser(event: OncallEvent): AttendeeChooser {
  // Array.prototype.sort is stable: equal positions keep the order the attendees were given in.
  const ordered: OncallSpanAttendee[] = [...event.attendees]
    .sort((a, b) => a.position - b.position)
    .map((attendee) =>
      Object.freeze({ attendeeId: attendee.attendeeId, attendeeType: 'AccountUser' as const, position: attendee.position }),
    );
  if (event.attendees.some((attendee) => attendee.inactive?.length)) return chooserWithDeactivations(event, ordered);
  if (event.rotation && ordered.length > 0) {
    const alone = ordered.map((attendee) => Object.freeze([attendee]) as OncallSpanAttendee[]);
    return (index) => alone[index % alone.length];
  }
  const everyone = Object.freeze(ordered) as OncallSpanAttendee[];
  return () => everyone;
}

/** Instants where some attendee's deactivation starts or ends, sorted: a piece is cut at each. */
function deactivationBoundaries(event: OncallEvent): number[] {
  const instants = new Set<number>();
  for (const attendee of event.attendees) {
    for (const [from, until] of attendee.inactive ?? []) {
      instants.add(from);
      if (Number.isFinite(until)) instants.add(until);
    }
  }
  return [...instants].sort((a, b) => a - b);
}

function inactiveAt(attendee: OncallEventAttendee, at: number): boolean {
  return (attendee.inactive ?? []).some(([from, until]) => from <= at && at < until);
}

/** A deactivated person is left out as a removed attendee would be (a rotation hands occurrence k to
 * the k mod n-th of those still active), from the deactivation on; who was on call before it is unchanged. */
function chooserWithDeactivations(event: OncallEvent, ordered: readonly OncallSpanAttendee[]): AttendeeChooser {
  const byId = new Map(event.attendees.map((attendee) => [attendee.attendeeId, attendee]));
  const lists = new Map<string, OncallSpanAttendee[]>();
  return (index, at) => {
    const active = ordered.filter((attendee) => !inactiveAt(byId.get(attendee.attendeeId)!, at));
    const chosen = event.rotation ? (active.length > 0 ? [active[index % active.length]] : []) : active;
    const key = chosen.map((attendee) => attendee.attendeeId).join(' ');
    let shared = lists.get(key);
    if (!shared) lists.set(key, (shared = Object.freeze(chosen) as OncallSpanAttendee[]));
    return shared;
  };
}

/** Pushes the entry [start, end) of occurrence `index`, cut where a deactivation begins or ends; a
 * part left with nobody on call is no entry (as an event whose attendees were all removed). */
function pushPieces(
  spans: OncallSpan[],
  event: OncallEvent,
  attendeesFor: AttendeeChooser,
  boundaries: readonly number[],
  index: number,
  start: number,
  end: number,
  window: readonly [number, number],
): void {
  const { id: eventId, layer } = event;
  if (boundaries.length === 0) {
    spans.push({ eventId, layer, start, end, attendees: attendeesFor(index, start) });
    return;
  }
  let pieceStart = start;
  for (const cut of [...boundaries.filter((instant) => instant > start && instant < end), end]) {
    const attendees = attendeesFor(index, pieceStart);
    if (attendees.length > 0 && cut > window[0] && pieceStart < window[1]) {
      spans.push({ eventId, layer, start: pieceStart, end: cut, attendees });
    }
    pieceStart = cut;
  }
}

/** Override children that cut their parent: only those on the parent's layer do. */
function cuttingOverridesByParent(events: readonly OncallEvent[]): Map<string, OncallEvent[]> {
  const layerById = new Map<string, number>();
  for (const event of events) layerById.set(event.id, event.layer);
  const byParent = new Map<string, OncallEvent[]>();
  for (const event of events) {
    if (event.parentId == null || layerById.get(event.parentId) !== event.layer) continue;
    const siblings = byParent.get(event.parentId);
    if (siblings) siblings.push(event);
    else byParent.set(event.parentId, [event]);
  }
  return byParent;
}

/** Union of the overrides' occurrences within [from, to), as sorted disjoint [start, end) pairs. */
function mergedCuts(overrides: readonly OncallEvent[], from: number, to: number): number[] {
  const intervals: [number, number][] = [];
  for (const override of overrides) {
    visitOccurrences(override, from, to, (_index, start, end) => intervals.push([start, end]));
  }
  intervals.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [start, end] of intervals) {
    const last = merged.length - 1;
    if (last > 0 && start <= merged[last]) merged[last] = Math.max(merged[last], end);
    else merged.push(start, end);
  }
  return merged;
}

/** Index (even) of the first cut whose end is after `instant`. */
function firstCutEndingAfter(cuts: readonly number[], instant: number): number {
  let low = 0;
  let high = cuts.length / 2;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (cuts[2 * middle + 1] <= instant) low = middle + 1;
    else high = middle;
  }
  return 2 * low;
}

/** Every on-call entry overlapping [from, to), not clipped, sorted by start then layer. */
export function spansInWindow(events: readonly OncallEvent[], from: number, to: number): OncallSpan[] {
  if (!(to > from)) return [];
  const overridesByParent = cuttingOverridesByParent(events);
  const spans: OncallSpan[] = [];

  for (const event of events) {
    const { id: eventId } = event;
    const attendeesFor = attendeeChooser(event);
    const boundaries = deactivationBoundaries(event);
    const overrides = overridesByParent.get(eventId);
    if (!overrides) {
      visitOccurrences(event, from, to, (index, start, end) => {
        pushPieces(spans, event, attendeesFor, boundaries, index, start, end, [from, to]);
      });
      continue;
    }

    const found: number[] = [];
    let earliest = Number.POSITIVE_INFINITY;
    let latest = Number.NEGATIVE_INFINITY;
    visitOccurrences(event, from, to, (index, start, end) => {
      found.push(index, start, end);
      if (start < earliest) earliest = start;
      if (end > latest) latest = end;
    });
    if (found.length === 0) continue;
    // Occurrences are not clipped to the window, so their cuts are looked for over their whole span.
    const cuts = mergedCuts(overrides, earliest, latest);

    for (let at = 0; at < found.length; at += 3) {
      const index = found[at];
      const end = found[at + 2];
      let pieceStart = found[at + 1];
      for (let cut = firstCutEndingAfter(cuts, pieceStart); pieceStart < end; cut += 2) {
        const pieceEnd = cut < cuts.length ? Math.min(cuts[cut], end) : end;
        if (pieceEnd > pieceStart && pieceEnd > from && pieceStart < to) {
          pushPieces(spans, event, attendeesFor, boundaries, index, pieceStart, pieceEnd, [from, to]);
        }
        if (cut >= cuts.length) break;
        pieceStart = Math.max(pieceStart, cuts[cut + 1]);
      }
    }
  }

  // Stable: entries with the same start and layer stay in event order, then occurrence order.
  spans.sort((a, b) => a.start - b.start || a.layer - b.layer);
  return spans;
}

/** The entries in force at `at` (start ≤ at < end). */
export function oncallAt(events: readonly OncallEvent[], at: number): OncallSpan[] {
  return spansInWindow(events, at, at + 1).filter((span) => span.start <= at && at < span.end);
}
