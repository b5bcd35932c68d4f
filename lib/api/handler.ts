// Builds the Lambda handler of one resource function from its routes' declaration (lib/<area>/routes.ts)
// and one handler per declared route: a middy chain around a small router that dispatches on the API
// Gateway route key ("GET /api/v4/alerts/{id}", or "ANY /api/v4/alerts/{id}" and the request's method
// where the function's methods of a path share one route: GATEWAY_ROUTES), authenticates the caller of every route that is not
// public, and maps errors to the contract's body. The handler map is typed from the declaration, so
// a missing, unknown or ill-answering handler does not compile; the same declarations feed API
// Gateway and the local server (lib/api/route-table.ts), so every route key reaching here has a handler.
// Every authenticated request passes the request limits of its credential and account, and the
// `public` function's routes (sign-in, signup, password reset) those of their source address
// (lib/auth/request-limits.ts); their RateLimit-* fields go out with whatever the route answers.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { actingAs, type AuditActor } from '../audit-actor';
import { limitCaller, limitSource, type RateLimitFields } from '../auth/request-limits';
import { classicZod } from '../http/classic-zod';
import { answersThatFit } from '../http/compression';
import { CORS } from '../http/cors';
import { Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { toApiRequest, type ApiRequest, type ApiResponse } from '../http/request';
import { errorResult, jsonResult, textResult } from '../http/gateway-results';
import type { HandlersOf, RouteContract } from '../http/route-contract';
import { flushInvocation } from '../metrics';
import { authenticate, authenticateScim, carriesCredentials } from './authenticate';

type RouteHandler = (request: ApiRequest) => ApiResponse | Promise<ApiResponse>;

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

function errorMapper(): MiddlewareObj<Event, Result> {
  return {
    onError: (request) => {
      request.response = errorResult(request.error, request.event.rawPath ?? '/');
    },
  };
}

/** Writes what the request recorded (lib/metrics.ts) and the log lines waiting for the Logger (lib/log.ts) once it is answered, or failed. */
function invocationFlush(): MiddlewareObj<Event, Result> {
  return { after: () => flushInvocation(), onError: () => flushInvocation() };
}

/** The RateLimit-* fields of each request in flight, added to its answer, an error's too. */
function rateLimitFields(fields: WeakMap<Event, RateLimitFields>): MiddlewareObj<Event, Result> {
  const add = (request: { event: Event; response: Result | null | undefined }) => {
    const own = fields.get(request.event);
    if (own && request.response) request.response.headers = { ...request.response.headers, ...own };
  };
  return { after: add, onError: add };
}

/** Compresses every answer the client can take compressed, and refuses one that would not fit in a
 * Lambda response (lib/http/compression.ts). Used before the error mapping, so errors go through it too. */
function answerThatFits(): MiddlewareObj<Event, Result>[] {
  return answersThatFit({
    tooLarge: ({ bytes, limit, compressible }, event) =>
      errorResult(
        new Invalid(
          `the answer would be ${(bytes / 1e6).toFixed(1)} MB, more than the ${(limit / 1e6).toFixed(1)} MB a response may carry` +
            `${compressible ? ' even compressed' : ' (send Accept-Encoding: gzip or br to receive it compressed)'}: ` +
            'ask for a shorter window (start and end) or fewer objects (a smaller limit)',
        ),
        event.rawPath ?? '/',
      ),
  });
}

/** Who the audit trail names for a request's changes (lib/audit-actor.ts): its credential, or the system. */
function actorOf(principal: Principal | undefined, request: ApiRequest): AuditActor {
  const source = { ip: request.sourceIp || null, userAgent: request.headers['user-agent'] ?? null };
  if (!principal) return { type: 'system', id: null, ...source };
  if (principal.via === 'api_key' && principal.apiKeyId) return { type: 'api_key', id: principal.apiKeyId, ...source };
  if (principal.via === 'scim' && principal.scimTokenId) return { type: 'scim_token', id: principal.scimTokenId, ...source };
  return { type: 'account_user', id: principal.accountUserId, ...source };
}

/**
 * The handler of one function: `contract` declares its routes, `handlers` answers each of them by
 * its name in the declaration. A handler missing at run time (the types were bypassed) fails at cold start.
 */
export function httpHandler<Contract extends RouteContract>(contract: Contract, handlers: NoInfer<HandlersOf<Contract>>) {
  const table = new Map<string, { handler: RouteHandler; public: boolean; optional: boolean; scim: boolean }>();
  const limitFields = new WeakMap<Event, RateLimitFields>();
  // The sign-in family has no credential to count by: its source address stands in.
  const limitedBySource = contract.fn === 'public';
  for (const [op, route] of Object.entries(contract.routes)) {
    const handler = (handlers as unknown as Record<string, RouteHandler | undefined>)[op];
    if (!handler) throw new Error(`No handler ${op} for ${route.method} ${route.path}`);
    table.set(`${route.method} ${route.path}`, {
      handler,
      public: route.public ?? false,
      optional: route.credentials === 'optional',
      scim: route.credentials === 'scim',
    });
  }
  return (
    middy<Event, Result>()
      .use(invocationFlush())
      .use(answerThatFits())
      // After the error mapping in middy's reverse order: a 404 or 422 carries the fields too.
      .use(rateLimitFields(limitFields))
      .use(errorMapper())
      .handler(async (event) => {
        const method = event.requestContext?.http?.method;
        const anyPath = event.routeKey.startsWith('ANY ') ? event.routeKey.slice(4) : undefined;
        // Reported of API Gateway: an ANY route can receive the preflight its CORS configuration
        // should answer; it gets that configuration's answer here.
        if (anyPath !== undefined && method === 'OPTIONS' && event.headers?.['access-control-request-method']) {
          return { statusCode: 204, headers: { ...CORS.preflightHeaders } };
        }
        const route = table.get(anyPath === undefined ? event.routeKey : `${method} ${anyPath}`);
        if (!route) throw new NotFound(`No route for ${method} ${event.rawPath}`);
        // Where zod's classic API loads on a request's arrival (lib/http/classic-zod.ts), it compiles
        // while the caller is authenticated; the route runs once it is there.
        const validation = classicZod.load();
        validation?.catch(() => {});
        const request = toApiRequest(event);
        if (!route.public && !(route.optional && !carriesCredentials(request.headers))) {
          request.principal = await (route.scim ? authenticateScim : authenticate)(request.headers);
          limitFields.set(event, await limitCaller(request.principal));
        } else if (limitedBySource) {
          limitFields.set(event, await limitSource(request.sourceIp));
        }
        if (validation) await validation;
        const response = await actingAs(actorOf(request.principal as Principal | undefined, request), () => route.handler(request));
        if (response.text) return textResult(response.status, response.text.contentType, response.text.body, response.headers);
        return jsonResult(response.status, response.body, response.headers);
      })
  );
}
