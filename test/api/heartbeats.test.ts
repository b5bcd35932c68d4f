// Heartbeat integrations (docs/api.md#heartbeats, contract §15) through the real server and the
// embedded emulators: options refused with the field named, beats by POST and by GET without
// credentials, the deadline kept in the due index (the clock moved, the sweeps run, then asserted),
// one alert per missed deadline through the normal creation and routing path (it pages), resolved
// by the next beat, quiet during a maintenance window and opened when the window ends.
// @moto: the miss is a conditional claim on the state as read (two sweeps racing open one alert), the
// beat a conditional write forward in time, and the deadline lives in the keys-only due index: the
// tests of those three run on moto too (the options, the routes' answers and the windows rest on our
// own code, and the whole file took four minutes there).
import { beforeEach, describe, expect, it } from 'vitest';
import { holdAwsCalls } from '../support/aws-gates';
import { itemKeyOf } from '../support/aws-calls';
import type { ApiClient } from '../support/api-client';
import { changeEnvironment, testClock } from '../support/dependencies';
import { passTime, runDueSweeps, settle } from '../support/quiescence';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { notificationsOf, pagedPeople, person, sentFor, type Person } from '../escalation/support';

let service: TestService;
let admin: ApiClient;
let pager: Person;

useService(async (started) => {
  service = started;
  admin = service.admin;
  pager = await person(admin, { name: 'Heartbeat Pager' });
});

// Deadlines are checked to the second: the clock moves only when a test moves it.
beforeEach(() => {
  testClock.freeze();
});

const INTERVAL = 300;
const GRACE = 60;
const WINDOW_MS = (INTERVAL + GRACE) * 1000;

let made = 0;
async function heartbeat(fields: Record<string, unknown> = {}): Promise<{ id: string; prefix_id: string; url: string; name: string }> {
  const res = await admin.post('/api/v4/integrations', {
    name: `Nightly backup ${++made}`,
    urgency: 'critical',
    integration_type_id: 'heartbeat',
    account_user_ids: [pager.id],
    options: { interval_seconds: INTERVAL, grace_seconds: GRACE },
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const inboundPath = (integration: { prefix_id: string }) => `/integration/${integration.prefix_id}`;

/** A beat as a cron job sends it: no credentials. */
async function beat(integration: { prefix_id: string }, method: 'GET' | 'POST' = 'POST', body?: string) {
  const res = await fetch(`${service.url}${inboundPath(integration)}`, { method, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function alertsOf(integration: { id: string }): Promise<any[]> {
  const res = await admin.get(`/api/v4/alerts?source_id=${integration.id}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function shown(integration: { id: string }) {
  const res = await admin.get(`/api/v4/integrations/${integration.id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** One window from now (the clock frozen): nothing a second before, one alert at the deadline. */
async function opensAtTheDeadline(integration: { id: string }): Promise<void> {
  await passTime(service, WINDOW_MS - 1_000);
  expect(await alertsOf(integration)).toEqual([]);
  await passTime(service, 1_000);
  expect(await alertsOf(integration)).toHaveLength(1);
}

describe('heartbeat options', () => {
  it('refuses a missing, too short, fractional, textual or huge interval and a bad grace, naming the option; nothing is stored', async () => {
    const before = (await admin.get('/api/v4/integrations?limit=1')).body.total_count as number;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ options: {} }, /^options\.interval_seconds can't be blank/],
      [{ options: { interval_seconds: 59 } }, /^options\.interval_seconds must be a whole number of seconds from 60/],
      [{ options: { interval_seconds: 90.5 } }, /^options\.interval_seconds must be a whole number/],
      [{ options: { interval_seconds: 'hourly' } }, /^options\.interval_seconds must be a whole number/],
      [{ options: { interval_seconds: 1e300 } }, /^options\.interval_seconds must be /],
      [{ options: { interval_seconds: '99999999999999999999' } }, /^options\.interval_seconds must be a whole number/],
      [{ options: { interval_seconds: [60] } }, /^options\.interval_seconds must be a whole number/],
      [{ options: { interval_seconds: 60, grace_seconds: -1 } }, /^options\.grace_seconds must be a whole number of seconds from 0/],
      [{ options: { interval_seconds: 60, grace_seconds: { a: 1 } } }, /^options\.grace_seconds must be a whole number/],
      [{ options: undefined, option_interval_seconds: 30 }, /^options\.interval_seconds must be a whole number/],
    ];
    for (const [change, message] of cases) {
      const res = await admin.post('/api/v4/integrations', {
        name: 'Bad heartbeat',
        urgency: 'high',
        integration_type_id: 'heartbeat',
        account_user_ids: [pager.id],
        ...change,
      });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.errors[0].message, JSON.stringify(change)).toMatch(message);
    }
    // The earlier interface refuses the same with its validation status.
    const earlier = await admin.post('/integration', {
      name: 'Bad',
      type: 'heartbeat',
      destination_ids: [`usr_${pager.userId}`],
      option_interval_seconds: 59,
    });
    expect(earlier.status).toBe(400);
    expect(earlier.body.errors[0].message).toMatch(/^options\.interval_seconds/);
    expect((await admin.get('/api/v4/integrations?limit=1')).body.total_count).toBe(before);
  });

  it('takes option_* fields (form-style strings too), defaults grace to 0, and refuses a bad update without changing anything', async () => {
    const created = await admin.post('/api/v4/integrations', {
      name: 'Form heartbeat',
      urgency: 'low',
      integration_type_id: 'heartbeat',
      account_user_ids: [pager.id],
      option_interval_seconds: '120',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.options).toMatchObject({ interval_seconds: 120, grace_seconds: 0 });
    expect(created.body.heartbeat).toEqual({
      status: 'waiting',
      last_beat_at: null,
      next_due_at: expect.any(String),
    });
    const bad = await admin.put(`/api/v4/integrations/${created.body.id}`, { option_interval_seconds: 10 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toMatch(/^options\.interval_seconds/);
    const after = await shown(created.body);
    expect(after.options).toEqual(created.body.options);
    expect(after.updated_at).toBe(created.body.updated_at);
    // Another type takes no heartbeat: a webhook integration shows none.
    const webhook = await admin.post('/api/v4/integrations', {
      name: 'Plain',
      urgency: 'low',
      integration_type_id: 'webhook',
      account_user_ids: [pager.id],
    });
    expect(webhook.body.heartbeat).toBeUndefined();
  });

  it('lists the type in the catalogue with its two options', async () => {
    const res = await admin.get('/api/v4/integration_types/heartbeat');
    expect(res.status).toBe(200);
    expect(res.body.options.map((o: { name: string; type: string }) => [o.name, o.type])).toEqual([
      ['interval_seconds', 'integer'],
      ['grace_seconds', 'integer'],
      ['token', 'string'],
    ]);
  });

  it('divides interval and grace by TIME_SCALE', async () => {
    const undo = changeEnvironment({ TIME_SCALE: '60' });
    try {
      const integration = await heartbeat();
      const due = Date.parse((await shown(integration)).heartbeat.next_due_at);
      expect(due - testClock.now()).toBe(WINDOW_MS / 60);
    } finally {
      undo();
    }
  });
});

describe('beats', () => {
  it('takes a POST (any body, ignored) and a GET without credentials as a beat: 202, logged, status up', async () => {
    const integration = await heartbeat();
    const created = await shown(integration);
    expect(created.heartbeat.status).toBe('waiting');
    expect(Date.parse(created.heartbeat.next_due_at) - testClock.now()).toBe(WINDOW_MS);

    testClock.advance(60_000);
    const posted = await beat(integration, 'POST', '{"not": "read"');
    expect(posted.status).toBe(202);
    expect(posted.body.log_id).toMatch(/^log_/);
    const up = await shown(integration);
    expect(up.heartbeat).toEqual({
      status: 'up',
      last_beat_at: new Date(testClock.now()).toISOString(),
      next_due_at: new Date(testClock.now() + WINDOW_MS).toISOString(),
    });

    testClock.advance(60_000);
    const got = await beat(integration, 'GET');
    expect(got.status).toBe(202);
    expect((await shown(integration)).heartbeat.last_beat_at).toBe(new Date(testClock.now()).toISOString());

    const log = await admin.get(`/log/${String(got.body.log_id)}`);
    expect(log.status, log.text).toBe(200);
    expect(log.body).toMatchObject({ subtype: 'INCOMING', owner_id: integration.prefix_id, status: 'processed' });
    expect(log.body.content).toMatch(/^Heartbeat to int_\w+ \(GET/);
    const postLog = await admin.get(`/log/${String(posted.body.log_id)}`);
    expect(postLog.body.data.body).toBe('');
    expect(await alertsOf(integration)).toEqual([]);
  });

  it('keeps GET /integration/:id with credentials the earlier interface’s read, showing the heartbeat in its own fields', async () => {
    const integration = await heartbeat();
    await beat(integration);
    const res = await admin.get(inboundPath(integration));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: integration.prefix_id, type: 'heartbeat' });
    expect(res.body.heartbeat).toEqual({
      status: 'up',
      last_beat: Math.floor(testClock.now() / 1000),
      next_due: Math.floor((testClock.now() + WINDOW_MS) / 1000),
    });
    // Bad credentials are still refused, not taken as a beat.
    const forged = await fetch(`${service.url}${inboundPath(integration)}`, { headers: { authorization: 'Bearer nope' } });
    expect(forged.status).toBe(401);
  });

  it('leaves a GET without credentials of another type a 401, and refuses unknown (404), disabled (405) and tokenless (403) beats', async () => {
    const webhook = await admin.post('/api/v4/integrations', {
      name: 'Plain',
      urgency: 'low',
      integration_type_id: 'webhook',
      account_user_ids: [pager.id],
    });
    expect((await beat(webhook.body, 'GET')).status).toBe(401);
    expect((await beat({ prefix_id: 'int_01KDVDNA09HB7T2XQ4M8RZ6KCE' }, 'POST')).status).toBe(404);
    const disabled = await heartbeat({ enabled: false });
    expect((await beat(disabled, 'POST')).status).toBe(405);
    expect((await beat(disabled, 'GET')).status).toBe(405);
    const guarded = await heartbeat({ options: { interval_seconds: INTERVAL, token: 's3cret' } });
    expect((await beat(guarded, 'GET')).status).toBe(403);
    const withToken = await fetch(`${service.url}${inboundPath(guarded)}`, { headers: { 'pagertree-token': 's3cret' } });
    expect(withToken.status).toBe(202);
  });

  it('hides another account’s heartbeat (404) from reads and writes', async () => {
    const integration = await heartbeat();
    const other = await signupAccount(service, 'Stranger');
    expect((await other.client.get(`/api/v4/integrations/${integration.id}`)).status).toBe(404);
    expect((await other.client.get(`/integration/${integration.prefix_id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/integrations/${integration.id}`, { option_interval_seconds: 60 })).status).toBe(404);
  });
});

// Each test passes several windows of sweeps: minutes on a loaded machine or on moto, not 30 s.
describe('a missed deadline', { timeout: 240_000 }, () => {
  it('opens one alert that pages, shows missed, and the next beat resolves it by the integration', { tags: ['moto'] }, async () => {
    const integration = await heartbeat();
    await beat(integration);
    await passTime(service, WINDOW_MS - 5_000);
    expect(await alertsOf(integration)).toEqual([]);
    expect((await shown(integration)).heartbeat.status).toBe('up');

    await passTime(service, 5_000);
    const [alert] = await alertsOf(integration);
    expect(alert).toMatchObject({
      title: `Heartbeat missed: ${integration.name}`,
      urgency: 'critical',
      source_type: 'Integration',
      source_id: integration.id,
      destination_account_user_ids: [pager.id],
    });
    expect(['open', 'acknowledged']).toContain(alert.status);
    expect((await shown(integration)).heartbeat.status).toBe('missed');
    expect(pagedPeople(await sentFor(admin, alert.id, (sent) => pagedPeople(sent).length === 1))).toEqual([pager.id]);

    // Still missing a window later: still the one alert.
    await passTime(service, WINDOW_MS * 2);
    expect(await alertsOf(integration)).toHaveLength(1);

    const back = await beat(integration, 'GET');
    expect(back.status).toBe(202);
    const resolved = (await admin.get(`/api/v4/alerts/${alert.id}`)).body;
    expect(resolved.status).toBe('resolved');
    const earlier = (await admin.get(`/alert/alt_${alert.id}`)).body;
    expect(earlier.resolvedby).toBe(integration.prefix_id);
    const now = await shown(integration);
    expect(now.heartbeat.status).toBe('up');
    expect(Date.parse(now.heartbeat.next_due_at)).toBe(Date.parse(now.heartbeat.last_beat_at) + WINDOW_MS);
    const log = await admin.get(`/log/${String(back.body.log_id)}`);
    expect(log.body.data.result).toMatchObject({ actions: [{ action: 'beat', outcome: 'resolved' }], alert_ids: [alert.id] });
    await settle(service);
    const pagedBefore = (await notificationsOf(admin, alert.id)).length;

    // The next miss opens a new alert; in between, nothing more was paged for the first.
    await passTime(service, WINDOW_MS);
    const alerts = await alertsOf(integration);
    expect(alerts).toHaveLength(2);
    expect((await notificationsOf(admin, alert.id)).length).toBe(pagedBefore);
  });

  it('counts from creation when no beat ever came', async () => {
    const integration = await heartbeat();
    await passTime(service, WINDOW_MS - 1_000);
    expect(await alertsOf(integration)).toEqual([]);
    expect((await shown(integration)).heartbeat.status).toBe('waiting');
    await passTime(service, 1_000);
    expect(await alertsOf(integration)).toHaveLength(1);
  });

  it('follows beats that come more often than the window: the due entry catches up, no alert', { tags: ['moto'] }, async () => {
    const integration = await heartbeat();
    // Three beats 200 s apart: 600 s in all, past the first deadline (360 s) that a due entry which
    // did not catch up would still hold.
    for (let i = 0; i < 3; i++) {
      await passTime(service, 200_000);
      expect((await beat(integration)).status).toBe(202);
    }
    await opensAtTheDeadline(integration);
  });

  it('opens one alert when two sweeps race for the same miss', { tags: ['moto'] }, async () => {
    const integration = await heartbeat();
    await beat(integration);
    await settle(service);
    testClock.advance(WINDOW_MS);
    const claims = holdAwsCalls(
      (call) =>
        call.operation === 'UpdateItem' &&
        itemKeyOf(call)?.pk === `INT#${integration.id}#HEARTBEAT` &&
        String(call.input.UpdateExpression).startsWith('SET alert_id'),
      1,
    );
    try {
      // The first sweep read the state and is about to claim the miss; the second reads it too, claims
      // it and opens the alert; then the first one's claim reaches the table.
      type Sweep = { heartbeats: { opened: number } };
      const first = service.runtime.runScheduled('sweeper') as Promise<Sweep>;
      const held = await claims.next();
      const second = (await service.runtime.runScheduled('sweeper')) as Sweep;
      expect(second.heartbeats.opened).toBe(1);
      expect(await alertsOf(integration)).toHaveLength(1);
      await held.release();
      // Its claim was refused: it opened nothing (the alert's derived id is only the second guard).
      expect((await first).heartbeats.opened).toBe(0);
    } finally {
      claims.open();
    }
    await runDueSweeps(service);
    expect(await alertsOf(integration)).toHaveLength(1);
  });

  it('opens no alert during a maintenance window, and opens it when the window ends with the beat still missing', async () => {
    const integration = await heartbeat();
    const start = testClock.now();
    const window = await admin.post('/api/v4/maintenance_windows', {
      name: 'Backup server swap',
      start_datetime: new Date(start).toISOString(),
      end_datetime: new Date(start + 2 * WINDOW_MS).toISOString(),
      time_zone: 'UTC',
      integration_ids: [integration.id],
    });
    expect(window.status, window.text).toBe(201);
    await passTime(service, WINDOW_MS + 10_000);
    expect(await alertsOf(integration)).toEqual([]);
    expect((await shown(integration)).heartbeat.status).toBe('missed');
    await passTime(service, WINDOW_MS - 20_000);
    expect(await alertsOf(integration)).toEqual([]);
    await passTime(service, 10_000);
    const alerts = await alertsOf(integration);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].title).toBe(`Heartbeat missed: ${integration.name}`);
  });

  it('lets a beat during a window count: no alert when the window ends', async () => {
    const integration = await heartbeat();
    const start = testClock.now();
    await admin.post('/api/v4/maintenance_windows', {
      name: 'Quiet',
      start_datetime: new Date(start).toISOString(),
      end_datetime: new Date(start + WINDOW_MS + 60_000).toISOString(),
      time_zone: 'UTC',
      integration_ids: [integration.id],
    });
    await passTime(service, WINDOW_MS + 10_000);
    const during = await beat(integration);
    expect(during.status).toBe(202);
    expect(during.body.ignored).toBeUndefined();
    await passTime(service, 60_000);
    expect(await alertsOf(integration)).toEqual([]);
    expect((await shown(integration)).heartbeat.status).toBe('up');
  });

  it('opens nothing while disabled, and counts again from when it is enabled', async () => {
    const integration = await heartbeat();
    expect((await admin.put(`/api/v4/integrations/${integration.id}`, { enabled: false })).status).toBe(200);
    await passTime(service, WINDOW_MS * 2);
    expect(await alertsOf(integration)).toEqual([]);
    expect((await admin.put(`/api/v4/integrations/${integration.id}`, { enabled: true })).status).toBe(200);
    const shownNow = await shown(integration);
    expect(shownNow.heartbeat.status).toBe('waiting');
    await opensAtTheDeadline(integration);
  });

  it('moves the deadline when the interval changes, and forgets a deleted heartbeat', async () => {
    const integration = await heartbeat();
    await beat(integration);
    const shorter = await admin.put(`/api/v4/integrations/${integration.id}`, { options: { interval_seconds: 60, grace_seconds: 0 } });
    expect(shorter.status, shorter.text).toBe(200);
    expect(Date.parse(shorter.body.heartbeat.next_due_at) - Date.parse(shorter.body.heartbeat.last_beat_at)).toBe(60_000);
    await passTime(service, 60_000);
    expect(await alertsOf(integration)).toHaveLength(1);

    const gone = await heartbeat();
    expect((await admin.delete(`/api/v4/integrations/${gone.id}`)).status).toBe(204);
    await passTime(service, WINDOW_MS);
    expect(await alertsOf(gone)).toEqual([]);
    expect((await beat(gone)).status).toBe(404);
  });

  it('shows the heartbeat in lists and filters on its status', async () => {
    const integration = await heartbeat();
    const listed = await admin.get(`/api/v4/integrations?limit=100`);
    const mine = listed.body.data.find((i: { id: string }) => i.id === integration.id);
    expect(mine.heartbeat.status).toBe('waiting');
    const waiting = await admin.get(`/api/v4/integrations?limit=100&heartbeat.status=waiting`);
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.body.data.map((i: { id: string }) => i.id)).toContain(integration.id);
    expect(waiting.body.data.every((i: { heartbeat?: { status: string } }) => i.heartbeat?.status === 'waiting')).toBe(true);
    const earlier = await admin.get('/integration?limit=100');
    expect(earlier.body.data.find((i: { id: string }) => i.id === integration.prefix_id).heartbeat.status).toBe('waiting');
  });
});
