// Entry point: health, login, signup, password reset and the OpenAPI document. Flow: event →
// lib/accounts use case (or lib/openapi) → JSON response.
// Each route loads its use case with its first request (a chunk of its own in the deployed bundle):
// a cold start that answers a health check does not load signup's or the SQS client's code, and
// one that answers a login loads neither (issue 21).
import { QUEUES } from '../../lib/queues/definitions';
import { publicRoutes } from '../../lib/api/public-routes';
import { httpHandler } from '../../lib/api/handler';
import { accepted, created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

const loadQueuesDepths = /* @__PURE__ */ loadOnce(() => import('../../lib/queues/depths'));
const loadMonitoringBacklog = /* @__PURE__ */ loadOnce(() => import('../../lib/monitoring/backlog'));
const loadApiRouteTable = /* @__PURE__ */ loadOnce(() => import('../../lib/api/route-table'));
const loadOpenapiDocument = /* @__PURE__ */ loadOnce(() => import('../../lib/openapi/document'));
const loadAccountsLogin = /* @__PURE__ */ loadOnce(() => import('../../lib/accounts/login'));
const loadAccountsSignup = /* @__PURE__ */ loadOnce(() => import('../../lib/accounts/signup'));
const loadAccountsRequestPasswordReset = /* @__PURE__ */ loadOnce(() => import('../../lib/accounts/request-password-reset'));
const loadAccountsResetPassword = /* @__PURE__ */ loadOnce(() => import('../../lib/accounts/reset-password'));

/** Every queue of the catalogue and its dead-letter queue, by the URLs the environment carries (read
 * per call: the local runtime sets them when it starts, after this module may have loaded). */
const watched = () =>
  Object.values(QUEUES).map((queue) => ({
    name: queue.name,
    url: process.env[queue.urlVariable],
    dlqUrl: process.env[queue.dlqUrlVariable],
  }));

export const handler = httpHandler(publicRoutes, {
  // `ok` while every queue and the table can be read; the depths and what waits longest beside them.
  health: async () => {
    const [{ queueDepths }, { backlog }] = await Promise.all([loadQueuesDepths(), loadMonitoringBacklog()]);
    const [queues, waiting] = await Promise.all([
      queueDepths(watched()),
      backlog().catch((error: unknown) => {
        const unreadable = { error: (error as Error).name || 'unreadable' };
        return { oldest_pending_webhook: unreadable, oldest_overdue_step: unreadable };
      }),
    ]);
    const degraded = Object.values(queues).some((q) => 'error' in q) || 'error' in (waiting.oldest_pending_webhook ?? {});
    return ok({ status: degraded ? 'degraded' : 'ok', queues, ...waiting });
  },
  // The document is built from every area's route declarations and schemas: loaded by the first request for it, not at each cold start.
  openapi: async () => {
    const [{ ROUTES }, { openApiDocument }] = await Promise.all([loadApiRouteTable(), loadOpenapiDocument()]);
    return ok(openApiDocument(ROUTES));
  },
  login: async (req) => {
    const { login } = await loadAccountsLogin();
    return ok(await login(req.body()));
  },
  // The body is read only once signup is known to be enabled: a disabled route does not exist.
  signup: async (req) => {
    const { signup } = await loadAccountsSignup();
    return created(await signup(() => req.body()));
  },
  requestPasswordReset: async (req) => {
    const { requestPasswordReset } = await loadAccountsRequestPasswordReset();
    return accepted(await requestPasswordReset(req.body(), { sourceIp: req.sourceIp, headers: req.headers }));
  },
  resetPassword: async (req) => {
    const { resetPassword } = await loadAccountsResetPassword();
    await resetPassword(req.params.token, req.body());
    return noContent();
  },
});
