// Entry point: schedules (/api/v4/schedules and the singular /api/v4/schedule/:id/… operations).
import { scheduleRoutes } from '../../lib/schedules/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { createSchedule } from '../../lib/schedules/create-schedule';
import { deleteSchedule } from '../../lib/schedules/delete-schedule';
import { flushSchedule } from '../../lib/schedules/flush-schedule';
import { scheduleCoverage } from '../../lib/schedules/read-coverage';
import { scheduleFairness } from '../../lib/schedules/read-fairness';
import { currentOncall, windowEvents } from '../../lib/schedules/read-oncall';
import { eventsOfScheduleList } from '../../lib/schedules/read-schedule-events';
import { findSchedule, listSchedules } from '../../lib/schedules/read-schedules';
import { scheduleToV4 } from '../../lib/schedules/represent';
import { updateSchedule } from '../../lib/schedules/update-schedule';

export const handler = httpHandler(scheduleRoutes, {
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
  coverage: async (req) => ok(await scheduleCoverage(req.principal, req.params.id, req.query)),
  fairness: async (req) => ok(await scheduleFairness(req.principal, req.params.id, req.query)),
});
