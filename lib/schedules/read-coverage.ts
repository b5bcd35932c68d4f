// GET /api/v4/schedules/:id/coverage (contract §14, docs/api.md#coverage): per layer the gaps of a
// window and the time covered, per person and layer their on-call time and spans. The spans are
// window_events' own (the on-call engine over the schedule's events); lib/oncall/coverage.ts sums them.
import type * as z from 'zod';
import type { Principal } from '../http/principal';
import { coverageOf, type Coverage } from '../oncall/coverage';
import { spansInWindow } from '../oncall/oncall-spans';
import { parseWindow, scheduleOncallEvents } from './read-oncall';
import { findSchedule } from './read-schedules';
import type { ScheduleCoverageV4 } from './schemas';

export const MAX_COVERAGE_DAYS = 90;

export const iso = (instant: number) => new Date(instant).toISOString();

/** A schedule's coverage of the window a query names (at most 90 days): coverage's and fairness's reading. */
export async function windowCoverage(
  principal: Principal,
  rawId: string,
  params: URLSearchParams,
): Promise<{ start: number; end: number; coverage: Coverage }> {
  const schedule = await findSchedule(principal, rawId);
  const { start, end } = parseWindow(params, MAX_COVERAGE_DAYS);
  const events = await scheduleOncallEvents(principal.accountId, schedule.id);
  const coverage = coverageOf(
    spansInWindow(events, start, end),
    events.map((event) => event.layer),
    start,
    end,
  );
  return { start, end, coverage };
}

export async function scheduleCoverage(
  principal: Principal,
  rawId: string,
  params: URLSearchParams,
): Promise<z.input<typeof ScheduleCoverageV4>> {
  const { start, end, coverage } = await windowCoverage(principal, rawId, params);
  return {
    start: iso(start),
    end: iso(end),
    layers: coverage.layers.map((layer) => ({
      layer: layer.layer,
      gaps: layer.gaps.map((gap) => ({ start: iso(gap.start), end: iso(gap.end) })),
      covered_seconds: layer.coveredMs / 1000,
    })),
    people: coverage.people.map((person) => ({
      account_user_id: person.attendeeId,
      layer: person.layer,
      seconds: person.onCallMs / 1000,
      spans: person.spans,
    })),
  };
}
