// Entry point: automations (the earlier /automation, and running one by hand).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that lists automations does not load a run's outbound client or the
// writes' checks (issue 21).
import { automationRoutes } from '../../lib/automations/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

const loadAutomationsReadAutomations = /* @__PURE__ */ loadOnce(() => import('../../lib/automations/read-automations'));
const loadAutomationsCreateAutomation = /* @__PURE__ */ loadOnce(() => import('../../lib/automations/create-automation'));
const loadAutomationsUpdateAutomation = /* @__PURE__ */ loadOnce(() => import('../../lib/automations/update-automation'));
const loadAutomationsDeleteAutomation = /* @__PURE__ */ loadOnce(() => import('../../lib/automations/delete-automation'));
const loadAutomationsRunAutomation = /* @__PURE__ */ loadOnce(() => import('../../lib/automations/run-automation'));
const loadLogsRepresent = /* @__PURE__ */ loadOnce(() => import('../../lib/logs/represent'));

const represent = /* @__PURE__ */ loadOnce(() => import('../../lib/automations/represent'));

export const handler = httpHandler(automationRoutes, {
  list: async (req) => {
    const { listAutomations } = await loadAutomationsReadAutomations();
    return ok(await listAutomations(req.principal, req.query));
  },
  create: async (req) => {
    const [{ createAutomation }, { automationToEarlier }] = await Promise.all([loadAutomationsCreateAutomation(), represent()]);
    return created(automationToEarlier(await createAutomation(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ findAutomation }, { automationToEarlier }] = await Promise.all([loadAutomationsReadAutomations(), represent()]);
    return ok(automationToEarlier(await findAutomation(req.principal, req.params.id)));
  },
  update: async (req) => {
    const [{ updateAutomation }, { automationToEarlier }] = await Promise.all([loadAutomationsUpdateAutomation(), represent()]);
    return ok(automationToEarlier(await updateAutomation(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteAutomation } = await loadAutomationsDeleteAutomation();
    await deleteAutomation(req.principal, req.params.id);
    return noContent();
  },
  run: async (req) => {
    const [{ runAutomation }, { logToEarlier }] = await Promise.all([loadAutomationsRunAutomation(), loadLogsRepresent()]);
    return ok(logToEarlier(await runAutomation(req.principal, req.params.id)));
  },
});
