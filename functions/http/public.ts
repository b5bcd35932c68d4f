// Entry point: health, login, signup, password reset and the OpenAPI document. Flow: event →
// lib/accounts use case (or lib/openapi) → JSON response.
// Each route loads its use case with its first request (a chunk of its own in the deployed bundle):
// a cold start that answers a health check does not load signup's or the SQS client's code, and
// one that answers a login loads neither (issue 21).
import { QUEUES } from '../../lib/queues/definitions';
import { publicRoutes } from '../../lib/api/public-routes';
import { httpHandler } from '../../lib/api/handler';
import { accepted, created, noContent, ok } from '../../lib/http/replies';

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
    const [{ queueDepths }, { backlog }] = await Promise.all([import('../../lib/queues/depths'), import('../../lib/monitoring/backlog')]);
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
    const [{ ROUTES }, { openApiDocument }] = await Promise.all([
      import('../../lib/api/route-table'),
      import('../../lib/openapi/document'),
    ]);
    return ok(openApiDocument(ROUTES));
  },
  login: async (req) => {
    const { login } = await import('../../lib/accounts/login');
    return ok(await login(req.body()));
  },
  // The body is read only once signup is known to be enabled: a disabled route does not exist.
  signup: async (req) => {
    const { signup } = await import('../../lib/accounts/signup');
    return created(await signup(() => req.body()));
  },
  requestPasswordReset: async (req) => {
    const { requestPasswordReset } = await import('../../lib/accounts/request-password-reset');
    return accepted(await requestPasswordReset(req.body(), { sourceIp: req.sourceIp, headers: req.headers }));
  },
  resetPassword: async (req) => {
    const { resetPassword } = await import('../../lib/accounts/reset-password');
    await resetPassword(req.params.token, req.body());
    return noContent();
  },
});
