// A source's rendered on-call (entries that may overlap, leave gaps or be cut at a page's edge) as
// the contiguous spans `ImportSource.renderedOnCall` answers: every instant of [from, to) in exactly
// one span, the people on call at once together, gaps as spans with nobody.
import type { OnCallSpan } from './source-model';

export interface RenderedEntry {
  start: number;
  end: number;
  userSourceIds: string[];
}

export function contiguousSpans(entries: RenderedEntry[], from: number, to: number): OnCallSpan[] {
  const cuts = new Set<number>([from, to]);
  for (const entry of entries) {
    if (entry.start > from && entry.start < to) cuts.add(entry.start);
    if (entry.end > from && entry.end < to) cuts.add(entry.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const spans: { start: number; end: number; users: string[] }[] = [];
  for (let i = 0; i + 1 < points.length; i += 1) {
    const [start, end] = [points[i], points[i + 1]];
    const users = [...new Set(entries.filter((e) => e.start <= start && e.end >= end).flatMap((e) => e.userSourceIds))].sort();
    const last = spans.at(-1);
    if (last && last.users.join('\n') === users.join('\n')) last.end = end;
    else spans.push({ start, end, users });
  }
  return spans.map((s) => ({ start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString(), userSourceIds: s.users }));
}
