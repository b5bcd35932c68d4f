// Entry point: events (/api/v4/events and the earlier /event): one domain object, two representations.
import { eventRoutes } from '../../lib/events/routes';
import { addException } from '../../lib/events/add-exception';
import { createEarlierEvent, createV4Event } from '../../lib/events/create-event';
import { deleteEvent } from '../../lib/events/delete-event';
import { overrideEvent } from '../../lib/events/override-event';
import { findEvent, listEarlierEvents, listV4Events } from '../../lib/events/read-events';
import { eventToEarlier, eventToV4 } from '../../lib/events/represent';
import { terminateOn } from '../../lib/events/terminate-event';
import { updateEarlierEvent, updateV4Event } from '../../lib/events/update-event';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { TIME_ZONE_NAMES } from '../../lib/oncall/time-zones';

export const handler = httpHandler(eventRoutes, {
  list: async (req) => ok(await listV4Events(req.principal, req.query)),
  create: async (req) => created(eventToV4(await createV4Event(req.principal, req.body()))),
  get: async (req) => ok(eventToV4(await findEvent(req.principal, req.params.id))),
  update: async (req) => ok(eventToV4(await updateV4Event(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteEvent(req.principal, req.params.id);
    return noContent();
  },
  timeZones: () => ok(TIME_ZONE_NAMES),
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
