// Builds the Lambda handler of one resource function from its routes' declaration (lib/<area>/routes.ts)
// and one handler per declared route: a middy chain around a small router that dispatches on the API
// Gateway route key ("GET /api/v4/alerts/{id}"), authenticates the caller of every route that is not
// public, and maps errors to the contract's body. The handler map is typed from the declaration, so
// a missing, unknown or ill-answering handler does not compile; the same declarations feed API
// Gateway and the local server (lib/api/route-table.ts), so every route key reaching here has a handler.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { answersThatFit } from '../http/compression';
import { Invalid, NotFound } from '../http/errors';
import { toApiRequest, type ApiRequest, type ApiResponse } from '../http/request';
import { errorResult, jsonResult, textResult } from '../http/gateway-results';
import type { HandlersOf, RouteContract } from '../http/route-contract';
import { authenticate, carriesCredentials } from './authenticate';

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

/**
 * The handler of one function: `contract` declares its routes, `handlers` answers each of them by
 * its name in the declaration. A handler missing at run time (the types were bypassed) fails at cold start.
 */
export function httpHandler<Contract extends RouteContract>(contract: Contract, handlers: NoInfer<HandlersOf<Contract>>) {
  const table = new Map<string, { handler: RouteHandler; public: boolean; optional: boolean }>();
  for (const [op, route] of Object.entries(contract.routes)) {
    const handler = (handlers as unknown as Record<string, RouteHandler | undefined>)[op];
    if (!handler) throw new Error(`No handler ${op} for ${route.method} ${route.path}`);
    table.set(`${route.method} ${route.path}`, { handler, public: route.public ?? false, optional: route.credentials === 'optional' });
  }
  return middy<Event, Result>()
    .use(answerThatFits())
    .use(errorMapper())
    .handler(async (event) => {
      const route = table.get(event.routeKey);
      if (!route) throw new NotFound(`No route for ${event.requestContext?.http?.method} ${event.rawPath}`);
      const request = toApiRequest(event);
      if (!route.public && !(route.optional && !carriesCredentials(request.headers)))
        request.principal = await authenticate(request.headers);
      const response = await route.handler(request);
      if (response.text) return textResult(response.status, response.text.contentType, response.text.body, response.headers);
      return jsonResult(response.status, response.body, response.headers);
    });
}
