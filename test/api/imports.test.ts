// Imports from the console, POST /api/v4/imports (docs/api.md#imports), through the real local server
// against the Opsgenie and PagerDuty stand-ins on loopback: admins only, validation naming the field,
// a dry run (the default) that writes nothing, a real run that makes the objects and proves them, a
// second run that creates nothing, another account untouched, a refused key a 422 and an unreachable
// source a 502, and the key in no stored item, log line or answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceDependencies } from '../../lib/dependencies';
import { refusedSource } from '../../lib/importers/source-address';
import { createMember, type ApiClient, type ApiResult } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { outputOf, scanTable } from '../support/service-output';
import { FROM, opsgenieAccount } from '../importers/opsgenie-fixture';
import { OpsgenieStandIn } from '../importers/opsgenie-stand-in';
import { PD_NOW, pagerDutyAccount } from '../importers/pagerduty-fixtures';
import { PagerDutyStandIn } from '../importers/pagerduty-stand-in';

/** A whole import is a few thousand store calls: moto (one call at a time) takes minutes. */
const IMPORT_TIMEOUT = process.env.AWS_ENDPOINT_URL ? 900_000 : 90_000;
const KEY = 'genie-key-console-9f8e7d6c5b4a';

let service: TestService;
let admin: ApiClient;
let opsgenie: OpsgenieStandIn;

useService(
  (started) => {
    service = started;
    admin = started.admin;
  },
  // The stand-ins listen on loopback over plain http.
  { env: { ALLOW_PRIVATE_IMPORT_SOURCES: 'true' } },
);

beforeAll(async () => {
  opsgenie = new OpsgenieStandIn(opsgenieAccount(), KEY);
  await opsgenie.start();
});
afterAll(() => opsgenie.stop());

const opsgenieBody = (extra: Record<string, unknown> = {}) => ({
  source: 'opsgenie',
  api_key: KEY,
  api_url: opsgenie.url,
  from: FROM,
  ...extra,
});

const messages = (res: ApiResult) => (res.body.errors as { message: string }[]).map((e) => e.message).join(' | ');

/** How many objects of each kind an account has, read through the API. */
async function inventory(client: ApiClient) {
  const count = async (path: string) => (await client.everyPage(path)).length;
  return {
    users: await count('/api/v4/account_users'),
    teams: await count('/api/v4/teams'),
    schedules: await count('/api/v4/schedules'),
    policies: await count('/api/v4/escalation_policies'),
    integrations: await count('/api/v4/integrations'),
  };
}

describe('who may import', () => {
  it('refuses anyone but an admin with 403, reading nothing from the source', async () => {
    const { client } = await createMember(admin, { roles: { admin: false } });
    const asked = opsgenie.requests.length;
    const res = await client.post('/api/v4/imports', opsgenieBody());
    expect(res.status, res.text).toBe(403);
    expect(opsgenie.requests.length).toBe(asked);
  });
});

describe('validation', () => {
  it.each([
    [{ source: 'splunk' }, /^source must be one of: opsgenie, pagerduty, grafana-oncall$/],
    [{ api_key: '  ' }, /^api_key can't be blank$/],
    [{ api_key: undefined }, /^api_key can't be blank$/],
    [{ api_url: 'not a url' }, /^api_url is not a valid url$/],
    [{ api_url: 'ftp://example.com' }, /^api_url is not a valid url$/],
    [{ source: 'grafana-oncall', api_url: undefined }, /^api_url can't be blank for Grafana OnCall/],
    [{ from: 'next tuesday' }, /^from must be an ISO 8601 datetime/],
    [{ dry_run: 'perhaps' }, /^dry_run /],
  ])('%j is a 422 naming the field, and nothing is read or written', async (change, message) => {
    const before = await inventory(admin);
    const asked = opsgenie.requests.length;
    const res = await admin.post('/api/v4/imports', opsgenieBody(change));
    expect(res.status, res.text).toBe(422);
    expect(messages(res)).toMatch(message);
    expect(opsgenie.requests.length).toBe(asked);
    expect(await inventory(admin)).toEqual(before);
  });

  it('answers a key the source refuses with a 422 naming api_key, never echoing the key', async () => {
    const res = await admin.post('/api/v4/imports', opsgenieBody({ api_key: 'not-the-key-31337' }));
    expect(res.status, res.text).toBe(422);
    expect(messages(res)).toMatch(/^api_key was refused by Opsgenie \(401\)/);
    expect(res.text).not.toContain('not-the-key-31337');
  });

  it('answers a source that cannot be reached with a 502 saying so, without a stack trace', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const res = await admin.post('/api/v4/imports', opsgenieBody({ api_url: `http://127.0.0.1:${port}` }));
    expect(res.status, res.text).toBe(502);
    expect(messages(res)).toMatch(new RegExp(`^Opsgenie could not be reached at http://127\\.0\\.0\\.1:${port}: `));
    expect(res.text).not.toMatch(/\bat .+\.ts:\d+/);
  });

  it('keeps a deployed import off the function’s own network and off plain http', async () => {
    const refused = async (url: string) => refusedSource(new URL(url), false);
    expect(await refused('http://api.opsgenie.example')).toBe('must be an https URL');
    expect(await refused('https://127.0.0.1:9001/2018-06-01/runtime/invocation/next')).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(await refused('https://169.254.169.254/latest')).toMatch(/link-local/);
    expect(await refused('https://10.0.0.8')).toMatch(/private/);
    expect(await refused('https://[::1]')).toMatch(/loopback/);
    expect(await refused('https://localhost')).toMatch(/loopback/);
    expect(await refused('https://93.184.215.14/v2')).toBeNull();
    expect(await refusedSource(new URL('http://127.0.0.1:8080'), true)).toBeNull();
  });
});

describe('importing from Opsgenie', () => {
  it(
    'a dry run (the default) answers the plan and the proof and writes nothing',
    async () => {
      const before = await inventory(admin);
      const res = await admin.post('/api/v4/imports', opsgenieBody());
      expect(res.status, res.text).toBe(200);
      const report = res.body;
      expect(report.dry_run).toBe(true);
      expect(report.source).toBe('opsgenie');
      expect(report.plan.filter((e: any) => e.kind === 'team' && e.action === 'create').map((e: any) => e.name)).toEqual([
        'Platform',
        'Database',
        'Observers',
      ]);
      expect(report.proofs.map((p: any) => [p.name, p.differences])).toEqual([
        ['Platform primary', []],
        ['Database', []],
        ['Follow the sun', []],
      ]);
      expect(report.proofs[0]).toMatchObject({ from: '2026-03-20T00:00:00.000Z', to: '2026-04-17T00:00:00.000Z' });
      expect(report.proofs.every((p: any) => p.hand_offs > 20)).toBe(true);
      expect(report.proven).toBe(true);
      expect(report.integrations.map((i: any) => i.new_address)).toEqual([null, null]);
      expect(report.unsupported.map((u: any) => u.source_id)).toContain('i-email');
      expect(await inventory(admin)).toEqual(before);
    },
    IMPORT_TIMEOUT,
  );

  let made: Awaited<ReturnType<typeof inventory>>;

  it(
    'a real run makes the people, teams, schedules, policies and integrations, with their new addresses',
    async () => {
      const before = await inventory(admin);
      let res!: ApiResult;
      const logs = await outputOf(async () => {
        res = await admin.post('/api/v4/imports', opsgenieBody({ dry_run: false }));
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.dry_run).toBe(false);
      expect(res.body.proven).toBe(true);
      made = await inventory(admin);
      expect(made.teams - before.teams).toBe(3);
      expect(made.schedules - before.schedules).toBeGreaterThanOrEqual(3);
      expect(made.integrations - before.integrations).toBe(2);
      expect(made.users).toBeGreaterThan(before.users);
      expect(res.body.integrations).toEqual([
        {
          name: 'Prometheus prod',
          old_address: `${opsgenie.url}/v2/alerts with GenieKey …a1b2`,
          new_address: expect.stringMatching(
            new RegExp(`^${service.url}/v2/alerts with GenieKey the same key \\(or ${service.url}/integration/int_\\w+\\)$`),
          ),
        },
        expect.objectContaining({ name: 'Default API', new_address: expect.stringMatching(/\/integration\/int_\w+\)$/) }),
      ]);
      const ada = res.body.people.find((p: any) => p.source_id === 'u-ada');
      expect((await admin.get(`/api/v4/account_users/${ada.account_user_id}`)).body.user.emails[0].email).toBe('ada@example.org');

      // The key was used for the run only: in no item of the table (audit trail included), log line or answer.
      expect(opsgenie.requests.filter((r) => r.authorization === `GenieKey ${KEY}`).length).toBeGreaterThan(10);
      const items = await scanTable(service.runtime.tableName);
      expect(items.length).toBeGreaterThan(100);
      expect(items.filter((item) => JSON.stringify(item).includes(KEY))).toEqual([]);
      expect(logs).not.toContain(KEY);
      expect(res.text).not.toContain(KEY);
      const audit = await admin.everyPage('/api/v4/audit_events');
      expect(audit.length).toBeGreaterThan(10);
      expect(JSON.stringify(audit)).not.toContain(KEY);
    },
    IMPORT_TIMEOUT,
  );

  it(
    'a second run creates nothing',
    async () => {
      const res = await admin.post('/api/v4/imports', opsgenieBody({ dry_run: false }));
      expect(res.status, res.text).toBe(200);
      expect(res.body.plan.filter((e: any) => e.action !== 'keep')).toEqual([]);
      expect(res.body.proven).toBe(true);
      expect(await inventory(admin)).toEqual(made);
    },
    IMPORT_TIMEOUT,
  );

  it(
    'another account is not touched, and an import into it is its own',
    async () => {
      const other = await signupAccount(service, 'Elsewhere');
      const before = await inventory(other.client);
      expect(before.teams).toBe(0);
      const ours = await inventory(admin);
      const res = await other.client.post('/api/v4/imports', opsgenieBody());
      expect(res.status, res.text).toBe(200);
      // Its plan creates everything: the first account's import is not its.
      expect(res.body.plan.filter((e: any) => e.kind === 'team').map((e: any) => e.action)).toEqual(['create', 'create', 'create']);
      expect(await inventory(other.client)).toEqual(before);
      expect(await inventory(admin)).toEqual(ours);
    },
    IMPORT_TIMEOUT,
  );
});

describe('importing from PagerDuty', () => {
  let pagerDuty: PagerDutyStandIn;
  let restoreClock: () => void = () => {};
  beforeAll(async () => {
    pagerDuty = await PagerDutyStandIn.start(pagerDutyAccount(), { maxLimit: 4 });
    // The fixture's "now": the service runs as if the import ran then.
    const began = Date.now();
    restoreClock = replaceDependencies({ clock: { now: () => PD_NOW + (Date.now() - began) } });
  });
  afterAll(async () => {
    restoreClock();
    await pagerDuty.close();
  });

  it(
    'a dry run answers its plan and a proof without a difference',
    async () => {
      const before = await inventory(admin);
      const res = await admin.post('/api/v4/imports', {
        source: 'pagerduty',
        api_key: pagerDuty.apiKey,
        api_url: pagerDuty.url,
        dry_run: true,
        from: new Date(PD_NOW).toISOString(),
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.source).toBe('pagerduty');
      expect(res.body.proofs.map((p: any) => p.schedule_source_id)).toEqual(['PSPLAT1', 'PSPAY02', 'PSEMPT3']);
      expect(res.body.proven).toBe(true);
      expect(res.body.plan.filter((e: any) => e.kind === 'user' && e.action === 'create')).toHaveLength(7);
      expect(res.text).not.toContain(pagerDuty.apiKey);
      expect(await inventory(admin)).toEqual(before);
    },
    IMPORT_TIMEOUT,
  );
});

describe('one import that writes at a time per account', () => {
  it(
    'answers a second run while one is running with 409 (the console sends admins to run again after a 504, while the first goes on), lets a dry run and another account through, and makes nothing twice',
    async () => {
      const account = await signupAccount(service, 'Heldimport');
      // The first run's reads of the source wait at this proxy until released: it is running, not done.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let firstRead!: () => void;
      const reading = new Promise<void>((resolve) => (firstRead = resolve));
      const proxy = http.createServer((req, res) => {
        firstRead();
        void released
          .then(() => fetch(`${opsgenie.url}${req.url}`, { headers: { authorization: String(req.headers.authorization) } }))
          .then(async (answer) => {
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            // Its next-page links name the stand-in: they go through here too.
            res.end((await answer.text()).replaceAll(opsgenie.url, proxyUrl));
          });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      try {
        const first = account.client.post('/api/v4/imports', opsgenieBody({ api_url: proxyUrl, dry_run: false }));
        await reading;
        const second = await account.client.post('/api/v4/imports', opsgenieBody({ dry_run: false }));
        expect(second.status, second.text).toBe(409);
        expect(messages(second)).toMatch(/already running .* by an admin in the console/);
        // What writes nothing may run beside it, and another account's import is its own.
        const dry = await account.client.post('/api/v4/imports', opsgenieBody());
        expect(dry.status, dry.text).toBe(200);
        const elsewhere = await signupAccount(service, 'Unheldimport');
        expect((await elsewhere.client.post('/api/v4/imports', opsgenieBody({ dry_run: false }))).status).toBe(200);

        release();
        const done = await first;
        expect(done.status, done.text).toBe(200);
        const made = await inventory(account.client);
        expect(made.teams).toBe(3);
        // Its lease was given back: the next run goes through and makes nothing new.
        const again = await account.client.post('/api/v4/imports', opsgenieBody({ dry_run: false }));
        expect(again.status, again.text).toBe(200);
        expect(again.body.plan.filter((e: any) => e.action === 'create')).toEqual([]);
        expect(await inventory(account.client)).toEqual(made);
      } finally {
        release();
        proxy.closeAllConnections();
        await new Promise<void>((resolve) => proxy.close(() => resolve()));
      }
    },
    IMPORT_TIMEOUT,
  );
});
