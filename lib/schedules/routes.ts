// The routes of the `schedules` function (functions/http/schedules.ts): schedules, their events and
// who is on call on one (note the singular /schedule/ segment of the last three, as the spec has it).
import { EventV4 } from '../events/schemas';
import { declareRoutes, NESTED_LIST_ERRORS, READ_ERRORS } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import {
  createScheduleInput,
  ONCALL_ENTRIES,
  OncallEntries,
  ScheduleCoverageV4,
  ScheduleFairnessV4,
  ScheduleV4,
  updateScheduleInput,
} from './schemas';

const v4 = '/api/v4';

export const scheduleRoutes = declareRoutes('schedules', {
  ...standardRoutes(`${v4}/schedules`, {
    tag: 'Schedules',
    noun: 'schedule',
    plural: 'schedules',
    item: ScheduleV4,
    create: createScheduleInput,
    update: updateScheduleInput,
    form: true,
    writers: {
      create: ADMIN_ONLY,
      update: "Account admins and the admins of the schedule's team (403 otherwise).",
      delete: ADMIN_ONLY,
    },
    descriptions: { delete: 'Its events go too (those shared with other schedules only leave it), and teams lose their pointer to it.' },
  }),
  events: {
    method: 'GET',
    path: `${v4}/schedules/{id}/events`,
    summary: "List a schedule's events",
    description:
      'The stored events, repeats and rotations not expanded; accepts the list filters (e.g. ops=start_datetime:gte,end_datetime:lte).',
    tag: 'Schedules',
    list: EventV4,
    success: [{ status: 200, description: 'A page of events' }],
    errors: NESTED_LIST_ERRORS,
  },
  flush: {
    method: 'DELETE',
    path: `${v4}/schedule/{id}/flush`,
    summary: 'Remove every event of a schedule',
    description: "Note the singular segment. Account admins and the admins of the schedule's team (403 otherwise).",
    tag: 'Schedules',
    success: [{ status: 204, description: 'Flushed; no body' }],
    errors: [401, 403, 404, 409],
  },
  currentOncall: {
    method: 'GET',
    path: `${v4}/schedule/{id}/current_oncall`,
    summary: 'Who is on call on a schedule now',
    description: `Note the singular segment. ${ONCALL_ENTRIES}`,
    tag: 'Schedules',
    success: [{ status: 200, description: 'The on-call spans in force now', schema: OncallEntries }],
    errors: READ_ERRORS,
  },
  windowEvents: {
    method: 'GET',
    path: `${v4}/schedule/{id}/window_events`,
    summary: 'Who is on call on a schedule during a window',
    description: `Note the singular segment. ${ONCALL_ENTRIES} Every span overlapping [start, end), sorted by start_time then layer. A bad format, end ≤ start, or a window over 366 days is a 422.`,
    tag: 'Schedules',
    query: [
      { name: 'start', required: true, description: 'UTC, YYYY-MM-DD HH:mm:ss (ISO 8601 also read)', example: '2026-03-01 00:00:00' },
      { name: 'end', required: true, description: 'UTC, YYYY-MM-DD HH:mm:ss (ISO 8601 also read)', example: '2026-03-08 00:00:00' },
    ],
    success: [{ status: 200, description: 'The on-call spans of the window', schema: OncallEntries }],
    errors: [401, 404, 'invalid'],
  },
  coverage: {
    method: 'GET',
    path: `${v4}/schedules/{id}/coverage`,
    summary: "A schedule's coverage gaps and each person's on-call time in a window",
    description:
      'Per layer: the maximal intervals of [start, end) in which nobody is on call (gaps) and the time someone is (covered_seconds); layer 1 always, other layers where the schedule has events. Per person and layer: their on-call time within the window (two people on call at once each count in full) and the number of their spans that overlap it. Computed from the same spans as window_events. A bad format, end ≤ start, or a window over 90 days is a 422.',
    tag: 'Schedules',
    query: [
      { name: 'start', required: true, description: 'ISO 8601 datetime (without an offset: UTC)', example: '2026-03-01T00:00:00Z' },
      { name: 'end', required: true, description: 'ISO 8601 datetime, at most 90 days after start', example: '2026-03-29T00:00:00Z' },
    ],
    success: [{ status: 200, description: 'Gaps per layer and time per person', schema: ScheduleCoverageV4 }],
    errors: [401, 404, 'invalid'],
  },
  fairness: {
    method: 'GET',
    path: `${v4}/schedules/{id}/fairness`,
    summary: "How a window's on-call time is shared out among a schedule's people",
    description:
      "Per person and layer: their on-call time within [start, end) as coverage counts it, the part of it between 22:00 and 07:00 and the part on a Saturday or Sunday, both on the person's own clock (their profile's time zone), and their spans overlapping the window. Same window rules as coverage (at most 90 days; 422 otherwise).",
    tag: 'Schedules',
    query: [
      { name: 'start', required: true, description: 'ISO 8601 datetime (without an offset: UTC)', example: '2026-03-01T00:00:00Z' },
      { name: 'end', required: true, description: 'ISO 8601 datetime, at most 90 days after start', example: '2026-03-29T00:00:00Z' },
    ],
    success: [{ status: 200, description: 'Time per person and layer', schema: ScheduleFairnessV4 }],
    errors: [401, 404, 'invalid'],
  },
});
