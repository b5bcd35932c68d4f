// GET /api/v4/schedules/:id/events: the schedule's raw events (repeats not expanded) through the
// list engine, so the usual filters apply (ops=start_datetime:gte,end_datetime:lte …).
import type { Principal } from '../http/principal';
import { listScheduleEvents } from '../events/read-events';
import { findSchedule } from './read-schedules';

export async function eventsOfScheduleList(principal: Principal, rawId: string, params: URLSearchParams) {
  const schedule = await findSchedule(principal, rawId);
  return listScheduleEvents(principal, schedule.id, params);
}
