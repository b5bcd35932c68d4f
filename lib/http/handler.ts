// Builds the Lambda handler of one resource function: a middy chain around a small router that
// dispatches on the API Gateway route key ("GET /api/v4/alerts/{id}"). The same route table feeds
// API Gateway and the local server, so every route key reaching here has a handler.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { authenticate } from '../auth/authenticate';
import { logger } from '../log';
import { HttpError, NotFound } from './errors';
import { interfaceOf, toApiRequest, type ApiRequest, type ApiResponse } from './request';

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

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'retry-after',
};

export function jsonResult(status: number, body: unknown, headers: Record<string, string> = {}): Result {
  if (status === 204 || body === undefined) {
    return { statusCode: status, headers: { ...CORS_HEADERS, ...headers }, body: '' };
  }
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

/** The contract's error body (§4): `{errors:[{message}]}`, plus `code` under /api/v4. Validation
 * errors are 422 on v4 and 400 on the earlier interface. Unknown errors never leak detail. */
export function errorResult(error: unknown, path: string): Result {
  const iface = interfaceOf(path);
  if (error instanceof HttpError) {
    const status = error.status === 422 && iface === 'earlier' ? 400 : error.status;
    const body: Record<string, unknown> = { errors: error.messages.map((message) => ({ message })) };
    if (iface === 'v4') body.code = status;
    return jsonResult(status, body, error.headers);
  }
  logger.error('unhandled error', { error: error as Error, path });
  const body: Record<string, unknown> = { errors: [{ message: 'Internal server error' }] };
  if (iface === 'v4') body.code = 500;
  return jsonResult(500, body);
}

function errorMapper(): MiddlewareObj<Event, Result> {
  return {
    onError: async (request) => {
      request.response = errorResult(request.error, request.event.rawPath ?? '/');
    },
  };
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
    .use(errorMapper())
    .handler(async (event) => {
      const route = table.get(event.routeKey);
      if (!route) throw new NotFound(`No route for ${event.requestContext?.http?.method} ${event.rawPath}`);
      const request = toApiRequest(event);
      if (!route.public) request.principal = await authenticate(request.headers);
      const response = await route.handler(request);
      return jsonResult(response.status, response.body, response.headers);
    });
}
