// Entry point: schedules (/api/v4/schedules and the singular /api/v4/schedule/:id/… operations).
import { routesOf } from '../../infra/routes';
import { httpHandler } from '../../lib/http/handler';
import { created, noContent, ok } from '../../lib/http/responses';
import {
  createSchedule,
  deleteSchedule,
  findSchedule,
  flushSchedule,
  listSchedules,
  updateSchedule,
} from '../../lib/schedules/manage-schedules';
import { currentOncall, windowEvents } from '../../lib/schedules/oncall';
import { scheduleToV4 } from '../../lib/schedules/represent';
import { eventsOfScheduleList } from '../../lib/schedules/schedule-events';

export const handler = httpHandler(routesOf('schedules'), {
  list: async (req) => ok(await listSchedules(req.principal, req.query)),
  create: async (req) => created(scheduleToV4(await createSchedule(req.principal, req.body()))),
  get: async (req) => ok(scheduleToV4(await findSchedule(req.principal, req.params.id))),
  update: async (req) => ok(scheduleToV4(await updateSchedule(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteSchedule(req.principal, req.params.id);
    return noContent();
  },
  events: async (req) => ok(await eventsOfScheduleList(req.principal, req.params.id, req.query)),
  flush: async (req) => {
    await flushSchedule(req.principal, req.params.id);
    return noContent();
  },
  currentOncall: async (req) => ok(await currentOncall(req.principal, req.params.id)),
  windowEvents: async (req) => ok(await windowEvents(req.principal, req.params.id, req.query)),
});
