import { describe, expect, it } from 'vitest';
import { adaptPayload, type Urgency } from '../../../lib/integrations/adapters';
import { fixture, fixtureJson, LOG_ID, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('datadog', input);
const triggered = () => fixtureJson('datadog/template-triggered.json');

describe('datadog adapter', () => {
  it('creates an alert on Triggered, named by ALERT_ID and deduplicated by AGGREG_KEY', () => {
    expect(adapt(request(fixture('datadog/template-triggered.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: '81234567',
        alert: {
          title: '[Triggered on {host:web-1}] CPU usage is high',
          description: 'CPU usage is above 90% on web-1 for the last 5 minutes.\n\nRunbook: https://runbooks.example.org/cpu',
          urgency: 'medium',
          tags: ['env:prod', 'host:web-1', 'monitor', 'service:api'],
          dedupKeys: ['9bd4ac313a4d1e8fae2482df7b77628'],
          // The other variables, less EVENT_TITLE (the title again) and TAGS (on the alert already).
          additionalData: [
            { type: 'string', label: 'ID', value: '7502151823765443298' },
            { type: 'string', label: 'EVENT_TYPE', value: 'query_alert_monitor' },
            { type: 'string', label: 'LAST_UPDATED', value: '1772446524000' },
            { type: 'string', label: 'AGGREG_KEY', value: '9bd4ac313a4d1e8fae2482df7b77628' },
            { type: 'string', label: 'DATE', value: '1772446524000' },
            { type: 'string', label: 'USER', value: 'Datadog' },
            {
              type: 'image',
              label: 'SNAPSHOT',
              value: 'https://p.datadoghq.com/snapshot/view/dd-snapshots-prod/org_123456/2026-03-02/abc123.png',
            },
            { type: 'link', label: 'LINK', value: 'https://app.datadoghq.com/event/event?id=7502151823765443298' },
            { type: 'string', label: 'PRIORITY', value: 'normal' },
            { type: 'string', label: 'ALERT_ID', value: '81234567' },
            { type: 'string', label: 'ALERT_METRIC', value: 'system.cpu.user' },
            { type: 'string', label: 'ALERT_SCOPE', value: 'host:web-1' },
            { type: 'string', label: 'ALERT_QUERY', value: 'avg(last_5m):avg:system.cpu.user{env:prod} by {host} > 90' },
            { type: 'string', label: 'ALERT_STATUS', value: 'system.cpu.user over host:web-1 was > 90.0 on average during the last 5m.' },
          ],
        },
      },
    ]);
  });

  it('resolves on Recovered', () => {
    expect(adapt(request(fixture('datadog/template-recovered.json')))).toEqual([{ action: 'resolve', thirdpartyId: '81234567' }]);
  });

  it('creates again on Re-Triggered and Renotify (the open alert counts them)', () => {
    for (const transition of ['Re-Triggered', 'Renotify']) {
      const [action] = adapt(request({ ...triggered(), ALERT_TRANSITION: transition }));
      expect(action).toMatchObject({ action: 'create', thirdpartyId: '81234567' });
    }
  });

  it.each<[Urgency, Urgency]>([
    ['critical', 'medium'],
    ['high', 'medium'],
    ['low', 'low'],
    ['silent', 'silent'],
  ])('creates on Warn at medium at most (integration %s → %s)', (integrationUrgency, urgency) => {
    for (const transition of ['Warn', 'Re-Warn']) {
      const [action] = adapt(request({ ...triggered(), ALERT_TRANSITION: transition }, { urgency: integrationUrgency }));
      expect(action).toMatchObject({ action: 'create', alert: { urgency } });
    }
  });

  it('ignores No Data and unknown transitions', () => {
    expect(adapt(request({ ...triggered(), ALERT_TRANSITION: 'No Data' }))).toEqual([
      {
        action: 'ignore',
        reason: 'Datadog transition does not raise or clear an alert',
        details: { transition: 'No Data' },
      },
    ]);
    expect(adapt(request({ ...triggered(), ALERT_TRANSITION: 'Null' }))[0]).toMatchObject({ action: 'ignore' });
  });

  it.each<[string, Urgency]>([
    ['P1', 'critical'],
    ['P2', 'high'],
    ['P3', 'medium'],
    ['P4', 'low'],
    ['P5', 'low'],
  ])('maps ALERT_PRIORITY %s to urgency %s', (priority, urgency) => {
    const [action] = adapt(request({ ...triggered(), ALERT_PRIORITY: priority }, { urgency: 'silent' }));
    expect(action).toMatchObject({ alert: { urgency } });
  });

  it('reads the template variables under snake_case and camelCase keys too', () => {
    const [created] = adapt(
      request({ alertId: '555', alertTransition: 'Triggered', alert_title: 'Host down', event_msg: 'web-9 stopped' }),
    );
    expect(created).toEqual({
      action: 'create',
      thirdpartyId: '555',
      alert: {
        title: 'Host down',
        description: 'web-9 stopped',
        urgency: 'medium',
        additionalData: [{ type: 'string', label: 'alertId', value: '555' }],
      },
    });
  });

  it('reads a payload sent with "Encode as form"', () => {
    const form = adapt(request(fixture('datadog/template-triggered.form.txt'), { contentType: 'application/x-www-form-urlencoded' }));
    expect(form).toEqual(adapt(request(fixture('datadog/template-triggered.json'))));
  });

  it("reads Datadog's default payload: the transition and the alert from its title", () => {
    const [created] = adapt(request(fixture('datadog/default-payload-triggered.json')));
    const [resolved] = adapt(request(fixture('datadog/default-payload-recovered.json')));

    expect(created).toMatchObject({
      action: 'create',
      alert: {
        title: '[Triggered on {host:web-1}] CPU usage is high',
        description: expect.stringMatching(/^CPU usage is above 90% on web-1 for the last 5 minutes\.\n[^]*\)$/),
      },
    });
    expect(resolved).toEqual({
      action: 'resolve',
      thirdpartyId: created.action === 'create' ? created.thirdpartyId : 'unreachable',
    });
  });

  it('falls back to the log id for a Triggered payload that names no alert', () => {
    expect(adapt(request({ ALERT_TRANSITION: 'Triggered', ALERT_TITLE: 'x' }))[0]).toMatchObject({ thirdpartyId: LOG_ID });
    expect(adapt(request({ ALERT_TRANSITION: 'Recovered' }))).toEqual([{ action: 'ignore', reason: 'Recovered without ALERT_ID' }]);
  });

  it('rejects a body that is neither JSON nor form data', () => {
    expect(() => adapt(request('{"ALERT_ID": "1", "EVENT_MSG": "a "quoted" word"}'))).toThrowError(/invalid JSON/);
  });
});
