// Entry point: health, login, signup, password reset and the OpenAPI document. Flow: event →
// lib/accounts use case (or lib/openapi) → JSON response.
import { ROUTES, routesOf } from '../../infra/routes';
import { login } from '../../lib/accounts/login';
import { requestPasswordReset } from '../../lib/accounts/request-password-reset';
import { resetPassword } from '../../lib/accounts/reset-password';
import { signup } from '../../lib/accounts/signup';
import { httpHandler } from '../../lib/api/handler';
import { accepted, created, noContent, ok } from '../../lib/http/responses';
import { openApiDocument } from '../../lib/openapi/document';

export const handler = httpHandler(routesOf('public'), {
  health: async () => ok({ status: 'ok' }),
  openapi: async () => ok(openApiDocument(ROUTES)),
  login: async (req) => ok(await login(req.body())),
  // The body is read only once signup is known to be enabled: a disabled route does not exist.
  signup: async (req) => created(await signup(() => req.body())),
  requestPasswordReset: async (req) => accepted(await requestPasswordReset(req.body(), { sourceIp: req.sourceIp, headers: req.headers })),
  resetPassword: async (req) => {
    await resetPassword(req.params.token, req.body());
    return noContent();
  },
});
