// Keeping what the sender sent, through the real local server: the alert's additional_data (v4 and
// the earlier interface), binary bodies kept as base64, and every integration's inbound `url`.
import { describe, expect, it } from 'vitest';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { useService, type TestService } from '../support/runtime';
import { createIntegration, eventually, postRaw, senderFixture, settledAlerts } from '../integrations/support';

let service: TestService;

useService(async (started) => {
  service = started;
});

async function settledLog(accountId: string, logPrefixId: string): Promise<IncomingLog> {
  return eventually(
    async () => {
      const log = await getIncomingLog(accountId, logPrefixId.replace(/^log_/, ''));
      return log && log.status !== 'pending' ? log : undefined;
    },
    15_000,
    `log ${logPrefixId}`,
  );
}

describe('what the sender said stays on the alert', () => {
  it('Alertmanager: the alert name as title, summary and description, and the rest as additional_data', async () => {
    const prometheus = await createIntegration(service.admin, { type: 'prometheus' });
    const body = JSON.parse(senderFixture('prometheus/alertmanager-firing.json')) as Record<string, any>;
    body.groupKey = `{}:{alertname="Details-${Date.now()}"}`;
    body.commonAnnotations.runbook_url = 'https://runbooks.example.org/latency';
    const res = await postRaw(service.url, `/integration/${prometheus.prefix_id}`, JSON.stringify(body), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(202);

    const [alert] = await settledAlerts(service.admin, body.groupKey);
    expect(alert.title).toBe('HighRequestLatency');
    expect(alert.description).toBe('High request latency\n\napi-1:9090 has a 99th percentile latency above 1s for 10 minutes.');
    expect(alert.additional_data).toEqual([
      { type: 'json', label: 'commonLabels', value: body.commonLabels },
      { type: 'link', label: 'runbook_url', value: 'https://runbooks.example.org/latency' },
      { type: 'link', label: 'externalURL', value: 'http://alertmanager.example.org:9093' },
      { type: 'number', label: 'alerts_firing', value: 1 },
      {
        type: 'json',
        label: 'alerts[0]',
        value: { labels: body.alerts[0].labels, startsAt: body.alerts[0].startsAt, generatorURL: body.alerts[0].generatorURL },
      },
    ]);
    const earlier = await service.admin.get(`/alert/${alert.prefix_id}`);
    expect(earlier.body.additional_data).toEqual(alert.additional_data);
  });
});

describe('binary bodies', () => {
  it('are stored as base64 with a marker, byte for byte, and the log says the adapter could not read them', async () => {
    const webhook = await createIntegration(service.admin, { type: 'webhook' });
    const bytes = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x80, 0x00, 0x41, 0xc3]);
    for (const contentType of ['application/octet-stream', 'text/plain']) {
      const res = await fetch(`${service.url}/integration/${webhook.prefix_id}`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': contentType },
      });
      expect(res.status, contentType).toBe(202);
      const { log_id: logId } = (await res.json()) as { log_id: string };
      const log = await settledLog(webhook.account_id as string, logId);
      expect(log.data.body_encoding).toBe('base64');
      expect(Buffer.from(log.data.body, 'base64').equals(bytes)).toBe(true);
      expect(log.content).toMatch(/\(10 bytes, binary, stored base64\)/);
      expect(log).toMatchObject({ status: 'failed', reason: expect.stringMatching(/binary/) });
    }
  });

  it('UTF-8 text stays text, whatever its content type', async () => {
    const webhook = await createIntegration(service.admin, { type: 'webhook' });
    const text = JSON.stringify({ title: 'Zürich ☃ down', id: `utf8-${Date.now()}` });
    const res = await fetch(`${service.url}/integration/${webhook.prefix_id}`, {
      method: 'POST',
      body: Buffer.from(text),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const { log_id: logId } = (await res.json()) as { log_id: string };
    const log = await settledLog(webhook.account_id as string, logId);
    expect(log.data.body).toBe(text);
    expect(log.data.body_encoding).toBeUndefined();
  });
});

describe("an integration's inbound url", () => {
  it('is shown on v4 and the earlier interface, built from the host the request used', async () => {
    const created = await createIntegration(service.admin, { type: 'webhook' });
    const expected = `${service.url}/integration/${created.prefix_id}`;
    expect(created.url).toBe(expected);
    expect((await service.admin.get(`/api/v4/integrations/${created.id}`)).body.url).toBe(expected);
    const list = await service.admin.get('/api/v4/integrations?limit=100');
    expect(list.body.data.find((i: { id: string }) => i.id === created.id).url).toBe(expected);
    const earlier = await service.admin.get(`/integration/${created.prefix_id}`);
    expect(earlier.body.url).toBe(expected);
    const earlierList = await service.admin.get('/integration?limit=100');
    expect(earlierList.body.data.find((i: { id: string }) => i.id === created.prefix_id).url).toBe(expected);
    const updated = await service.admin.put(`/api/v4/integrations/${created.id}`, { name: 'renamed' });
    expect(updated.body.url).toBe(expected);

    // The address works: a webhook posted to it is accepted.
    expect((await postRaw('', expected, JSON.stringify({ title: 'via url' }), { 'content-type': 'application/json' })).status).toBe(202);
  });

  it('follows a proxy’s x-forwarded-proto and x-forwarded-host', async () => {
    const created = await createIntegration(service.admin, { type: 'webhook' });
    const behindProxy = await service.admin.get(`/api/v4/integrations/${created.id}`, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'oncall.example.com',
    });
    expect(behindProxy.body.url).toBe(`https://oncall.example.com/integration/${created.prefix_id}`);
  });
});
