// Entry point: automations (the earlier /automation, and running one by hand).
import { automationRoutes } from '../../lib/automations/routes';
import { httpHandler } from '../../lib/api/handler';
import { createAutomation } from '../../lib/automations/create-automation';
import { deleteAutomation } from '../../lib/automations/delete-automation';
import { findAutomation, listAutomations } from '../../lib/automations/read-automations';
import { automationToEarlier } from '../../lib/automations/represent';
import { runAutomation } from '../../lib/automations/run-automation';
import { updateAutomation } from '../../lib/automations/update-automation';
import { created, noContent, ok } from '../../lib/http/replies';
import { logToEarlier } from '../../lib/logs/represent';

export const handler = httpHandler(automationRoutes, {
  list: async (req) => ok(await listAutomations(req.principal, req.query)),
  create: async (req) => created(automationToEarlier(await createAutomation(req.principal, req.body()))),
  get: async (req) => ok(automationToEarlier(await findAutomation(req.principal, req.params.id))),
  update: async (req) => ok(automationToEarlier(await updateAutomation(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteAutomation(req.principal, req.params.id);
    return noContent();
  },
  run: async (req) => ok(logToEarlier(await runAutomation(req.principal, req.params.id))),
});
