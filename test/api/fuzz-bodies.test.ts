// Property-based fuzzing of every create and update endpoint of both interfaces, the public routes and
// the inbound webhook: every POST and PUT of the route table (lib/api/route-table.ts), so a new route is
// fuzzed the day it is added. Bodies are built from hostile pieces (hostile-bodies.ts) around the
// route's documented request schema, written as JSON, as bracket-nested forms, with bytes that are not
// UTF-8 and under wrong content types. Through the real local server, for each request:
//   - never a 5xx; answering costs under a second of CPU, and comes within the HTTP function's 10 s;
//   - every 4xx carries the contract's error body ({errors:[{message}]}, plus `code` under /api/v4);
//   - a 4xx changed nothing: the lists of the touched resource (totals and a hash of the page) and
//     the object itself read the same before and after;
//   - nothing reached a prototype of the process that serves them ({}.polluted stays undefined).
// Seeded and bounded (FUZZ_RUNS per route, FUZZ_SEED): the same cases every run unless told otherwise.
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '../../lib/api/route-table';
import { openApiDocument } from '../../lib/openapi/document';
import { DocumentChecker } from '../openapi/support';
import { createMember } from '../support/api-client';
import { drainQueue } from '../support/queues';
import { withCpuTime } from '../support/cpu-time';
import { useService, type TestService } from '../support/runtime';
import { bodyFor, type SchemaContext, type WrittenBody } from './fuzz/hostile-bodies';

const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_901);
/** What answering one request may cost the process (all its threads, the emulators' too) in CPU time:
 * a bound on the work a hostile body causes that a loaded machine's waiting does not inflate. */
const CPU_PER_ANSWER_MS = 1_000;
/** Deployed, an HTTP function is stopped after 10 s (infra/functions.ts) and the client gets a 5xx. */
const HTTP_FUNCTION_TIMEOUT_MS = 10_000;

const WRITES = ROUTES.filter((route) => route.method === 'POST' || route.method === 'PUT');
const GETS = new Set(ROUTES.filter((route) => route.method === 'GET').map((route) => route.path));

let service: TestService;
let context: SchemaContext;
let document: Record<string, any>;
let checker: DocumentChecker;
let inbound: { id: string; prefix_id: string };
const prototypeKeys = () => [Object.prototype, Array.prototype, Function.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join());
const pristine = prototypeKeys();

useService(
  async (started) => {
    service = started;
    const admin = service.admin;
    const must = async (res: Promise<{ status: number; body: any; text: string }>, what: string) => {
      const done = await res;
      if (done.status >= 300) throw new Error(`fixture ${what}: ${done.status} ${done.text}`);
      return done.body;
    };
    const adminUser = (await must(admin.get('/api/v4/account_users'), 'account users')).data[0];
    const member = (await createMember(admin, { name: 'Fuzz Member' })).accountUser;
    const team = await must(
      admin.post('/api/v4/teams', {
        name: 'Fuzz',
        member_account_user_ids: [adminUser.id, member.id],
        admin_account_user_ids: [adminUser.id],
      }),
      'team',
    );
    const event = await must(
      admin.post('/api/v4/events', {
        start_datetime: '2026-05-04T09:00:00',
        end_datetime: '2026-05-04T17:00:00',
        time_zone: 'Berlin',
        layer: 1,
        repeat: true,
        frequency: 1,
        frequency_unit: 'daily',
        account_user_ids: [member.id],
        schedule_ids: [team.schedule_id],
      }),
      'event',
    );
    const alert = await must(admin.post('/api/v4/alerts', { title: 'Fuzz', urgency: 'high', destination_team_ids: [team.id] }), 'alert');
    await must(admin.post(`/api/v4/alerts/${alert.id}/comments`, { text: 'fuzz' }), 'comment');
    // The inbound webhook's own integration, made before the others so it is never the newest of its
    // collection: no other route's fuzz can disable it or give it a token.
    inbound = await must(
      admin.post('/api/v4/integrations', { name: 'Fuzz inbound', urgency: 'high', integration_type_id: 'webhook', team_ids: [team.id] }),
      'inbound integration',
    );
    const integration = await must(
      admin.post('/api/v4/integrations', { name: 'Fuzz', urgency: 'high', integration_type_id: 'webhook', team_ids: [team.id] }),
      'integration',
    );
    const window = await must(
      admin.post('/api/v4/maintenance_windows', {
        name: 'Fuzz',
        start_datetime: '2026-07-01T22:00:00Z',
        end_datetime: '2026-07-02T02:00:00Z',
        time_zone: 'UTC',
        integration_ids: [integration.id],
      }),
      'maintenance window',
    );
    await must(admin.post('/log', { content: 'fuzz', owner_id: `alt_${alert.id}`, source_id: `usr_${adminUser.user_id}` }), 'log');
    const ulids = [
      adminUser.id,
      adminUser.user_id,
      member.id,
      team.id,
      team.schedule_id,
      team.escalation_policy_id,
      event.id,
      alert.id,
      integration.id,
      window.id,
    ];
    const prefixed = [
      `acu_${member.id}`,
      `usr_${member.user_id}`,
      `tem_${team.id}`,
      `skd_${team.schedule_id}`,
      `esc_${team.escalation_policy_id}`,
      `evt_${event.id}`,
      `alt_${alert.id}`,
      `int_${integration.id}`,
    ];
    document = openApiDocument(ROUTES) as Record<string, any>;
    checker = new DocumentChecker(document);
    // The inbound integration is the routing key of /v2/enqueue, and no other route's reference (a
    // maintenance window naming it would have its webhooks ignored, and nothing queued).
    context = {
      components: document.components?.schemas ?? {},
      ids: [...ulids, ...prefixed],
      routingKeys: [inbound.prefix_id, inbound.id],
    };
  },
  // No workers: nothing changes the store behind a request's back, so "a 4xx changed nothing" is exact;
  // the last test runs the workers over what the requests queued.
  { pollerConcurrency: 0 },
);

/** The collection a path belongs to (`/api/v4/alerts/{id}/comments` → `/api/v4/alerts`), when listable. */
function collectionOf(path: string): string | undefined {
  const at = path.indexOf('/{');
  const collection = at < 0 ? path : path.slice(0, at);
  return GETS.has(collection) ? collection : undefined;
}

const ids = new Map<string, string>();

/** An id for the route's `{id}`: the inbound integration for a public route (the webhook), the newest
 * object of its collection, the account for /account/{id}, else an id that names nothing (the route
 * is still fuzzed: its answer must be a clean 404). */
async function idFor(route: Route): Promise<string> {
  const path = route.path;
  if (route.public) return inbound.prefix_id;
  const collection = collectionOf(path);
  const key = collection ?? path;
  if (!ids.has(key)) {
    let id: string | undefined;
    if (collection) {
      const res = await service.admin.get(`${collection}?limit=1`);
      id = res.body?.data?.[0]?.id;
    } else if (path.startsWith('/account/')) {
      id = `acc_${service.runtime.created?.account.id}`;
    }
    ids.set(key, id ?? '01JZZZZZZZZZZZZZZZZZZZZZZZ');
  }
  return ids.get(key)!;
}

/** GET paths whose answers a 4xx must leave as they were: the collection's first page (its total and
 * its objects), the object itself, and the route's own nested list. */
function snapshotPaths(route: Route, path: string): string[] {
  const paths: string[] = [];
  const collection = collectionOf(route.path);
  if (collection) paths.push(`${collection}?limit=100`);
  const template = route.path.split('/');
  const at = template.indexOf('{id}');
  if (at > 0 && GETS.has(template.slice(0, at + 1).join('/')))
    paths.push(
      path
        .split('/')
        .slice(0, at + 1)
        .join('/'),
    );
  if (route.path !== collection && GETS.has(route.path)) paths.push(`${path}?limit=100`);
  return [...new Set(paths)];
}

async function snapshot(paths: string[]): Promise<string[]> {
  return Promise.all(
    paths.map(async (path) => {
      const res = await service.admin.get(path);
      return `${path} ${res.status} ${createHash('sha256').update(res.text).digest('hex')}`;
    }),
  );
}

async function send(route: Route, path: string, body: WrittenBody) {
  const headers: Record<string, string> = route.public ? {} : { ...service.admin.headers };
  // Opsgenie's drop-in authenticates by its GenieKey, the inbound integration's id: without it every
  // body would stop at the 401.
  if (route.path.startsWith('/v2/alerts')) headers.authorization = `GenieKey ${inbound.prefix_id}`;
  if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  const started = performance.now();
  const { value, cpuMs } = await withCpuTime(async () => {
    const res = await fetch(`${service.url}${path}`, { method: route.method, headers, body: body.bytes });
    return { status: res.status, text: await res.text() };
  });
  return { ...value, cpuMs, ms: performance.now() - started };
}

/** A 4xx's body against what the document says the route answers with that status (the contract's
 * error body, or a drop-in's own, such as PagerDuty's on /v2/enqueue); a status the route does not
 * document must still carry the contract's error body. */
function errorBodyProblems(route: Route, path: string, status: number, text: string): string[] {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    // A page for people (one-click responses answer an invalid link with an HTML page, as documented).
    const declared = document.paths?.[route.path]?.[route.method.toLowerCase()]?.responses?.[String(status)];
    if (declared?.content?.['text/html'] && /^<!doctype html>/i.test(text)) return [];
    return [`not JSON: ${text.slice(0, 200)}`];
  }
  const documented = checker.check(route.method, route.path, status, body, text);
  if (documented.length === 0) return [];
  const undeclared = documented.some((problem) => problem.includes('does not declare status'));
  const contract = checker.compileComponent(path.startsWith('/api/v4/') ? 'ErrorV4' : 'ErrorEarlier');
  return undeclared && contract(body) ? [] : documented;
}

describe('fuzzing every create and update endpoint with hostile bodies', () => {
  it('covers every POST and PUT of the route table, the public routes and the inbound webhook among them', () => {
    const keys = WRITES.map((route) => `${route.method} ${route.path}`);
    expect(keys).toContain('POST /integration/{id}');
    expect(keys).toContain('POST /public/login');
    expect(keys).toContain('PUT /api/v4/teams/{id}');
    expect(keys).toContain('POST /alert');
  });

  WRITES.forEach((route, index) => {
    it(`${route.method} ${route.path}`, async () => {
      const path = (
        await Promise.all(
          route.path
            .split('/')
            .map(async (segment) =>
              segment === '{id}' ? idFor(route) : segment.startsWith('{') ? randomBytes(8).toString('hex') : segment,
            ),
        )
      ).join('/');
      const schema = document.paths?.[route.path]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
      const watched = snapshotPaths(route, path);
      await fc.assert(
        fc.asyncProperty(bodyFor(schema, context), async (body) => {
          const before = await snapshot(watched);
          const res = await send(route, path, body);
          const what = `${route.method} ${path} ← ${body.describe}\n→ ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          expect(res.cpuMs, `${what}\nanswering cost ${Math.round(res.cpuMs)} ms of CPU`).toBeLessThan(CPU_PER_ANSWER_MS);
          expect(res.ms, `${what}\nanswered in ${Math.round(res.ms)} ms`).toBeLessThan(HTTP_FUNCTION_TIMEOUT_MS);
          if (res.status >= 400) {
            expect(errorBodyProblems(route, path, res.status, res.text), what).toEqual([]);
            expect(await snapshot(watched), `${what}\nchanged what it refused`).toEqual(before);
          }
          expect(({} as Record<string, unknown>).polluted, what).toBeUndefined();
          expect(prototypeKeys(), what).toEqual(pristine);
        }),
        { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
      );
    });
  });

  it('the workers take every accepted request and every new alert it left, without one error', async () => {
    // What the webhooks and creates above queued: the ingest worker first (its alerts go to routing).
    for (const queue of ['ingest', 'routing'] as const) {
      const drained = await drainQueue(service, queue);
      // A failed webhook: show the request it could not take, as stored in its log.
      const failures = await Promise.all(
        drained.failed.map(async (message) => {
          const logId = (JSON.parse(message) as { log_id?: string }).log_id;
          return logId ? JSON.stringify((await service.admin.get(`/log/log_${logId}`)).body?.data?.body ?? message) : message;
        }),
      );
      expect(failures, `${queue} worker failed on ${failures.join('\n').slice(0, 1_000)}`).toEqual([]);
      expect(drained.handled, `${queue}: nothing was queued`).toBeGreaterThan(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves the server serving lists afterwards', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const path of ['/api/v4/alerts', '/alert', '/api/v4/teams', '/api/v4/account_users', '/integration']) {
      const res = await service.admin.get(path);
      expect(res.status, `${path} ${res.text}`).toBe(200);
    }
  });
});
