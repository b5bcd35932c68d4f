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
          // Everything else the event says stays on the alert: PD-CEF fields, custom details,
          // the client's link, links and images.
          additionalData: [
            { type: 'string', label: 'severity', value: 'critical' },
            { type: 'string', label: 'source', value: 'prod-datapipe03.example.com' },
            { type: 'string', label: 'component', value: 'mysql' },
            { type: 'string', label: 'group', value: 'prod-datapipe' },
            { type: 'string', label: 'class', value: 'disk' },
            { type: 'datetime', label: 'timestamp', value: '2015-07-17T08:42:58.315+0000' },
            { type: 'string', label: 'custom_details.free space', value: '1%' },
            { type: 'string', label: 'custom_details.ping time', value: '1500ms' },
            { type: 'number', label: 'custom_details.load avg', value: 0.75 },
            { type: 'link', label: 'Sample Monitoring Service', value: 'https://monitoring.example.com' },
            { type: 'link', label: 'Link text', value: 'https://example.com/' },
            {
              type: 'image',
              label: 'Example text',
              value: 'https://www.pagerduty.com/wp-content/uploads/2016/05/pagerduty-logo-green.png',
            },
            { type: 'link', label: 'Example text (link)', value: 'https://example.com/' },
          ],
        },
      },
    ]);
  });

  it('keeps custom_details sent as a string as one entry', () => {
    const event = fixtureJson('pagerduty/trigger.json');
    (event.payload as Record<string, unknown>).custom_details = 'free text from the sender';
    const [action] = adapt(request(event));
    expect(action.action === 'create' && action.alert.additionalData).toContainEqual({
      type: 'string',
      label: 'custom_details',
      value: 'free text from the sender',
    });
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
