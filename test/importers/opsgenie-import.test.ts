// The Opsgenie import end to end: the reader against the API stand-in, the apply step through our
// use cases into the real table (embedded emulators or moto), the proof over what was stored, and
// the admin CLI as an operator runs it. What the import made is read back through the real HTTP API.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/http/principal';
import { importPrincipal } from '../../lib/importers/import-principal';
import { runImport, type ImportReport } from '../../lib/importers/run-import';
import type { ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { eventually } from '../integrations/support';
import { driftingOpsgenieAccount, FROM, opsgenieAccount } from './opsgenie-fixture';
import { OpsgenieStandIn } from './opsgenie-stand-in';

const KEY = 'genie-key-import-0123456789';
let service: TestService;
let admin: ApiClient;
let accountId: string;
let principal: Principal;
let standIn: OpsgenieStandIn;
let first: ImportReport;

useService(async (started) => {
  service = started;
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
  principal = (await importPrincipal(accountId))!;
});

beforeAll(async () => {
  standIn = new OpsgenieStandIn(opsgenieAccount(), KEY);
  await standIn.start();
});
afterAll(() => standIn.stop());

const run = (dryRun = false, who = principal) =>
  runImport(who, {
    source: 'opsgenie',
    allowPrivateAddresses: true,
    apiKey: KEY,
    apiUrl: standIn.url,
    dryRun,
    from: Date.parse(FROM),
    baseUrl: 'https://oncall.example.com',
  });

/** How many objects of each kind the account has, read through the API. */
async function inventory(client: ApiClient) {
  const count = async (path: string) => {
    const res = await client.get(`${path}${path.includes('?') ? '&' : '?'}limit=100`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as { id: string; name?: string }[];
  };
  const schedules = await count('/api/v4/schedules');
  let events = 0;
  for (const schedule of schedules) events += (await count(`/api/v4/schedules/${schedule.id}/events`)).length;
  return {
    users: (await count('/api/v4/account_users')).length,
    teams: (await count('/api/v4/teams')).length,
    schedules: schedules.length,
    events,
    policies: (await count('/api/v4/escalation_policies')).length,
    integrations: (await count('/api/v4/integrations')).length,
  };
}

describe('importing from Opsgenie', () => {
  it('brings people, teams, schedules, policies and integrations, and the proof finds no difference', async () => {
    first = await run();
    expect(first.proofs.map((p) => [p.name, p.differences])).toEqual([
      ['Platform primary', []],
      ['Database', []],
      ['Follow the sun', []],
    ]);
    expect(first.proofs.every((p) => p.handOffs > 20)).toBe(true);
    expect(first.proven).toBe(true);

    const teams = (await admin.get('/api/v4/teams?limit=100')).body.data as any[];
    const platform = teams.find((t) => t.name === 'Platform');
    expect(teams.map((t) => t.name)).toEqual(expect.arrayContaining(['Platform', 'Database', 'Observers']));
    const people = (await admin.get('/api/v4/account_users?limit=100')).body.data as any[];
    const idOf = (email: string) => people.find((p) => p.user.emails.some((e: any) => e.email === email))?.id;
    expect(platform.member_account_user_ids.sort()).toEqual(
      ['ada@example.org', 'grace@example.org', 'linus@example.org', 'margaret@example.org'].map(idOf).sort(),
    );
    expect(platform.admin_account_user_ids).toEqual([idOf('ada@example.org')]);
    const ada = people.find((p) => p.id === idOf('ada@example.org'));
    expect(ada.roles.admin).toBe(true);
    expect(ada.user.time_zone).toBe('Europe/Berlin');
    expect(ada.user.phones.map((p: any) => p.phone)).toEqual(['+4915112345678']);

    const policy = (await admin.get(`/api/v4/escalation_policies/${platform.escalation_policy_id}`)).body;
    expect(policy.escalation_layers.map((l: any) => [l.layer, l.timeout])).toEqual([
      [1, 5],
      [2, 10],
      [3, 15],
      [4, 10],
    ]);
    expect(policy.repeat).toBe(2);
    // The team's schedule carries the policy's steps: Grace around the clock on layer 2.
    // (People always on call are so from the day of the import on.)
    const tomorrow = Date.now() + 86_400_000;
    const window = `start=${new Date(tomorrow).toISOString()}&end=${new Date(tomorrow + 60_000).toISOString()}`;
    const layered = (await admin.get(`/api/v4/schedule/${platform.schedule_id}/window_events?${window}`)).body as any[];
    expect(layered.filter((e) => e.layer === 2).map((e) => e.attendees[0].attendee_id)).toEqual([idOf('grace@example.org')]);
    expect(new Set(layered.map((e) => e.layer))).toEqual(new Set([1, 2, 3, 4]));

    expect(first.integrations).toEqual([
      {
        name: 'Prometheus prod',
        oldAddress: `${standIn.url}/v2/alerts with GenieKey …a1b2`,
        newAddress: expect.stringMatching(
          /^https:\/\/oncall\.example\.com\/v2\/alerts with GenieKey the same key \(or https:\/\/oncall\.example\.com\/integration\/int_\w+\)$/,
        ),
      },
      {
        name: 'Default API',
        oldAddress: `${standIn.url}/v2/alerts with GenieKey …c3d4`,
        newAddress: expect.stringMatching(/\/v2\/alerts with GenieKey the same key \(or .*\/integration\/int_\w+\)$/),
      },
    ]);
    const integrations = (await admin.get('/api/v4/integrations?limit=100')).body.data as any[];
    expect(integrations.find((i) => i.name === 'Default API').team_ids).toEqual([teams.find((t) => t.name === 'Database').id]);

    // Senders keep their key: Alertmanager's opsgenie_configs changes only its api_url.
    const prometheus = integrations.find((i) => i.name === 'Prometheus prod');
    expect(prometheus.integration_type.slug).toBe('opsgenie');
    const alias = `moved-${Date.now()}`;
    const sent = await fetch(`${service.url}/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'GenieKey b1c2d3e4-0000-4000-8000-00000000a1b2' },
      body: JSON.stringify({ message: 'Disk full on db1', alias, priority: 'P2' }),
    });
    expect(sent.status).toBe(202);
    const alert = await eventually(async () => {
      const found = (await admin.get(`/api/v4/alerts?thirdparty_id=${alias}`)).body.data as any[];
      return found[0] as { source_id: string; title: string } | undefined;
    });
    expect(alert).toMatchObject({ source_id: prometheus.id, title: 'Disk full on db1' });
  });

  it('lists what has no equivalent here with its reason', () => {
    const reasons = first.unsupported.map((item) => `${item.kind} ${item.sourceId}: ${item.reason}`);
    const expected = [
      /^user u-barbara: role Stakeholder/,
      /^team t-observers: no team admin there/,
      /^layer r-team: a team \(t-platform\) holds a turn/,
      /^schedule s-sun: disabled there/,
      /^escalation-policy e-platform: step 4 pages the next person of Database/,
      /^escalation-policy e-db: step 2 runs until the alert is closed/,
      /^escalation-policy e-nested: step 2 runs another escalation policy/,
      /^integration i-email: type Email has no equivalent here/,
    ];
    for (const pattern of expected) expect(reasons, String(pattern)).toContainEqual(expect.stringMatching(pattern));
    // Hourly turns with restrictions are exact in a zone without clock changes (Follow the sun is in UTC).
    expect(reasons.filter((r) => r.startsWith('layer r-late'))).toEqual([]);
    // The team's escalation at the last step of e-db is what reassign_team_ids does: no note for that.
    expect(reasons.filter((r) => r.startsWith('escalation-policy e-db'))).toHaveLength(1);
  });

  it('a second run updates what the first made and creates nothing', async () => {
    const before = await inventory(admin);
    const again = await run();
    expect(again.plan.filter((entry) => entry.action !== 'keep')).toEqual([]);
    expect(again.proven).toBe(true);
    expect(await inventory(admin)).toEqual(before);
  });

  it('carries a change at the source into what it made', async () => {
    const before = await inventory(admin);
    const fixture = standIn.account;
    fixture.teams[1].name = 'Databases';
    fixture.schedules[0].rotations[0].participants.pop();
    fixture.overrides['s-primary'][1].endDate = '2026-04-02T16:00:00Z';
    try {
      const changed = await run();
      expect(
        changed.plan.filter((entry) => entry.action !== 'keep').map((entry) => `${entry.action} ${entry.kind} ${entry.sourceId}`),
      ).toEqual(expect.arrayContaining(['update team t-db', 'update event s-primary']));
      expect(changed.plan.filter((entry) => entry.action === 'create')).toEqual([]);
      expect(changed.proven).toBe(true);
      const after = await inventory(admin);
      expect({ ...after, events: 0 }).toEqual({ ...before, events: 0 });
    } finally {
      standIn.account = opsgenieAccount();
      await run();
    }
  });

  it('a dry run prints the whole plan and writes nothing', async () => {
    const other = await signupAccount(service, 'Dry');
    const before = await inventory(other.client);
    const plan = await run(true, (await importPrincipal(other.accountId))!);
    expect(await inventory(other.client)).toEqual(before);
    const creates = plan.plan.filter((entry) => entry.action === 'create');
    expect(creates.filter((e) => e.kind === 'user')).toHaveLength(7);
    expect(creates.filter((e) => e.kind === 'team').map((e) => e.name)).toEqual(['Platform', 'Database', 'Observers']);
    expect(creates.filter((e) => e.kind === 'schedule')).toHaveLength(3);
    expect(plan.plan.filter((e) => e.kind === 'event').every((e) => /events: [1-9]\d* to create/.test(e.detail ?? ''))).toBe(true);
    expect(plan.integrations.map((i) => i.newAddress)).toEqual([null, null]);
    // The dry run proves the planned events already.
    expect(plan.proven).toBe(true);
  });
});

/** `npm run admin -- import opsgenie …` against `apiUrl` for this file's account, as an operator runs it. */
function importCli(apiKey: string, apiUrl: string): Promise<{ code: number | null; out: string; err: string }> {
  return adminCli(['import', 'opsgenie', '--api-key', apiKey, '--api-url', apiUrl, '--account', `acc_${accountId}`, '--from', FROM]);
}

function adminCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/admin.ts', ...args], {
      env: { ...process.env, FORCE_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('npm run admin -- import opsgenie', () => {
  it('prints the plan, the addresses, the unsupported list and the proof, and exits 0 when the on-call is the same', async () => {
    const result = await importCli(KEY, standIn.url);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/keep\s+team\s+Platform/);
    expect(result.out).toMatch(/Prometheus prod: .*GenieKey …a1b2 → .*\/integration\/int_/);
    expect(result.out).toMatch(/integration Email in \(i-email\): type Email has no equivalent here/);
    expect(result.out).toMatch(/Platform primary: .*same.* 2026-03-20T00:00:00.000Z to 2026-04-17T00:00:00.000Z/);
    expect(result.out).not.toContain(KEY);
  });

  it('says "on-call differs" in red and exits 1 where the source renders what cannot be carried exactly', async () => {
    // Hourly turns count elapsed hours at the source; with restrictions they are imported on the wall clock.
    const drifting = new OpsgenieStandIn(driftingOpsgenieAccount(), KEY);
    await drifting.start();
    try {
      const result = await importCli(KEY, drifting.url);
      expect(result.code).toBe(1);
      expect(result.out).toContain('\u001b[31mon-call differs');
      expect(result.out).toMatch(/\d{2}:\d{2}:00.000Z – 2026-\S+: here [^;]+; there /);
    } finally {
      await drifting.stop();
    }
  });

  it('refuses a bad key with what Opsgenie answered, never printing the key, and a missing key with the usage', async () => {
    const bad = await importCli('not-the-key-42', standIn.url);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/Opsgenie answered 401 to GET \/v2\/users \(check the API key/);
    expect(bad.out + bad.err).not.toContain('not-the-key-42');
    const missing = await adminCli(['import', 'opsgenie', '--account', `acc_${accountId}`]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--api-key is required/);
  });
});
