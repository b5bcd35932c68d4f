// The query of a report (contract §14, docs/api.md#reports): whole UTC days [start, end), at most
// MAX_REPORT_DAYS, an optional team of the caller's account, and for the alerts report its bucket.
// Reports count whole UTC days because their aggregates are kept per UTC day (the created_at day
// buckets): a bound inside a day could only be answered by reading that day's alerts.
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { parseWindowBound } from '../schedules/read-oncall';
import { getTeam } from '../teams/store';

export const MAX_REPORT_DAYS = 366;
const DAY_MS = 86_400_000;

export type ReportBucket = 'day' | 'week';

export interface ReportWindow {
  /** UTC midnights, end exclusive. */
  start: number;
  end: number;
  teamId: string | null;
  bucket: ReportBucket;
}

function dayBound(params: URLSearchParams, name: 'start' | 'end', messages: string[]): number | null {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') {
    messages.push(`${name} can't be blank`);
    return null;
  }
  const instant = parseWindowBound(raw);
  if (instant === null) {
    messages.push(`${name} must be a date (YYYY-MM-DD) or an ISO 8601 datetime`);
    return null;
  }
  if (instant % DAY_MS !== 0) {
    messages.push(
      `${name} must be a UTC midnight (reports count whole UTC days), such as ${new Date(instant - (instant % DAY_MS)).toISOString().slice(0, 10)}`,
    );
    return null;
  }
  return instant;
}

/** Reads and checks a report's query; Invalid (422) naming every parameter at fault. */
export async function parseReportQuery(
  principal: Principal,
  params: URLSearchParams,
  options: { buckets: boolean },
): Promise<ReportWindow> {
  const allowed = new Set(['start', 'end', 'team_id', ...(options.buckets ? ['bucket'] : [])]);
  const messages: string[] = [];
  for (const name of new Set(params.keys())) {
    if (!allowed.has(name)) messages.push(`${name} is not a parameter of this report (${[...allowed].join(', ')})`);
  }
  const start = dayBound(params, 'start', messages);
  const end = dayBound(params, 'end', messages);
  if (start !== null && end !== null) {
    if (end <= start) messages.push('end must be after start');
    else if (end - start > MAX_REPORT_DAYS * DAY_MS)
      messages.push(`the window from start to end must not be longer than ${MAX_REPORT_DAYS} days`);
  }
  const rawBucket = params.get('bucket');
  let bucket: ReportBucket = 'day';
  if (rawBucket !== null) {
    if (rawBucket === 'day' || rawBucket === 'week') bucket = rawBucket;
    else messages.push('bucket must be day or week');
  }
  let teamId: string | null = null;
  const rawTeam = params.get('team_id');
  if (rawTeam !== null) {
    const id = parseId('team', rawTeam.trim());
    // Another account's team is as absent as one that never was (contract §3): the same 422.
    const team = id ? await getTeam(principal.accountId, id) : null;
    if (team) teamId = team.id;
    else messages.push(`team_id does not name a team of this account: ${rawTeam}`);
  }
  if (messages.length > 0) throw new Invalid(messages);
  return { start: start!, end: end!, teamId, bucket };
}

export const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The buckets of a window: whole days, or weeks from Monday 00:00 UTC (ISO 8601) cut to the window. */
export function bucketsOf(window: Pick<ReportWindow, 'start' | 'end' | 'bucket'>): Array<{ start: number; end: number }> {
  const buckets: Array<{ start: number; end: number }> = [];
  let from = window.start;
  while (from < window.end) {
    let to = from + DAY_MS;
    if (window.bucket === 'week') {
      // 1970-01-01 was a Thursday: days since a Monday are (days + 3) mod 7.
      const weekday = (Math.floor(from / DAY_MS) + 3) % 7;
      to = from + (7 - weekday) * DAY_MS;
    }
    buckets.push({ start: from, end: Math.min(to, window.end) });
    from = Math.min(to, window.end);
  }
  return buckets;
}
