// The routes of the `events` function (functions/http/events.ts): calendar events on both
// interfaces, their overrides and exceptions, and the time zone names they accept.
import { declareRoutes } from '../http/route-contract';
import { standardRoutes } from '../http/standard-routes';
import {
  actionTimeInput,
  earlierCreateEventInput,
  earlierUpdateEventInput,
  EventEarlier,
  EventV4,
  overrideInput,
  TimeZoneNames,
  v4CreateEventInput,
  v4UpdateEventInput,
} from './schemas';

const v4 = '/api/v4';
const SCHEDULE_EDITOR = 'Account admins, and the admins of the team whose schedule holds the event (403 otherwise).';
const ACTION_TIME = 'action_time names the occurrence by its start (422 when none starts then).';

export const eventRoutes = declareRoutes('events', {
  ...standardRoutes(`${v4}/events`, {
    tag: 'Events',
    noun: 'event',
    plural: 'events',
    item: EventV4,
    create: v4CreateEventInput,
    update: v4UpdateEventInput,
    form: true,
    writers: { create: SCHEDULE_EDITOR, update: SCHEDULE_EDITOR, delete: SCHEDULE_EDITOR },
    descriptions: {
      create:
        'Datetimes without an offset are wall-clock times in time_zone (a friendly name of /api/v4/events/time_zones or an IANA name). account_user_ids become event_attendees in the order given.',
      delete: 'Its overrides go too.',
    },
  }),
  timeZones: {
    method: 'GET',
    path: `${v4}/events/time_zones`,
    summary: 'The time zone names events accept',
    tag: 'Events',
    success: [{ status: 200, description: 'Friendly time zone names (IANA names are accepted too)', schema: TimeZoneNames }],
    errors: [401],
  },
  override: {
    method: 'POST',
    path: `${v4}/events/{id}/override`,
    summary: 'Override an occurrence',
    description: `Creates a child event (parent_id = this event) with the given attendees for the given span on the given layer; while it lasts it replaces the parent's occurrence on that layer. ${ACTION_TIME} ${SCHEDULE_EDITOR}`,
    tag: 'Events',
    body: overrideInput,
    form: true,
    success: [{ status: 201, description: 'The override (a child event)', schema: EventV4 }],
    errors: [400, 401, 403, 404, 413, 'invalid'],
  },
  addException: {
    method: 'POST',
    path: `${v4}/events/{id}/add_exception`,
    summary: 'Remove one occurrence',
    description: `${ACTION_TIME} ${SCHEDULE_EDITOR}`,
    tag: 'Events',
    body: actionTimeInput,
    form: true,
    success: [{ status: 200, description: 'The event', schema: EventV4 }],
    errors: [400, 401, 403, 404, 409, 413, 'invalid'],
  },
  terminateOn: {
    method: 'POST',
    path: `${v4}/events/{id}/terminate_on`,
    summary: 'Remove an occurrence and every later one',
    description: `${ACTION_TIME} When it is the first occurrence the whole event goes (204). ${SCHEDULE_EDITOR}`,
    tag: 'Events',
    body: actionTimeInput,
    form: true,
    success: [
      { status: 200, description: 'The shortened event', schema: EventV4 },
      { status: 204, description: 'The first occurrence was named: the event is deleted' },
    ],
    errors: [400, 401, 403, 404, 409, 413, 'invalid'],
  },
  ...standardRoutes(
    '/event',
    {
      tag: 'Events (earlier)',
      noun: 'event',
      plural: 'events',
      item: EventEarlier,
      create: earlierCreateEventInput,
      update: earlierUpdateEventInput,
      form: false,
      writers: { create: SCHEDULE_EDITOR, update: SCHEDULE_EDITOR, delete: SCHEDULE_EDITOR },
      descriptions: {
        create: 'start, end and repeatend are Unix seconds (ISO datetimes are read too); attendees are user (usr_) ids.',
      },
    },
    { prefix: 'earlier' },
  ),
});
