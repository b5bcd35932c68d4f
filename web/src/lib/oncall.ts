// Who is on call now on each layer, until when, and who comes next, from a schedule's
// current_oncall and window_events entries (docs/api.md#schedules-and-events: one entry per occurrence or piece, real
// bounds, events on one layer at one time add their attendees). "Until" is when the set of people
// on the layer changes, not when the current entry ends: a rotation of one person, or two
// back-to-back shifts of the same person, is one stretch on call. Pure: no DOM.

export interface OncallEntry {
  event_id: string;
  layer: number;
  start_time: string;
  end_time: string;
  attendees: { attendee_id: string; attendee_type?: string; position?: number }[];
}

export interface LayerSummary {
  layer: number;
  /** Account user ids on call now (sorted, distinct). */
  now: string[];
  /** When `now` stops being the people on call; null when it does not change within the window. */
  until: number | null;
  /** The people on call on this layer once `now` ends (after a gap, if any); null when none in the window. */
  next: string[] | null;
  nextFrom: number | null;
}

function peopleAt(entries: OncallEntry[], at: number): string[] {
  const people = new Set<string>();
  for (const entry of entries) {
    if (Date.parse(entry.start_time) <= at && at < Date.parse(entry.end_time)) {
      for (const attendee of entry.attendees) people.add(attendee.attendee_id);
    }
  }
  return [...people].sort();
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `horizon`: the end of the window the upcoming entries were read for; what follows is unknown. */
export function summarizeLayers(current: OncallEntry[], upcoming: OncallEntry[], now: number, horizon = Infinity): LayerSummary[] {
  const layers = [...new Set([...current, ...upcoming].map((e) => e.layer))].sort((a, b) => a - b);
  return layers.map((layer) => {
    const onLayer = [...current, ...upcoming].filter((e) => e.layer === layer);
    // `current` is the API's answer for now; the window entries only decide what follows.
    const nowPeople = [...new Set(current.filter((e) => e.layer === layer).flatMap((e) => e.attendees.map((a) => a.attendee_id)))].sort();
    const boundaries = [
      ...new Set(onLayer.flatMap((e) => [Date.parse(e.start_time), Date.parse(e.end_time)]).filter((t) => t > now && t < horizon)),
    ].sort((a, b) => a - b);
    let until: number | null = null;
    let next: string[] | null = null;
    let nextFrom: number | null = null;
    for (const boundary of boundaries) {
      const people = peopleAt(onLayer, boundary);
      if (until === null) {
        if (same(people, nowPeople)) continue;
        until = boundary;
      }
      // The first people on call once this stretch ends, after a gap if there is one.
      if (people.length > 0) {
        next = people;
        nextFrom = boundary;
        break;
      }
    }
    return { layer, now: nowPeople, until, next, nextFrom };
  });
}
