// Entry point: events (/api/v4/events and the earlier /event): one domain object, two representations.
import { routesOf } from '../../infra/routes';
import { createEarlierEvent, updateEarlierEvent } from '../../lib/events/earlier-events';
import { deleteEvent } from '../../lib/events/delete-event';
import { addException, overrideEvent, terminateOn } from '../../lib/events/event-actions';
import { findEvent } from '../../lib/events/find-event';
import { listEarlierEvents, listV4Events } from '../../lib/events/read-events';
import { eventToEarlier, eventToV4 } from '../../lib/events/represent';
import { createV4Event, updateV4Event } from '../../lib/events/v4-events';
import { httpHandler } from '../../lib/http/handler';
import { created, noContent, ok } from '../../lib/http/responses';
import { TIME_ZONE_NAMES } from '../../lib/oncall/time-zones';

export const handler = httpHandler(routesOf('events'), {
  list: async (req) => ok(await listV4Events(req.principal, req.query)),
  create: async (req) => created(eventToV4(await createV4Event(req.principal, req.body()))),
  get: async (req) => ok(eventToV4(await findEvent(req.principal, req.params.id))),
  update: async (req) => ok(eventToV4(await updateV4Event(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteEvent(req.principal, req.params.id);
    return noContent();
  },
  timeZones: async () => ok(TIME_ZONE_NAMES),
  override: async (req) => created(eventToV4(await overrideEvent(req.principal, req.params.id, req.body()))),
  addException: async (req) => ok(eventToV4(await addException(req.principal, req.params.id, req.body()))),
  terminateOn: async (req) => {
    const event = await terminateOn(req.principal, req.params.id, req.body());
    return event ? ok(eventToV4(event)) : noContent();
  },
  earlierList: async (req) => ok(await listEarlierEvents(req.principal, req.query)),
  earlierCreate: async (req) => created(eventToEarlier(await createEarlierEvent(req.principal, req.body()))),
  earlierGet: async (req) => ok(eventToEarlier(await findEvent(req.principal, req.params.id))),
  earlierUpdate: async (req) => ok(eventToEarlier(await updateEarlierEvent(req.principal, req.params.id, req.body()))),
  earlierDelete: async (req) => {
    await deleteEvent(req.principal, req.params.id);
    return noContent();
  },
});
