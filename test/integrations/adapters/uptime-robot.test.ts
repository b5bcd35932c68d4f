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
          additionalData: [
            { type: 'string', label: 'monitorID', value: '793471923' },
            { type: 'link', label: 'monitorURL', value: 'https://shop.example.com/health' },
            { type: 'string', label: 'alertDateTime', value: '1772446524' },
            { type: 'string', label: 'alertID', value: '86114092' },
            {
              type: 'string',
              label: 'monitorAlertContacts',
              value: '7129834;5;https://oncall.example.com/integration/int_01KDVDNA06A5E2S3027ZA22HPP',
            },
          ],
        },
      },
    ]);
  });

  it('resolves the alert when the monitor is up again', () => {
    expect(adapt(form(fixture('uptime-robot/up.form.txt')))).toEqual([{ action: 'resolve', thirdpartyId: '793471923' }]);
  });

  it('reads the same variables sent as JSON', () => {
    const [fromJson] = adapt(request(fixture('uptime-robot/down.json')));
    const [fromForm] = adapt(form(fixture('uptime-robot/down.form.txt')));
    // The JSON template in the fixture leaves out *monitorAlertContacts*; everything else is the same.
    const withoutContacts = (action: typeof fromForm) =>
      action.action === 'create'
        ? {
            ...action,
            alert: { ...action.alert, additionalData: action.alert.additionalData?.filter((d) => d.label !== 'monitorAlertContacts') },
          }
        : action;
    expect(fromJson).toEqual(withoutContacts(fromForm));
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
    expect(action.action === 'create' && action.alert.additionalData).toBeFalsy();
  });
});
