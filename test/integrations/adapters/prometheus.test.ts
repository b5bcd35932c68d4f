import { describe, expect, it } from 'vitest';
import { adaptPayload, type Urgency } from '../../../lib/integrations/adapters';
import { fixture, fixtureJson, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('prometheus', input);
const GROUP_KEY = '{}/{severity="critical"}:{alertname="HighRequestLatency"}';

describe('prometheus (Alertmanager) adapter', () => {
  it('creates one alert for a firing group, named by its groupKey, keeping what the group says', () => {
    expect(adapt(request(fixture('prometheus/alertmanager-firing.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: GROUP_KEY,
        alert: {
          title: 'HighRequestLatency',
          // Every common annotation that explains: summary, then description.
          description: 'High request latency\n\napi-1:9090 has a 99th percentile latency above 1s for 10 minutes.',
          urgency: 'critical',
          additionalData: [
            {
              type: 'json',
              label: 'commonLabels',
              value: { alertname: 'HighRequestLatency', instance: 'api-1:9090', job: 'api', severity: 'critical' },
            },
            { type: 'link', label: 'externalURL', value: 'http://alertmanager.example.org:9093' },
            { type: 'number', label: 'alerts_firing', value: 1 },
            {
              type: 'json',
              label: 'alerts[0]',
              value: {
                labels: { alertname: 'HighRequestLatency', instance: 'api-1:9090', job: 'api', severity: 'critical' },
                startsAt: '2026-03-02T10:15:30.123Z',
                generatorURL: 'http://prometheus.example.org:9090/graph?g0.expr=job%3Aapi_request_latency_seconds%3Ap99+%3E+1&g0.tab=1',
              },
            },
          ],
        },
      },
    ]);
  });

  it('keeps runbook_url and other common annotations, and each firing alert with its own annotations', () => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    (payload.commonAnnotations as Record<string, unknown>).runbook_url = 'https://runbooks.example.org/latency';
    const second = structuredClone((payload.alerts as Array<Record<string, any>>)[0]);
    second.labels.instance = 'api-2:9090';
    second.annotations = { ...second.annotations, dashboard: 'https://grafana.example.org/d/api' };
    const resolved = { ...structuredClone(second), status: 'resolved' };
    payload.alerts = [...(payload.alerts as unknown[]), second, resolved];

    const [action] = adapt(request(payload));
    const data = action.action === 'create' ? action.alert.additionalData! : [];

    expect(data).toContainEqual({ type: 'link', label: 'runbook_url', value: 'https://runbooks.example.org/latency' });
    expect(data).toContainEqual({ type: 'number', label: 'alerts_firing', value: 2 });
    expect(data.map((d) => d.label)).toEqual(['commonLabels', 'runbook_url', 'externalURL', 'alerts_firing', 'alerts[0]', 'alerts[1]']);
    expect(data[5].value).toMatchObject({
      labels: { instance: 'api-2:9090' },
      annotations: { dashboard: 'https://grafana.example.org/d/api' },
      startsAt: '2026-03-02T10:15:30.123Z',
    });
  });

  it('caps what it keeps, with a marker, when a group is huge', () => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    const template = (payload.alerts as Array<Record<string, any>>)[0];
    payload.alerts = Array.from({ length: 300 }, (_, i) => ({
      ...structuredClone(template),
      labels: { ...template.labels, instance: `api-${i}:9090` },
    }));

    const [action] = adapt(request(payload));
    const data = action.action === 'create' ? action.alert.additionalData! : [];

    expect(data.length).toBeLessThanOrEqual(50);
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThan(20 * 1024);
    expect(data.at(-1)).toMatchObject({ label: 'truncated', value: expect.stringMatching(/^\d+ more detail\(s\) \(\d+ bytes\) not kept/) });
    expect(data).toContainEqual({ type: 'number', label: 'alerts_firing', value: 300 });
  });

  it('resolves the group when it is resolved', () => {
    expect(adapt(request(fixture('prometheus/alertmanager-resolved.json')))).toEqual([{ action: 'resolve', thirdpartyId: GROUP_KEY }]);
  });

  it('treats a re-sent group with fewer common labels as the same alert', () => {
    const [first] = adapt(request(fixture('prometheus/alertmanager-firing.json')));
    const [again] = adapt(request(fixture('prometheus/alertmanager-firing-fewer-common-labels.json')));

    expect(again).toMatchObject({ action: 'create', thirdpartyId: GROUP_KEY, alert: { title: 'HighRequestLatency' } });
    expect(again.action === 'create' && again.thirdpartyId).toBe(first.action === 'create' && first.thirdpartyId);
  });

  it.each<[string | undefined, Urgency]>([
    ['critical', 'critical'],
    ['high', 'high'],
    ['error', 'high'],
    ['page', 'high'],
    ['warning', 'medium'],
    ['warn', 'medium'],
    ['medium', 'medium'],
    ['info', 'low'],
    ['low', 'low'],
    ['Critical', 'critical'],
    ['disaster', 'silent'],
    [undefined, 'silent'],
  ])('maps severity %s to urgency %s (else the integration urgency)', (severity, urgency) => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    const labels = payload.commonLabels as Record<string, unknown>;
    if (severity === undefined) delete labels.severity;
    else labels.severity = severity;

    const [action] = adapt(request(payload, { urgency: 'silent' }));

    expect(action).toMatchObject({ action: 'create', alert: { urgency } });
  });

  it('describes the alert by the first alert’s annotations when the group has none in common', () => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    payload.commonAnnotations = {};

    const [action] = adapt(request(payload));

    expect(action).toMatchObject({
      alert: { description: 'High request latency\n\napi-1:9090 has a 99th percentile latency above 1s for 10 minutes.' },
    });
  });

  it('describes the alert by commonAnnotations.description when there is no summary', () => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    delete (payload.commonAnnotations as Record<string, unknown>).summary;

    const [action] = adapt(request(payload));

    expect(action).toMatchObject({
      alert: { description: 'api-1:9090 has a 99th percentile latency above 1s for 10 minutes.' },
    });
  });

  it("takes the first alert's alertname when the group has no common one", () => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    delete (payload.commonLabels as Record<string, unknown>).alertname;

    expect(adapt(request(payload))[0]).toMatchObject({ alert: { title: 'HighRequestLatency' } });
  });

  it('rejects a body that is not JSON', () => {
    expect(() => adapt(request('status=firing', { contentType: 'application/x-www-form-urlencoded' }))).toThrowError(
      /form-encoded bodies are not accepted/,
    );
    expect(() => adapt(request('{"status": "firing",', { contentType: 'application/json' }))).toThrowError(/invalid JSON/);
    expect(() => adapt(request('firing!', { contentType: 'text/plain' }))).toThrowError(/not JSON/);
  });

  it('rejects JSON that is not an Alertmanager payload', () => {
    expect(() => adapt(request({ status: 'firing' }))).toThrowError(/groupKey is missing/);
    expect(() => adapt(request('"firing"'))).toThrowError(/JSON object/);
  });

  it('ignores a status it does not know', () => {
    const payload = fixtureJson('prometheus/alertmanager-firing.json');
    payload.status = 'pending';
    expect(adapt(request(payload))).toEqual([{ action: 'ignore', reason: 'unknown Alertmanager status', details: { status: 'pending' } }]);
  });
});
