import { describe, expect, it } from 'vitest';
import { adaptPayload, type Urgency } from '../../../lib/integrations/adapters';
import { fixture, fixtureJson, LOG_ID, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('pagerduty_events_v2', input);

describe('pagerduty_events_v2 adapter', () => {
  it('creates an alert on trigger, named by dedup_key', () => {
    expect(adapt(request(fixture('pagerduty/trigger.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: 'srv01/mysql',
        alert: {
          title: 'DISK at 99% on machine prod-datapipe03.example.com',
          description: 'Source: prod-datapipe03.example.com\nComponent: mysql\nGroup: prod-datapipe\nClass: disk',
          urgency: 'critical',
          additionalData: [
            {
              type: 'json',
              label: 'custom_details',
              value: { 'free space': '1%', 'ping time': '1500ms', 'load avg': 0.75 },
            },
            { type: 'string', label: 'Sample Monitoring Service', value: 'https://monitoring.example.com' },
          ],
        },
      },
    ]);
  });

  it('acknowledges and resolves by dedup_key', () => {
    expect(adapt(request(fixture('pagerduty/acknowledge.json')))).toEqual([{ action: 'acknowledge', thirdpartyId: 'srv01/mysql' }]);
    expect(adapt(request(fixture('pagerduty/resolve.json')))).toEqual([{ action: 'resolve', thirdpartyId: 'srv01/mysql' }]);
  });

  it.each<[string, Urgency]>([
    ['critical', 'critical'],
    ['error', 'high'],
    ['warning', 'medium'],
    ['info', 'low'],
    ['bogus', 'high'],
  ])('maps severity %s to urgency %s (else the integration urgency)', (severity, urgency) => {
    const event = fixtureJson('pagerduty/trigger.json');
    (event.payload as Record<string, unknown>).severity = severity;
    expect(adapt(request(event, { urgency: 'high' }))[0]).toMatchObject({ alert: { urgency } });
  });

  it('derives the missing dedup_key of a trigger from the log id, the same on every reprocessing', () => {
    const event = fixtureJson('pagerduty/trigger.json');
    delete event.dedup_key;

    const first = adapt(request(event));
    expect(first[0]).toMatchObject({ action: 'create', thirdpartyId: LOG_ID });
    expect(adapt(request(event))).toEqual(first);
  });

  it('ignores acknowledge or resolve without dedup_key, and unknown actions', () => {
    expect(adapt(request({ routing_key: 'k', event_action: 'resolve' }))).toEqual([
      { action: 'ignore', reason: 'resolve without dedup_key' },
    ]);
    expect(adapt(request({ routing_key: 'k', event_action: 'snooze', dedup_key: 'd' }))).toEqual([
      { action: 'ignore', reason: 'unknown event_action', details: { event_action: 'snooze' } },
    ]);
  });

  it('rejects a body that is not JSON', () => {
    expect(() => adapt(request('event_action=trigger', { contentType: 'application/x-www-form-urlencoded' }))).toThrowError(/form-encoded/);
    expect(() => adapt(request('{"event_action":'))).toThrowError(/invalid JSON/);
  });
});
