import { describe, expect, it } from 'vitest';
import { adaptPayload, type Urgency } from '../../../lib/integrations/adapters';
import { fixture, fixtureJson, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('prometheus', input);
const GROUP_KEY = '{}/{severity="critical"}:{alertname="HighRequestLatency"}';

describe('prometheus (Alertmanager) adapter', () => {
  it('creates one alert for a firing group, named by its groupKey', () => {
    expect(adapt(request(fixture('prometheus/alertmanager-firing.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: GROUP_KEY,
        alert: { title: 'HighRequestLatency', description: 'High request latency', urgency: 'critical' },
      },
    ]);
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
