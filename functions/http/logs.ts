// Entry point: logs (/log, earlier interface).
import { logRoutes } from '../../lib/logs/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, ok } from '../../lib/http/replies';
import { createLog } from '../../lib/logs/create-log';
import { findLog, listLogs } from '../../lib/logs/read-logs';
import { logToEarlier } from '../../lib/logs/represent';

export const handler = httpHandler(logRoutes, {
  list: async (req) => ok(await listLogs(req.principal, req.query, req.iface)),
  create: async (req) => created(logToEarlier(await createLog(req.principal, req.body()))),
  get: async (req) => ok(logToEarlier(await findLog(req.principal, req.params.id))),
});
