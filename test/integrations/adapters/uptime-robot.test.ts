import { describe, expect, it } from 'vitest';
import { adaptPayload } from '../../../lib/integrations/adapters';
import { fixture, LOG_ID, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('uptime_robot', input);
const form = (body: string) => request(body, { contentType: 'application/x-www-form-urlencoded' });

describe('uptime_robot adapter', () => {
  it('creates an alert when a monitor goes down (POST parameters), named by monitorID', () => {
    expect(adapt(form(fixture('uptime-robot/down.form.txt')))).toEqual([
      {
        action: 'create',
        thirdpartyId: '793471923',
        alert: {
          title: 'Shop backend is DOWN',
          description: 'Reason: HTTP 503 - Service Unavailable\nURL: https://shop.example.com/health',
          urgency: 'medium',
        },
      },
    ]);
  });

  it('resolves the alert when the monitor is up again', () => {
    expect(adapt(form(fixture('uptime-robot/up.form.txt')))).toEqual([{ action: 'resolve', thirdpartyId: '793471923' }]);
  });

  it('reads the same variables sent as JSON', () => {
    expect(adapt(request(fixture('uptime-robot/down.json')))).toEqual(adapt(form(fixture('uptime-robot/down.form.txt'))));
  });

  it('falls back to alertTypeFriendlyName when alertType is absent', () => {
    expect(adapt(request({ monitorID: '1', alertTypeFriendlyName: 'Up' }))).toEqual([{ action: 'resolve', thirdpartyId: '1' }]);
  });

  it('ignores SSL expiry notices and other alert types', () => {
    expect(adapt(request({ monitorID: '1', alertType: '3', alertTypeFriendlyName: 'SSL expiry' }))).toEqual([
      { action: 'ignore', reason: 'UptimeRobot alert is neither down nor up', details: { alertType: '3' } },
    ]);
  });

  it('treats unreplaced *placeholders* as absent', () => {
    const [action] = adapt(request({ monitorID: '*monitorID*', alertType: '1', monitorFriendlyName: 'Shop' }));
    expect(action).toMatchObject({ action: 'create', thirdpartyId: LOG_ID, alert: { title: 'Shop is DOWN' } });
  });
});
