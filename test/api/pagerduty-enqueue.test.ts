// PagerDuty Events API v2 drop-in (docs/api.md#pagerduty-events-api-v2-drop-in): POST /v2/enqueue through the real local server, with
// the events PagerDuty documents and the ones Alertmanager 0.25's pagerduty_configs sends.
import { describe, expect, it } from 'vitest';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import {
  alertById,
  alertsWithThirdpartyId,
  createIntegration,
  eventually,
  postRaw,
  senderFixture,
  settledAlerts,
} from '../integrations/support';

let service: TestService;
let pagerduty: { id: string; prefix_id: string; account_id: string };

useService(async (started) => {
  service = started;
  pagerduty = (await createIntegration(service.admin, { type: 'pagerduty_events_v2', urgency: 'medium' })) as typeof pagerduty;
});

const JSON_TYPE = { 'content-type': 'application/json' };
const uid = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
const enqueue = (event: unknown, headers: Record<string, string> = JSON_TYPE) =>
  postRaw(service.url, '/v2/enqueue', typeof event === 'string' ? event : JSON.stringify(event), headers);

/** A PagerDuty event from a fixture, routed to `routingKey`. */
function fixtureEvent(path: string, routingKey: string, changes: Record<string, unknown> = {}): Record<string, any> {
  return { ...(JSON.parse(senderFixture(path)) as Record<string, unknown>), routing_key: routingKey, ...changes };
}

async function logCount(integration: { prefix_id: string }): Promise<number> {
  const res = await service.admin.get(`/log?owner_id=${integration.prefix_id}&limit=1`);
  expect(res.status).toBe(200);
  return res.body.total_count as number;
}

async function settledLogOf(accountId: string, logId: string): Promise<IncomingLog> {
  return eventually(
    async () => {
      const log = await getIncomingLog(accountId, logId);
      return log && log.status !== 'pending' ? log : undefined;
    },
    15_000,
    `log ${logId}`,
  );
}

describe('POST /v2/enqueue: accepted events', () => {
  it("answers PagerDuty's 202 and makes the alert from the documented trigger, keeping what it says", async () => {
    const dedupKey = uid('srv01/mysql');
    const res = await enqueue(fixtureEvent('pagerduty/trigger.json', pagerduty.prefix_id, { dedup_key: dedupKey }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: dedupKey });

    const [alert] = await settledAlerts(service.admin, dedupKey);
    expect(alert).toMatchObject({
      title: 'DISK at 99% on machine prod-datapipe03.example.com',
      urgency: 'critical',
      status: 'open',
      thirdparty_id: dedupKey,
      source_type: 'Integration',
      source_id: pagerduty.id,
    });
    // payload.custom_details, links, images, component, group, class and source stay on the alert,
    // in v4 and on the earlier interface.
    expect(alert.additional_data).toEqual(
      expect.arrayContaining([
        { type: 'string', label: 'source', value: 'prod-datapipe03.example.com' },
        { type: 'string', label: 'component', value: 'mysql' },
        { type: 'string', label: 'group', value: 'prod-datapipe' },
        { type: 'string', label: 'class', value: 'disk' },
        { type: 'string', label: 'custom_details.free space', value: '1%' },
        { type: 'link', label: 'Link text', value: 'https://example.com/' },
        { type: 'image', label: 'Example text', value: 'https://www.pagerduty.com/wp-content/uploads/2016/05/pagerduty-logo-green.png' },
        { type: 'link', label: 'Sample Monitoring Service', value: 'https://monitoring.example.com' },
      ]),
    );
    const earlier = await service.admin.get(`/alert/${alert.prefix_id}`);
    expect(earlier.body.additional_data).toEqual(alert.additional_data);
  });

  it('generates a dedup_key for a trigger without one, and acknowledge and resolve with it act on the alert', async () => {
    const summary = uid('Example alert on host1.example.com');
    const trigger = fixtureEvent('pagerduty/trigger.json', pagerduty.id, { payload: { summary, source: 'host1', severity: 'info' } });
    delete trigger.dedup_key;
    const res = await enqueue(trigger);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: expect.stringMatching(/^log_[0-9A-Z]{26}$/) });
    const dedupKey = res.body.dedup_key as string;

    const [alert] = await settledAlerts(service.admin, dedupKey);
    expect(alert).toMatchObject({ title: summary, urgency: 'low', status: 'open' });

    const ack = await enqueue({ routing_key: pagerduty.id, dedup_key: dedupKey, event_action: 'acknowledge' });
    expect(ack.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: dedupKey });
    await eventually(async () => ((await alertById(service.admin, alert.id)).status === 'acknowledged' ? true : undefined));
    await enqueue({ routing_key: pagerduty.id, dedup_key: dedupKey, event_action: 'resolve' });
    await eventually(async () => ((await alertById(service.admin, alert.id)).status === 'resolved' ? true : undefined));
  });

  it('reads the event as JSON whatever its Content-Type says (curl -d sends a form type)', async () => {
    const dedupKey = uid('curl');
    const body = JSON.stringify(fixtureEvent('pagerduty/trigger.json', pagerduty.id, { dedup_key: dedupKey }));
    const res = await enqueue(body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(202);
    const [alert] = await settledAlerts(service.admin, dedupKey);
    expect(alert.title).toBe('DISK at 99% on machine prod-datapipe03.example.com');
  });

  it('reads the body as PagerDuty events whatever the type of the integration the routing key names', async () => {
    const webhook = await createIntegration(service.admin, { type: 'webhook', urgency: 'medium' });
    const dedupKey = uid('pd-on-webhook');
    const res = await enqueue(fixtureEvent('pagerduty/trigger.json', webhook.prefix_id, { dedup_key: dedupKey }));
    expect(res.status).toBe(202);
    const [alert] = await settledAlerts(service.admin, dedupKey);
    expect(alert).toMatchObject({
      title: 'DISK at 99% on machine prod-datapipe03.example.com',
      urgency: 'critical',
      source_id: webhook.id,
    });
  });

  it("takes Alertmanager 0.25's pagerduty_configs trigger and resolve", async () => {
    const routingKey = pagerduty.prefix_id;
    const trigger = senderFixture('pagerduty/alertmanager-0.25-trigger.json').replace('ROUTING_KEY', routingKey);
    const headers = { 'content-type': 'application/json', 'user-agent': 'Alertmanager/0.25.0' };
    const res = await postRaw(service.url, '/v2/enqueue', trigger, headers);
    expect(res.status).toBe(202);
    const dedupKey = 'bdea44490db2ddddccbf19d07b41ccc3d811f87f1ad241672f3d1e0b60b25d3b';
    expect(res.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: dedupKey });

    const [alert] = await settledAlerts(service.admin, dedupKey);
    expect(alert).toMatchObject({ title: '[FIRING:1] HighRequestLatency (api-1:9090 api critical)', urgency: 'high', status: 'open' });
    expect(alert.additional_data).toEqual(
      expect.arrayContaining([
        { type: 'string', label: 'custom_details.firing', value: expect.stringContaining('alertname = HighRequestLatency') },
        { type: 'string', label: 'custom_details.num_firing', value: '1' },
        { type: 'link', label: 'Alertmanager', value: 'http://alertmanager.example.org:9093/#/alerts?receiver=pagerduty' },
      ]),
    );

    const resolve = senderFixture('pagerduty/alertmanager-0.25-resolve.json').replace('ROUTING_KEY', routingKey);
    expect((await postRaw(service.url, '/v2/enqueue', resolve, headers)).status).toBe(202);
    await eventually(async () => ((await alertById(service.admin, alert.id)).status === 'resolved' ? true : undefined));
    expect(await alertsWithThirdpartyId(service.admin, dedupKey)).toHaveLength(1);
  });

  it('the same Alertmanager events posted to POST /integration/:id keep the usual 202 {log_id}', async () => {
    const integration = await createIntegration(service.admin, { type: 'pagerduty_events_v2', urgency: 'medium' });
    const dedupKey = 'bdea44490db2ddddccbf19d07b41ccc3d811f87f1ad241672f3d1e0b60b25d3b';
    const trigger = senderFixture('pagerduty/alertmanager-0.25-trigger.json').replace('ROUTING_KEY', 'ignored-here');
    const res = await postRaw(service.url, `/integration/${integration.prefix_id}`, trigger, JSON_TYPE);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ log_id: expect.stringMatching(/^log_/) });
    const alerts = await eventually(async () => {
      const found = (await alertsWithThirdpartyId(service.admin, dedupKey)).filter((a) => a.source_id === integration.id);
      return found.length > 0 ? found : undefined;
    });
    expect(alerts[0]).toMatchObject({ title: '[FIRING:1] HighRequestLatency (api-1:9090 api critical)', status: 'open' });

    const resolve = senderFixture('pagerduty/alertmanager-0.25-resolve.json');
    expect((await postRaw(service.url, `/integration/${integration.prefix_id}`, resolve, JSON_TYPE)).status).toBe(202);
    await eventually(async () => ((await alertById(service.admin, alerts[0].id)).status === 'resolved' ? true : undefined));
  });

  it("counts a sender's retry onto the open alert, as POST /integration/:id does", async () => {
    const dedupKey = uid('retry');
    const event = fixtureEvent('pagerduty/trigger.json', pagerduty.id, { dedup_key: dedupKey });
    expect((await enqueue(event)).status).toBe(202);
    await settledAlerts(service.admin, dedupKey);
    expect((await enqueue(event)).status).toBe(202);
    const alert = await eventually(async () => {
      const [found] = await alertsWithThirdpartyId(service.admin, dedupKey);
      return found?.dedup_count === 2 ? found : undefined;
    });
    expect(await alertsWithThirdpartyId(service.admin, dedupKey)).toHaveLength(1);
    expect(alert.dedup_count).toBe(2);
  });

  it('logs an event during a maintenance window and makes no alert', async () => {
    const quiet = await createIntegration(service.admin, { type: 'pagerduty_events_v2' });
    const window = await service.admin.post('/api/v4/maintenance_windows', {
      name: 'Deploy',
      start_datetime: new Date(Date.now() - 60_000).toISOString(),
      end_datetime: new Date(Date.now() + 3_600_000).toISOString(),
      time_zone: 'UTC',
      integration_ids: [quiet.prefix_id],
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    const dedupKey = uid('quiet');
    const res = await enqueue(fixtureEvent('pagerduty/trigger.json', quiet.id, { dedup_key: dedupKey }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: dedupKey });
    const logs = await service.admin.get(`/log?owner_id=${quiet.prefix_id}&limit=10`);
    expect(logs.body.data).toHaveLength(1);
    expect(logs.body.data[0]).toMatchObject({ status: 'ignored', reason: 'maintenance_window' });
    await settle(service);
    expect(await alertsWithThirdpartyId(service.admin, dedupKey)).toHaveLength(0);
  });

  it('stores the event as received, marked for the PagerDuty adapter', async () => {
    const integration = await createIntegration(service.admin, { type: 'grafana' });
    const body = JSON.stringify(fixtureEvent('pagerduty/acknowledge.json', integration.id, { dedup_key: uid('nothing') }));
    expect((await enqueue(body)).status).toBe(202);
    const logs = await service.admin.get(`/log?owner_id=${integration.prefix_id}&limit=1`);
    const log = await settledLogOf(integration.account_id as string, logs.body.data[0].id.replace(/^log_/, ''));
    expect(log.data.body).toBe(body);
    expect(log.data.adapter).toBe('pagerduty_events_v2');
    expect(log).toMatchObject({ status: 'processed', subtype: 'INCOMING' });
  });
});

describe('POST /v2/enqueue: refused events, in PagerDuty’s shape, with nothing stored', () => {
  const invalid = (errors: unknown) => ({ status: 'invalid event', message: 'Event object is invalid', errors });

  it.each<[string, (key: string) => unknown, string[]]>([
    ['malformed JSON', () => '{"routing_key": ', ['Event object is not valid JSON']],
    ['an array', () => '[]', ['Event object must be a JSON object']],
    [
      'no routing_key',
      () => ({ event_action: 'trigger', payload: { summary: 's', source: 'h', severity: 'info' } }),
      ["'routing_key' is missing or blank"],
    ],
    [
      'an unknown routing_key',
      () => ({ routing_key: 'int_01ARZ3NDEKTSV4RRFFQ69G5FAV', event_action: 'resolve', dedup_key: 'd' }),
      ['Invalid routing key'],
    ],
    [
      'a routing_key of another kind',
      (key) => ({ routing_key: key.replace(/^int_/, 'tem_'), event_action: 'resolve', dedup_key: 'd' }),
      ['Invalid routing key'],
    ],
    [
      'an unknown event_action',
      (key) => ({ routing_key: key, event_action: 'snooze', dedup_key: 'd' }),
      ["'event_action' is invalid (must be one of: trigger, acknowledge, resolve)"],
    ],
    [
      'a trigger without summary, source or a valid severity',
      (key) => ({ routing_key: key, event_action: 'trigger', payload: { severity: 'fatal' } }),
      [
        "'payload.summary' is missing or blank",
        "'payload.source' is missing or blank",
        "'payload.severity' is invalid (must be one of: critical, error, warning, info)",
      ],
    ],
    ['an acknowledge without dedup_key', (key) => ({ routing_key: key, event_action: 'acknowledge' }), ["'dedup_key' is missing or blank"]],
    [
      'a resolve without dedup_key',
      (key) => ({ routing_key: key, event_action: 'resolve', dedup_key: '  ' }),
      ["'dedup_key' is missing or blank"],
    ],
    [
      'a summary over 1024 characters',
      (key) => ({ routing_key: key, event_action: 'trigger', payload: { summary: 's'.repeat(1025), source: 'h', severity: 'info' } }),
      ["'payload.summary' is too long (maximum is 1024 characters)"],
    ],
  ])('400 for %s', async (_name, build, errors) => {
    const before = await logCount(pagerduty);
    const res = await enqueue(build(pagerduty.prefix_id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(errors));
    expect(await logCount(pagerduty)).toBe(before);
  });

  it('400 for a disabled integration, as for a key that cannot be used', async () => {
    const disabled = await createIntegration(service.admin, { type: 'pagerduty_events_v2', enabled: false });
    const res = await enqueue(fixtureEvent('pagerduty/trigger.json', disabled.prefix_id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(['Invalid routing key: the integration is disabled']));
    expect(await logCount(disabled)).toBe(0);
  });

  it('429 with Retry-After when the integration’s rate limit is used up', async () => {
    const limited = await createIntegration(service.admin, {
      type: 'pagerduty_events_v2',
      option_rate_limit_burst: 2,
      option_rate_limit_per_minute: 1,
    });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof enqueue>> | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await enqueue(fixtureEvent('pagerduty/trigger.json', limited.id, { dedup_key: `limited-${i}` }));
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses).toEqual([202, 202, 429]);
    expect(refused!.body).toMatchObject({ status: 'throttle event', message: expect.any(String) });
    // One token a minute, the last taken just now: the next comes in about 60 s.
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(58);
    expect(Number(refused!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await logCount(limited)).toBe(2);
  });

  it('403 when the integration has option_token and the header is missing', async () => {
    const secured = await createIntegration(service.admin, { type: 'pagerduty_events_v2', option_token: 'sesame' });
    const refused = await enqueue(fixtureEvent('pagerduty/trigger.json', secured.id));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 'forbidden', errors: [expect.stringMatching(/pagertree-token/)] });
    expect((await enqueue(fixtureEvent('pagerduty/trigger.json', secured.id), { ...JSON_TYPE, 'pagertree-token': 'sesame' })).status).toBe(
      202,
    );
  });

  it('413 for a body over 256 KiB', async () => {
    const event = fixtureEvent('pagerduty/trigger.json', pagerduty.id, { padding: 'x'.repeat(256 * 1024) });
    const res = await enqueue(event);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 'invalid event' });
  });
});
