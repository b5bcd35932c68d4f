import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute } from '../../infra/local/api-gateway';
import { ROUTES } from '../../lib/api/route-table';
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
