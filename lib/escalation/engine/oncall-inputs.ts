// Builds the engine's on-call inputs from the on-call engine's spans (lib/oncall), prefetched per
// team for the moment of the step: spans hold the attendees already resolved (a rotation gives one).
import type { OncallSpan } from '../../oncall/types';
import type { EngineInputs } from './types';

export function oncallFromSpans(
  spansByTeam: ReadonlyMap<string, readonly OncallSpan[]>,
): Pick<EngineInputs, 'oncallAt' | 'oncallAnyLayerAt'> {
  const attendeesAt = (teamId: string, at: number, layer: number | null): string[] => {
    const spans = (spansByTeam.get(teamId) ?? [])
      .filter((span) => span.start <= at && at < span.end && (layer === null || span.layer === layer))
      .sort((a, b) => a.layer - b.layer || a.start - b.start || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
    const ids: string[] = [];
    for (const span of spans) {
      for (const attendee of [...span.attendees].sort((a, b) => a.position - b.position)) {
        if (!ids.includes(attendee.attendeeId)) ids.push(attendee.attendeeId);
      }
    }
    return ids;
  };
  return {
    oncallAt: (teamId, layer, at) => attendeesAt(teamId, at, layer),
    oncallAnyLayerAt: (teamId, at) => attendeesAt(teamId, at, null),
  };
}
