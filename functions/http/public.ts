// Entry point: health, login, signup and the OpenAPI document. Flow: event → lib/accounts use case
// (or lib/openapi) → JSON response.
import { ROUTES, routesOf } from '../../infra/routes';
import { login, signup } from '../../lib/accounts/login';
import { config } from '../../lib/config';
import { NotFound } from '../../lib/http/errors';
import { httpHandler } from '../../lib/http/handler';
import { created, ok } from '../../lib/http/responses';
import { openApiDocument } from '../../lib/openapi/document';

export const handler = httpHandler(routesOf('public'), {
  health: async () => ok({ status: 'ok' }),
  openapi: async () => ok(openApiDocument(ROUTES)),
  login: async (req) => ok(await login(req.body())),
  signup: async (req) => {
    if (!config().SIGNUP_ENABLED) throw new NotFound('Signup is not enabled');
    return created(await signup(req.body()));
  },
});
