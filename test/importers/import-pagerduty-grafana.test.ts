// Whole imports from the PagerDuty and Grafana OnCall stand-ins into the real service (the local
// runtime on the embedded emulators): a dry run plans everything and writes nothing, the import
// makes people, teams, schedules, policies and integrations whose on-call the proof finds equal to
// the source's own rendering over 28 days across the changes of clocks, a second run makes nothing
// new, and what has no equivalent is listed. The service's clock stands at the fixtures' "now".
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { replaceDependencies } from '../../lib/dependencies';
import type { Principal } from '../../lib/http/principal';
import { runImport, type ImportReport, type ImportRequest } from '../../lib/importers/run-import';
import { ApiClient } from '../support/api-client';
import { eventually } from '../integrations/support';
import { useService, type TestService } from '../support/runtime';
import { GO_NOW, grafanaOnCallStack } from './grafana-oncall-fixtures';
import { GrafanaOnCallStandIn } from './grafana-oncall-stand-in';
import { PD_NOW, pagerDutyAccount } from './pagerduty-fixtures';
import { PagerDutyStandIn } from './pagerduty-stand-in';

/** A whole import is a few thousand store calls: moto (one call at a time, npm run test:moto) takes minutes. */
const IMPORT_TIMEOUT = process.env.AWS_ENDPOINT_URL ? 900_000 : 90_000;

let service: TestService;
let principal: Principal;
let pagerDuty: PagerDutyStandIn;
let grafana: GrafanaOnCallStandIn;
let restoreClock: (() => void) | null = null;

useService(async (started) => {
  service = started;
  const me = await started.admin.get<{ data: { id: string; account_id: string; user: { id: string } }[] }>(
    '/api/v4/account_users?limit=100',
  );
  const admin = me.body.data[0];
  principal = {
    accountId: admin.account_id,
    accountUserId: admin.id,
    userId: admin.user.id,
    roles: { admin: true, billing: false, broadcaster: false, communicator: false },
    via: 'api_key',
  };
});

beforeAll(async () => {
  pagerDuty = await PagerDutyStandIn.start(pagerDutyAccount(), { maxLimit: 4 });
  grafana = await GrafanaOnCallStandIn.start(grafanaOnCallStack(), { pageSize: 3 });
});

afterAll(async () => {
  await pagerDuty.close();
  await grafana.close();
});

afterEach(() => {
  restoreClock?.();
  restoreClock = null;
});

/** The service's clock running from `at` (the fixtures' "now"), as if the import ran then. */
function clockAt(at: number): void {
  const began = Date.now();
  restoreClock = replaceDependencies({ clock: { now: () => at + (Date.now() - began) } });
}

async function totals(client: ApiClient): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const collection of ['account_users', 'teams', 'schedules', 'escalation_policies', 'integrations', 'events']) {
    const answer = await client.get<{ total_count: number }>(`/api/v4/${collection}?limit=1`);
    expect(answer.status).toBe(200);
    result[collection] = answer.body.total_count;
  }
  return result;
}

const sources: {
  name: 'pagerduty' | 'grafana-oncall';
  now: number;
  request: () => Omit<ImportRequest, 'dryRun'>;
  people: number;
  schedules: string[];
}[] = [
  {
    name: 'pagerduty',
    now: PD_NOW,
    request: () => ({
      source: 'pagerduty',
      allowPrivateAddresses: true,
      apiKey: pagerDuty.apiKey,
      apiUrl: pagerDuty.url,
      from: PD_NOW,
      baseUrl: service.url,
    }),
    people: 7,
    schedules: ['PSPLAT1', 'PSPAY02', 'PSEMPT3'],
  },
  {
    name: 'grafana-oncall',
    now: GO_NOW,
    request: () => ({
      source: 'grafana-oncall',
      allowPrivateAddresses: true,
      apiKey: grafana.token,
      apiUrl: grafana.apiUrl,
      from: GO_NOW,
      baseUrl: service.url,
    }),
    people: 6,
    schedules: ['SSRE001', 'SDATA02'],
  },
];

describe.each(sources)('importing from $name', ({ name, now, request, people, schedules }) => {
  let imported: ImportReport;

  it(
    'a dry run plans everything, proves the plan, and writes nothing',
    async () => {
      const before = await totals(service.admin);
      clockAt(now);
      const report = await runImport(principal, { ...request(), dryRun: true });
      expect(report.dryRun).toBe(true);
      expect(report.proofs.map((p) => p.scheduleSourceId)).toEqual(schedules);
      expect(report.proofs.flatMap((p) => p.differences)).toEqual([]);
      expect(report.proven).toBe(true);
      expect(report.plan.filter((e) => e.kind === 'user' && e.action === 'create')).toHaveLength(people);
      expect(report.plan.some((e) => e.kind === 'integration' && e.action === 'create')).toBe(true);
      expect(await totals(service.admin)).toEqual(before);
    },
    IMPORT_TIMEOUT,
  );

  it(
    'the import makes everything, and the proof finds no difference at any hand-off',
    async () => {
      const before = await totals(service.admin);
      clockAt(now);
      imported = await runImport(principal, { ...request(), dryRun: false });
      expect(imported.proofs.flatMap((p) => p.differences)).toEqual([]);
      expect(imported.proofs.filter((p) => p.handOffs > 20).length).toBeGreaterThanOrEqual(2);
      expect(imported.proven).toBe(true);
      const after = await totals(service.admin);
      expect(after.account_users - before.account_users).toBe(people);
      expect(after.schedules).toBeGreaterThan(before.schedules);
      expect(after.events).toBeGreaterThan(before.events);
      for (const address of imported.integrations) expect(address.newAddress).toMatch(/\/integration\/int_[0-9A-Z]{26}\)?$/);
    },
    IMPORT_TIMEOUT,
  );

  it(
    'a second run updates what it made and makes nothing new',
    async () => {
      const before = await totals(service.admin);
      clockAt(now);
      const again = await runImport(principal, { ...request(), dryRun: false });
      expect(again.plan.filter((e) => e.action === 'create')).toEqual([]);
      expect(again.proven).toBe(true);
      expect(await totals(service.admin)).toEqual(before);
      expect(again.people).toEqual(imported.people);
    },
    IMPORT_TIMEOUT,
  );

  it.runIf(name === 'pagerduty')('a PagerDuty sender keeps its routing key: only the URL changes', async () => {
    const dedupKey = `moved-${Date.now()}`;
    const sent = await fetch(`${service.url}/v2/enqueue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        routing_key: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
        event_action: 'trigger',
        dedup_key: dedupKey,
        payload: { summary: 'Checkout errors', source: 'web1', severity: 'error' },
      }),
    });
    expect(sent.status).toBe(202);
    const alert = await eventually(async () => {
      const found = (await service.admin.get(`/api/v4/alerts?thirdparty_id=${dedupKey}`)).body.data as { title: string }[];
      return found[0];
    });
    expect(alert.title).toBe('Checkout errors');
  });

  it('lists what has no equivalent here', () => {
    const listed = imported.unsupported.map((u) => `${u.kind}:${u.sourceId}`);
    if (name === 'pagerduty') expect(listed).toEqual(expect.arrayContaining(['user:PALICE1', 'integration:PIMAIL2']));
    else
      expect(listed).toEqual(
        expect.arrayContaining(['other:phone-numbers', 'escalation-step:ED3', 'escalation-step:ED4', 'integration:CMAIL03']),
      );
  });
});

describe('the imported people and senders', () => {
  it(
    "keep their e-mails, phones and zones, and the integrations print the source's address next to ours",
    async () => {
      const users = await service.admin.get<{
        data: { user: { name: string; time_zone: string; emails: { email: string }[]; phones: { phone: string }[] } }[];
      }>('/api/v4/account_users?limit=100');
      const alice = users.body.data.find((u) => u.user.emails.some((e) => e.email === 'alice@pd.example'))!;
      expect(alice.user).toMatchObject({ name: 'Alice Adler', time_zone: 'Europe/Berlin' });
      expect(alice.user.emails.map((e) => e.email)).toEqual(['alice@pd.example', 'alice.adler@work.example']);
      expect(alice.user.phones.map((p) => p.phone)).toEqual(['+4915112345671']);
      clockAt(PD_NOW);
      const report = await runImport(principal, {
        source: 'pagerduty',
        allowPrivateAddresses: true,
        apiKey: pagerDuty.apiKey,
        apiUrl: pagerDuty.url,
        from: PD_NOW,
        baseUrl: service.url,
        dryRun: true,
      });
      expect(report.integrations.find((i) => i.oldAddress === 'routing_key …8f90')?.newAddress).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/v2\/enqueue with routing_key /,
      );
    },
    IMPORT_TIMEOUT,
  );

  it('Grafana OnCall without an API URL is refused before anything is read', async () => {
    await expect(
      runImport(principal, { source: 'grafana-oncall', allowPrivateAddresses: true, apiKey: grafana.token, dryRun: true, baseUrl: null }),
    ).rejects.toThrow(/--api-url/);
  });
});
