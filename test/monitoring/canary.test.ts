// The canary (lib/monitoring/canary.ts, README "Monitoring") through the real pipeline: the sweeper
// starts an alert to the canary team, the routing and escalation workers page its people into the
// memory outbox, and the sweeper's next run finds the page, writes the canary's time to page and
// CanarySucceeded (EMF on stdout) and resolves the alert itself. A canary team nobody can be paged
// in writes CanaryFailed at its deadline instead. Time moves with the service's clock, never a wait.
// @moto: the canary's item (versioned puts) and the alert's notification index.
// @module-tag moto
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANARY_DEADLINE_MS, CANARY_INTERVAL_MS } from '../../lib/monitoring/canary';
import { notificationsOf, person, team } from '../escalation/support';
import type { ApiClient } from '../support/api-client';
import { changeEnvironment, outboxMessages, testClock } from '../support/dependencies';
import { captureEmf, type EmfCapture } from '../support/emf';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';

let service: TestService;
let admin: ApiClient;
let accountId: string;
let emf: EmfCapture;
const restores: (() => void)[] = [];

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id as string;
  },
  { env: { POWERTOOLS_METRICS_DISABLED: 'false' } },
);

beforeEach(() => {
  emf = captureEmf();
});

afterEach(() => {
  emf.stop();
  restores.splice(0).forEach((restore) => restore());
});

afterAll(() => restores.forEach((restore) => restore()));

type CanaryRun = { canary: string; alert_id?: string; paged?: boolean };

/** One sweeper run (the deployed schedule's, or the local timer's), and what the canary did in it. */
async function sweep(): Promise<CanaryRun> {
  const result = (await service.runtime.runScheduled('sweeper')) as { canary: CanaryRun | null };
  expect(result.canary).not.toBeNull();
  expect(result.canary).not.toHaveProperty('error');
  return result.canary!;
}

const statusOf = async (alertId: string) => (await admin.get(`/api/v4/alerts/${alertId}`)).body.status as string;

describe('the canary', () => {
  it('does nothing while CANARY_TEAM_ID is unset', async () => {
    const before = (await admin.get('/api/v4/alerts?limit=1')).body.total as number;
    expect(await sweep()).toEqual({ canary: 'off' });
    await settle(service);
    expect((await admin.get('/api/v4/alerts?limit=1')).body.total).toBe(before);
  });

  it('pages its team through the pipeline, records its time to page, resolves its alert and starts the next one 15 minutes on', async () => {
    const watcher = await person(admin);
    const canaryTeam = await team(admin, { layers: [[watcher.id]] });
    restores.push(changeEnvironment({ CANARY_TEAM_ID: canaryTeam.id, CANARY_ACCOUNT_ID: accountId }));
    const start = testClock.freeze();
    // The workers take no batch until the canary has been seen waiting: held, not outrun.
    const releaseWorkers = service.runtime.pollers.map((poller) => poller.hold());

    const started = await sweep();
    expect(started.canary).toBe('started');
    const alertId = started.alert_id!;
    const alert = (await admin.get(`/api/v4/alerts/${alertId}`)).body;
    expect(alert).toMatchObject({ urgency: 'high', destination_team_ids: [canaryTeam.id] });
    // Nothing was paged yet (the workers hold their batches): the canary waits, and says nothing.
    expect(await sweep()).toEqual({ canary: 'waiting', alert_id: alertId });
    expect(emf.named('CanarySucceeded')).toEqual([]);

    releaseWorkers.forEach((release) => release());
    await settle(service);
    testClock.advance(2_000);
    const sent = await notificationsOf(admin, alertId);
    expect(sent.filter((n) => n.account_user_id === watcher.id).length).toBeGreaterThanOrEqual(1);
    expect(outboxMessages().some((m) => m.accountUserId === watcher.id && m.template === 'alert_alert')).toBe(true);

    expect(await sweep()).toEqual({ canary: 'checked', paged: true, alert_id: alertId });
    expect(emf.named('CanarySucceeded', {}).map((v) => [v.unit, v.value])).toEqual([['Count', 1]]);
    const timeToPage = emf.named('CanaryTimeToPage', {});
    expect(timeToPage).toHaveLength(1);
    // The clock stood still while the pipeline ran: the page went out at the canary's start.
    expect(timeToPage[0]).toMatchObject({ unit: 'Milliseconds', value: 0 });
    expect(emf.named('CanaryFailed')).toEqual([]);
    await settle(service);
    expect(await statusOf(alertId)).toBe('resolved');

    // Checked once: the next runs record nothing more, and start nothing before 15 minutes.
    emf.clear();
    testClock.advance(CANARY_INTERVAL_MS - 60_000);
    expect(await sweep()).toEqual({ canary: 'idle' });
    expect(emf.named('CanarySucceeded')).toEqual([]);
    testClock.advance(60_000);
    const next = await sweep();
    expect(next.canary).toBe('started');
    expect(next.alert_id).not.toBe(alertId);
    expect(testClock.now() - start).toBe(CANARY_INTERVAL_MS + 2_000);
    await settle(service);
    expect((await sweep()).canary).toBe('checked');
    expect(await statusOf(next.alert_id!)).toBe('resolved');
  });

  it('records a failure when its alert paged nobody by the deadline, and resolves it all the same', async () => {
    const member = await person(admin);
    const silentTeam = await team(admin, { layers: [[]], members: [member.id] });
    restores.push(changeEnvironment({ CANARY_TEAM_ID: silentTeam.id, CANARY_ACCOUNT_ID: accountId }));
    // Past the previous test's canary (the clock went back to wall time since).
    testClock.freeze();
    testClock.advance(2 * CANARY_INTERVAL_MS);

    const started = await sweep();
    expect(started.canary).toBe('started');
    await settle(service);
    expect(await notificationsOf(admin, started.alert_id!)).toEqual([]);
    testClock.advance(CANARY_DEADLINE_MS - 1_000);
    expect(await sweep()).toEqual({ canary: 'waiting', alert_id: started.alert_id });
    testClock.advance(1_000);

    expect(await sweep()).toEqual({ canary: 'checked', paged: false, alert_id: started.alert_id });
    expect(emf.named('CanaryFailed', {}).map((v) => v.value)).toEqual([1]);
    expect(emf.named('CanarySucceeded')).toEqual([]);
    expect(emf.named('CanaryTimeToPage')).toEqual([]);
    await settle(service);
    expect(await statusOf(started.alert_id!)).toBe('resolved');
  });
});
