import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { FUNCTIONS } from '../../infra/functions';
import { compileRoutes, matchGatewayRoute, matchRoute, startApi } from '../../infra/local/api-gateway';
import { GATEWAY_ROUTES, ROUTES, gatewayRoutes, routeKey, type Route } from '../../lib/api/route-table';
import { ApiClient } from '../support/api-client';
import { startService, type TestService } from '../support/runtime';

describe('route matching', () => {
  const compiled = compileRoutes(ROUTES);

  it('prefers literal segments over parameters, as API Gateway does', () => {
    expect(matchRoute(compiled, 'GET', '/api/v4/events/time_zones')?.route.op).toBe('timeZones');
    expect(matchRoute(compiled, 'GET', '/api/v4/events/evt_123')?.route.op).toBe('get');
    expect(matchRoute(compiled, 'GET', '/api/v4/events/evt_123')?.params).toEqual({ id: 'evt_123' });
  });

  it('tells the inbound webhook from the earlier interface’s integration routes', () => {
    expect(matchRoute(compiled, 'POST', '/integration/int_1')?.route.fn).toBe('inbound');
    expect(matchRoute(compiled, 'PUT', '/integration/int_1')?.route.fn).toBe('integrations');
    expect(matchRoute(compiled, 'POST', '/integration')?.route.fn).toBe('integrations');
  });

  it('matches nothing for an unknown path or method', () => {
    expect(matchRoute(compiled, 'PATCH', '/api/v4/alerts/1')).toBeNull();
    expect(matchRoute(compiled, 'GET', '/api/v5/alerts')).toBeNull();
  });

  it('has one operation per method and path', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('API Gateway routes', () => {
  const declared = (fn: string, method: string, path: string) => ({ fn, method, path, op: `${method} ${path}` }) as unknown as Route;

  it('merges the methods one function serves on one path into one ANY route, and only those', () => {
    const routes = [
      declared('things', 'GET', '/things/{id}'),
      declared('things', 'PUT', '/things/{id}'),
      declared('things', 'DELETE', '/things/{id}'),
      // another function's method on the same path keeps its route: ANY takes the methods a path does not name
      declared('inbound', 'POST', '/things/{id}'),
      declared('things', 'GET', '/things'),
    ];
    expect(gatewayRoutes(routes).map((route) => `${routeKey(route)} → ${route.fn} (${route.routes.length})`)).toEqual([
      'ANY /things/{id} → things (3)',
      'POST /things/{id} → inbound (1)',
      'GET /things → things (1)',
    ]);
  });

  it('keeps apart the methods of a path another path matches with a parameter where it has a literal', () => {
    const routes = [
      declared('things', 'GET', '/things/{id}'),
      declared('things', 'PUT', '/things/{id}'),
      declared('things', 'GET', '/things/count'),
      declared('things', 'POST', '/things/count'),
    ];
    // API Gateway documents no choice between ANY /things/count and PUT /things/{id} for PUT /things/count.
    expect(gatewayRoutes(routes).map(routeKey)).toEqual(['ANY /things/{id}', 'GET /things/count', 'POST /things/count']);
  });

  it('has one route per function and path of the route table, each declared operation reachable by its method', () => {
    const pairs = new Set(ROUTES.map((route) => `${route.fn} ${route.path}`));
    expect(GATEWAY_ROUTES).toHaveLength(pairs.size);
    expect(GATEWAY_ROUTES.length).toBeLessThan(ROUTES.length * 0.7);
    const compiled = compileRoutes(ROUTES);
    const merged = compileRoutes(GATEWAY_ROUTES.filter((route) => route.method === 'ANY'));
    for (const route of ROUTES) {
      const concrete = route.path.replace(/\{[^}]+\}/g, 'x1');
      const match = matchGatewayRoute(compiled, merged, route.method, concrete);
      const literal = matchRoute(compiled, route.method, concrete)?.route;
      // a concrete path can be a literal route of its own (`/api/v4/events/time_zones`): that one answers
      expect(match?.fn, `${route.method} ${route.path}`).toBe(literal?.fn);
      expect([`${route.method} ${literal?.path}`, `ANY ${literal?.path}`]).toContain(match?.key);
    }
  });
});

describe('the local API Gateway', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers unknown routes with the contract’s 404 body', async () => {
    const v4 = await service.admin.get('/api/v4/nothing-here');
    expect(v4.status).toBe(404);
    expect(v4.body).toEqual({ errors: [{ message: expect.any(String) }], code: 404 });
    const earlier = await service.admin.request('PATCH', '/alert/x');
    expect(earlier.status).toBe(404);
    expect(earlier.body).toEqual({ errors: [{ message: expect.any(String) }] });
  });

  it('answers CORS preflights and sets the allow-origin header on responses', async () => {
    const preflight = await service.anonymous.request('OPTIONS', '/api/v4/account_users', undefined, {
      origin: 'https://app.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect((await service.admin.get('/api/v4/account_users')).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('sends the deployed API’s route keys, and a method no operation declares on a merged path gets the unknown route’s 404', async () => {
    const keys: string[] = [];
    type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
    const api = await startApi({
      host: '127.0.0.1',
      port: 0,
      loadHandler: async (fn) => {
        const { handler } = (await import(`../../${FUNCTIONS[fn].entry}`)) as { handler: Handler };
        return (event, context) => {
          keys.push(`${event.routeKey} → ${fn}`);
          return handler(event, context);
        };
      },
    });
    try {
      const admin = new ApiClient(api.url, service.admin.headers);
      const listed = await admin.get('/api/v4/teams');
      expect(listed.status).toBe(200);
      const me = (await admin.get('/api/v4/account_users')).body.data[0].id as string;
      const created = await admin.post('/api/v4/teams', {
        name: 'Gateway keys',
        member_account_user_ids: [me],
        admin_account_user_ids: [me],
      });
      expect(created.status, created.text).toBe(201);
      const patched = await admin.request('PATCH', '/api/v4/teams');
      expect(patched.status).toBe(404);
      expect(patched.body).toEqual({ errors: [{ message: 'No route for PATCH /api/v4/teams' }], code: 404 });
      const unknown = await admin.request('PATCH', '/api/v4/no-such-thing');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ errors: [{ message: 'No route for PATCH /api/v4/no-such-thing' }], code: 404 });
      // the earlier interface's shape too, as the catch-all answers it there
      const earlier = await admin.request('PATCH', '/alert/x');
      expect(earlier.body).toEqual({ errors: [{ message: 'No route for PATCH /alert/x' }] });
      // the inbound webhook keeps its POST beside the integrations' ANY on the same path
      const beat = await admin.request('POST', '/integration/int_nothing');
      expect(beat.status).toBe(404);
      expect(keys).toEqual([
        'ANY /api/v4/teams → teams',
        'ANY /api/v4/account_users → accountUsers',
        'ANY /api/v4/teams → teams',
        'ANY /api/v4/teams → teams',
        '$default → notFound',
        'ANY /alert/{id} → alerts',
        'POST /integration/{id} → inbound',
      ]);
    } finally {
      await api.close();
    }
  });

  it('answers a preflight that reaches a function through an ANY route as the CORS configuration does', async () => {
    const preflight = await service.anonymous.request('OPTIONS', '/api/v4/teams', undefined, {
      origin: 'https://app.example.com',
      'access-control-request-method': 'DELETE',
    });
    const { handler } = (await import('../../functions/http/teams')) as {
      handler: (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
    };
    const event = {
      version: '2.0',
      routeKey: 'ANY /api/v4/teams',
      rawPath: '/api/v4/teams',
      rawQueryString: '',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'DELETE' },
      requestContext: { http: { method: 'OPTIONS', path: '/api/v4/teams', sourceIp: '127.0.0.1' }, routeKey: 'ANY /api/v4/teams' },
      isBase64Encoded: false,
    };
    const answered = await handler(event, {});
    expect(answered.statusCode).toBe(preflight.status);
    expect(answered.body).toBeUndefined();
    for (const name of [
      'access-control-allow-origin',
      'access-control-allow-methods',
      'access-control-allow-headers',
      'access-control-max-age',
    ]) {
      expect(answered.headers?.[name], name).toBe(preflight.headers.get(name));
    }
    // an OPTIONS that is no preflight is a method no operation declares
    const plain = await handler({ ...event, headers: {} }, {});
    expect(plain.statusCode).toBe(404);
  });

  it('hands path parameters to the function decoded once, as an HTTP API does', async () => {
    const seen: unknown[] = [];
    type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
    const api = await startApi({
      host: '127.0.0.1',
      port: 0,
      loadHandler: async (fn) => {
        const { handler } = (await import(`../../${FUNCTIONS[fn].entry}`)) as { handler: Handler };
        return (event, context) => {
          seen.push(event.pathParameters);
          return handler(event, context);
        };
      },
    });
    try {
      // A literal `%41` (sent as %2541) stays `%41`: decoding twice would make it `A`, another id.
      const res = await new ApiClient(api.url, service.admin.headers).get('/api/v4/teams/a%2541%20b');
      expect(res.status).toBe(404);
      expect(seen).toEqual([{ id: 'a%41 b' }]);
    } finally {
      await api.close();
    }
  });

  it('refuses a body over 256 KiB with 413 and accepts one just under', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(256 * 1024) });
    const res = await service.admin.post('/api/v4/api_keys', big, { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(413);
    const fits = JSON.stringify({ name: 'y'.repeat(200 * 1024) });
    expect((await service.admin.post('/api/v4/api_keys', fits, { 'content-type': 'application/json' })).status).toBe(201);
  });

  it('treats an empty POST body as no body whatever its content type', async () => {
    const res = await service.admin.post('/api/v4/api_keys', '', { 'content-type': 'application/json' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toBe("name can't be blank");
  });

  it('ignores a malformed body on GET', async () => {
    // fetch refuses a GET with a body, so this one goes through node:http.
    const url = new URL('/api/v4/account_users', service.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'GET',
          headers: { authorization: `Bearer ${service.adminKey}`, 'content-type': 'application/json', 'content-length': '9' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{not json');
    });
    expect(status).toBe(200);
  });

  it('ignores a trailing slash', async () => {
    expect((await service.admin.get('/api/v4/account_users/')).status).toBe(200);
  });

  it('never returns a stack trace', async () => {
    const res = await service.admin.post('/api/v4/api_keys', '{"name": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/at .*\.ts:\d+|Error:/);
  });
});
