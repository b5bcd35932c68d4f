// Builds the Lambda handler of one resource function: a middy chain around a small router that
// dispatches on the API Gateway route key ("GET /api/v4/alerts/{id}"), authenticates the caller of
// every route that is not public, and maps errors to the contract's body. The same route table feeds
// API Gateway and the local server, so every route key reaching here has a handler.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { answersThatFit } from '../http/compression';
import { Invalid, NotFound } from '../http/errors';
import { toApiRequest, type ApiRequest, type ApiResponse } from '../http/request';
import { errorResult, jsonResult, textResult } from '../http/gateway-results';
import { authenticate } from './authenticate';

export type RouteHandler = (request: ApiRequest) => Promise<ApiResponse>;

/** A route as the route table (infra/routes.ts) describes it. */
export interface RouteEntry {
  method: string;
  path: string;
  op: string;
  /** No credentials needed (login, signup, health, inbound webhooks). */
  public?: boolean;
}

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

function errorMapper(): MiddlewareObj<Event, Result> {
  return {
    onError: async (request) => {
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
 * The handler of one function: `routes` are its entries of the route table, `operations` implement
 * them by name. A missing operation is a programming error and fails at cold start.
 */
export function httpHandler(routes: RouteEntry[], operations: Record<string, RouteHandler>) {
  const table = new Map<string, { handler: RouteHandler; public: boolean }>();
  for (const route of routes) {
    const handler = operations[route.op];
    if (!handler) throw new Error(`No operation ${route.op} for ${route.method} ${route.path}`);
    table.set(`${route.method} ${route.path}`, { handler, public: route.public ?? false });
  }
  return middy<Event, Result>()
    .use(answerThatFits())
    .use(errorMapper())
    .handler(async (event) => {
      const route = table.get(event.routeKey);
      if (!route) throw new NotFound(`No route for ${event.requestContext?.http?.method} ${event.rawPath}`);
      const request = toApiRequest(event);
      if (!route.public) request.principal = await authenticate(request.headers);
      const response = await route.handler(request);
      if (response.text) return textResult(response.status, response.text.contentType, response.text.body, response.headers);
      return jsonResult(response.status, response.body, response.headers);
    });
}
