// The routes of the `calendars` function (functions/http/calendars.ts): secret iCalendar feeds of a
// schedule's or a person's on-call spans (contract §14). Only /api/v4 has them.
import { declareRoutes } from '../http/route-contract';
import { CalendarAddressV4 } from './schemas';

const v4 = '/api/v4';
const FEED =
  'The feed (GET <url>) is iCalendar: one event per on-call span of one person, from 7 days ago to 90 days ahead, exactly the spans window_events gives for that window.';

export const calendarRoutes = declareRoutes('calendars', {
  createScheduleCalendar: {
    method: 'POST',
    path: `${v4}/schedules/{id}/calendar`,
    summary: "A secret calendar address of a schedule's on-call spans",
    description: `Anyone in the account may ask for one (reading is open to all); each call makes a new address. ${FEED} The address is shown in this answer only; the service keeps a hash of its token.`,
    tag: 'Calendars',
    success: [{ status: 201, description: 'The new address', schema: CalendarAddressV4 }],
    errors: [401, 404],
  },
  revokeScheduleCalendars: {
    method: 'DELETE',
    path: `${v4}/schedules/{id}/calendar`,
    summary: 'Revoke every calendar address of a schedule',
    description: "Account admins and the admins of the schedule's team (403 otherwise). Revoked addresses answer 404 at once.",
    tag: 'Calendars',
    success: [{ status: 204, description: 'Revoked (also when there was none); no body' }],
    errors: [401, 403, 404],
  },
  createPersonCalendar: {
    method: 'POST',
    path: `${v4}/account_users/{id}/calendar`,
    summary: "A secret calendar address of one person's shifts on every schedule",
    description: `That account user or an admin (403 otherwise). ${FEED} The address is shown in this answer only.`,
    tag: 'Calendars',
    success: [{ status: 201, description: 'The new address', schema: CalendarAddressV4 }],
    errors: [401, 403, 404],
  },
  revokePersonCalendars: {
    method: 'DELETE',
    path: `${v4}/account_users/{id}/calendar`,
    summary: "Revoke every calendar address of one person's shifts",
    description: 'That account user or an admin (403 otherwise).',
    tag: 'Calendars',
    success: [{ status: 204, description: 'Revoked (also when there was none); no body' }],
    errors: [401, 403, 404],
  },
  feed: {
    method: 'GET',
    path: '/public/calendars/{token}',
    public: true,
    summary: 'A calendar feed',
    description:
      'The path is `<token>.ics`, as POST …/calendar answered it; the token is the credential. RFC 5545 text (text/calendar; charset=utf-8): one VEVENT per on-call span of one attendee, DTSTART/DTEND in UTC, the person, the layer and the schedule in SUMMARY, a UID that stays the same across fetches. An unknown or revoked address, or one whose schedule or person is gone, is a 404 (which of these is not said).',
    tag: 'Calendars',
    success: [{ status: 200, description: 'The iCalendar feed', text: 'text/calendar' }],
    errors: [404],
  },
});
