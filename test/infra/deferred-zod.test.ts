// The HTTP functions that load zod's classic API on a request's arrival (infra/bundling.ts,
// deferClassicZod), and routes loaded with their first request, as they are deployed: bundled with
// the stack's options and run by plain Node, one fresh process a function (a cold start), against
// the local runtime's table. Under the test runner
// every module imports zod itself; only the bundle stands infra/bundled/zod-deferred.ts in for it, so
// only a bundle shows that a request's schemas find the API loaded (a missing wait is a TypeError,
// 500), that a GET waits for it too, and that the OpenAPI document, which mixes the classic API's
// schemas with zod/mini's built apart, is still whole.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFunction, deferClassicZod } from '../../infra/bundling';
import { FUNCTIONS } from '../../infra/functions';
import { compileRoutes, matchRoute } from '../../infra/local/api-gateway';
import { gatewayRouteKey, ROUTES } from '../../lib/api/route-table';
import { ADMIN_EMAIL, ADMIN_PASSWORD, useServiceAccount } from '../support/runtime';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const the = useServiceAccount();
const folder = mkdtempSync(path.join(tmpdir(), 'deferred-zod-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Fn = 'public' | 'apiKeys' | 'teams';

interface Call {
  route: string;
  path: string;
  body?: unknown;
  key?: boolean;
}

/** An API Gateway (HTTP API) event of the declared route `op` of `fn`, as the local gateway makes them. */
function eventOf(fn: Fn, call: Call, adminKey: string) {
  const [method, op] = call.route.split(' ');
  const route = ROUTES.find((each) => each.fn === fn && each.op === op && each.method === method);
  if (!route) throw new Error(`no route ${call.route} of ${fn}`);
  const routeKey = gatewayRouteKey(route);
  // The path's parameters, as the local gateway matches them (API Gateway's `{name}` segments).
  const pathParameters = matchRoute(compileRoutes([route]), method, call.path)?.params ?? {};
  const headers: Record<string, string> = { host: 'localhost', 'content-type': 'application/json' };
  if (call.key) headers.authorization = `Bearer ${adminKey}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: call.path,
    rawQueryString: '',
    headers,
    requestContext: {
      http: { method, path: call.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: `req-${op}`,
      routeKey,
      stage: '$default',
      timeEpoch: Date.now(),
    },
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    isBase64Encoded: false,
  };
}

/** Builds `fn` as the stack does, imports it in a new Node process, then answers `calls` in turn. */
async function coldAnswers(fn: Fn, calls: Call[]) {
  const entry = FUNCTIONS[fn].entry;
  const outdir = path.join(folder, fn);
  await buildFunction(root, entry, outdir, { logLevel: 'silent' });
  const events = calls.map((call) => eventOf(fn, call, the.service.adminKey));
  const chunks = readdirSync(path.join(outdir, 'chunks')).filter((file) => file.startsWith('zod-classic-') && file.endsWith('.mjs'));
  expect(chunks).toHaveLength(1);
  // The API's chunk is made to load slower than any request's authentication (a loader hook holds
  // it back 400 ms), so a route that ran before it was loaded would fail, not win a race.
  const slowChunk = `export async function load(url, context, next) { if (url.includes('/chunks/zod-classic-')) await new Promise((done) => setTimeout(done, 400)); return next(url, context); }`;
  // zod's post-processor hook sees every schema any copy of zod builds (test/infra/bundles.test.ts).
  const script = [
    "import { register } from 'node:module';",
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(slowChunk)}`)});`,
    'let built = 0;',
    'globalThis.__zod_globalConfig = { postProcessor: () => { built++; } };',
    `const { handler } = await import(${JSON.stringify(pathToFileURL(path.join(outdir, 'index.mjs')).href)});`,
    'const atImport = built;',
    `const events = ${JSON.stringify(events)};`,
    'const answers = [];',
    'for (const event of events) {',
    "  const context = { functionName: 'fn', awsRequestId: event.requestContext.requestId, getRemainingTimeInMillis: () => 30000 };",
    '  const result = await handler(event, context);',
    '  answers.push({ status: result.statusCode, body: result.body, built });',
    '}',
    'console.log(JSON.stringify({ atImport, answers }));',
  ].join('\n');
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  return JSON.parse(printed.toString().trim().split('\n').pop()!) as {
    atImport: number;
    answers: { status: number; body: string; built: number }[];
  };
}

describe("zod's classic API loaded on a request's arrival, in a deployed bundle", () => {
  it('is deferred in every HTTP function that validates with it, and nowhere else', () => {
    expect(deferClassicZod(FUNCTIONS.public.entry)).toBe(true);
    expect(deferClassicZod(FUNCTIONS.apiKeys.entry)).toBe(true);
    expect(deferClassicZod(FUNCTIONS.notFound.entry)).toBe(false);
    expect(deferClassicZod(FUNCTIONS.routingWorker.entry)).toBe(false);
  });

  it('answers a GET first, then validates request bodies with it (apiKeys)', async () => {
    const { atImport, answers } = await coldAnswers('apiKeys', [
      { route: 'GET list', path: '/api/v4/api_keys', key: true },
      { route: 'POST create', path: '/api/v4/api_keys', body: { name: '   ' }, key: true },
      { route: 'POST create', path: '/api/v4/api_keys', body: { name: 'deferred zod' }, key: true },
    ]);
    expect(atImport).toBe(0);
    const [list, invalid, created] = answers;
    expect(list.status).toBe(200);
    expect((JSON.parse(list.body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    // What the local runtime answers to the same body, under the test runner.
    const local = await the.admin.post('/api/v4/api_keys', { name: '   ' });
    expect(JSON.stringify(local.body)).toContain("name can't be blank");
    expect(invalid.status).toBe(local.status);
    expect(JSON.parse(invalid.body)).toEqual(local.body);
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toMatchObject({ name: 'deferred zod' });
    // The schemas were built by the requests that needed them, after the start.
    expect(invalid.built).toBeGreaterThan(0);
  });

  it('signs in, refuses a body naming the field, and serves the whole OpenAPI document (public)', async () => {
    const { atImport, answers } = await coldAnswers('public', [
      { route: 'POST login', path: '/public/login', body: { password: 'x' } },
      { route: 'POST login', path: '/public/login', body: { username: ADMIN_EMAIL, password: ADMIN_PASSWORD } },
      { route: 'GET openapi', path: '/api/v4/openapi.json' },
    ]);
    expect(atImport).toBe(0);
    const [invalid, login, openapi] = answers;
    const local = await the.service.anonymous.post('/public/login', { password: 'x' });
    expect(JSON.stringify(local.body)).toContain('username');
    expect(invalid.status).toBe(local.status);
    expect(JSON.parse(invalid.body)).toEqual(local.body);
    expect(login.status).toBe(200);
    expect(JSON.parse(login.body)).toHaveProperty('token');
    expect(openapi.status).toBe(200);
    const document = JSON.parse(openapi.body) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties?: object }> };
    };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/public/login', '/api/v4/api_keys', '/api/v4/alerts']));
    // A representation built with the classic API, and a response schema built with zod/mini.
    expect(document.components.schemas.ApiKeyV4?.properties).toHaveProperty('id');
    expect(Object.keys(document.components.schemas).length).toBeGreaterThan(100);
  });

  // The routes each function loads with their first request (functions/http/teams.ts) come from
  // chunks that reach back into the start (infra/bundling.ts, oneStartChunk): a write's address
  // guard (ipaddr.js, a CommonJS package) and the current on-call's time zones, as deployed.
  it("loads a team's writes and its current on-call with their first request (teams)", async () => {
    const me = (await the.admin.get('/api/v4/account_users?limit=1')).body.data[0].id as string;
    const team = { name: 'Bundled team', member_account_user_ids: [me], admin_account_user_ids: [me] };
    const privateHook = { ...team, chat_webhooks: [{ type: 'slack', url: 'https://10.0.0.1/hook' }] };
    const existing = (await the.admin.post('/api/v4/teams', { ...team, name: 'Bundled team to change' })).body.id as string;
    const { atImport, answers } = await coldAnswers('teams', [
      { route: 'GET list', path: '/api/v4/teams', key: true },
      { route: 'POST create', path: '/api/v4/teams', body: privateHook, key: true },
      { route: 'POST create', path: '/api/v4/teams', body: team, key: true },
      { route: 'PUT update', path: `/api/v4/teams/${existing}`, body: { name: 'Bundled team changed' }, key: true },
      { route: 'GET currentOncall', path: `/api/v4/teams/${existing}/current_oncall`, key: true },
      { route: 'DELETE delete', path: `/api/v4/teams/${existing}`, key: true },
    ]);
    expect(atImport).toBe(0);
    const [list, refused, made, changed, oncall, deleted] = answers;
    expect(list.status).toBe(200);
    const local = await the.admin.post('/api/v4/teams', privateHook);
    expect(local.status).toBe(422);
    expect(refused.status).toBe(local.status);
    expect(JSON.parse(refused.body)).toEqual(local.body);
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body)).toMatchObject({ name: 'Bundled team' });
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.body)).toMatchObject({ id: existing, name: 'Bundled team changed' });
    expect(oncall.status).toBe(200);
    expect(deleted.status).toBe(204);
    expect((await the.admin.get(`/api/v4/teams/${existing}`)).status).toBe(404);
  });
});
