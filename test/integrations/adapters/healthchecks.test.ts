import { describe, expect, it } from 'vitest';
import { adaptPayload } from '../../../lib/integrations/adapters';
import { fixture, LOG_ID, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('healthchecks', input);
const CHECK = 'f618072a-7bde-4eee-af63-71a77c5723bc';

describe('healthchecks adapter', () => {
  it("creates an alert from Healthchecks.io's PagerTree integration trigger, named by incident_key", () => {
    expect(adapt(request(fixture('healthchecks/pagertree-trigger.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: '124f983e0e3dcaeba921cfcef46efd084576e783',
        alert: {
          title: 'Nightly backup is DOWN',
          description: 'Nightly backup is DOWN (success signal did not arrive on time, grace time passed).\nLast ping was 1 day ago.',
          urgency: 'medium',
          tags: ['prod', 'backup'],
          additionalData: [
            { type: 'string', label: 'incident_key', value: '124f983e0e3dcaeba921cfcef46efd084576e783' },
            { type: 'string', label: 'client', value: 'Healthchecks.io' },
            { type: 'link', label: 'client_url', value: 'https://healthchecks.io' },
          ],
        },
      },
    ]);
  });

  it('resolves on the PagerTree integration resolve', () => {
    expect(adapt(request(fixture('healthchecks/pagertree-resolve.json')))).toEqual([
      { action: 'resolve', thirdpartyId: '124f983e0e3dcaeba921cfcef46efd084576e783' },
    ]);
  });

  it('creates from a webhook body built of $CODE, $NAME and $STATUS=down', () => {
    expect(adapt(request(fixture('healthchecks/webhook-down.json'), { contentType: null }))).toEqual([
      {
        action: 'create',
        thirdpartyId: CHECK,
        alert: {
          title: 'Nightly backup is DOWN',
          urgency: 'medium',
          tags: ['prod', 'backup'],
          additionalData: [
            { type: 'string', label: 'code', value: CHECK },
            { type: 'string', label: 'name', value: 'Nightly backup' },
            { type: 'string', label: 'now', value: '2026-03-02T03:15:00+00:00' },
          ],
        },
      },
    ]);
  });

  it('resolves from a webhook body with $STATUS=up', () => {
    expect(adapt(request(fixture('healthchecks/webhook-up.json'), { contentType: null }))).toEqual([
      { action: 'resolve', thirdpartyId: CHECK },
    ]);
  });

  it('reads the check nested by {"check": $JSON}, keeping the rest of the check', () => {
    const [action] = adapt(request(fixture('healthchecks/webhook-check-json-down.json')));
    expect(action).toEqual({
      action: 'create',
      thirdpartyId: CHECK,
      alert: {
        title: 'Nightly backup is DOWN',
        description: 'Runs ~/db-backup.sh at 02:00',
        urgency: 'medium',
        tags: ['prod', 'backup'],
        additionalData: expect.arrayContaining([
          { type: 'string', label: 'now', value: '2026-03-02T03:15:00+00:00' },
          { type: 'string', label: 'schedule', value: '0 2 * * *' },
          { type: 'number', label: 'grace', value: 3600 },
          { type: 'string', label: 'last_ping', value: '2026-03-01T02:00:41+00:00' },
          { type: 'link', label: 'ping_url', value: `https://hc-ping.com/${CHECK}` },
        ]),
      },
    });
    // Empty and null fields of the check say nothing and are not kept.
    const labels = action.action === 'create' ? action.alert.additionalData!.map((d) => d.label) : [];
    expect(labels).not.toContain('next_ping');
    expect(labels).not.toContain('subject');
    expect(labels).not.toContain('desc');
  });

  it('reads a form-encoded webhook body', () => {
    const [action] = adapt(request(fixture('healthchecks/webhook-down.form.txt'), { contentType: null }));
    expect(action).toMatchObject({ action: 'create', thirdpartyId: CHECK, alert: { title: 'Nightly backup is DOWN' } });
  });

  it('takes the check uuid from ping_url when no code is sent (read-only style payloads)', () => {
    const [action] = adapt(request({ status: 'down', name: 'n', ping_url: `https://hc-ping.com/${CHECK}` }));
    expect(action).toMatchObject({ thirdpartyId: CHECK });
  });

  it('falls back to the log id for a down without any check id, and ignores such an up', () => {
    expect(adapt(request({ status: 'down', name: 'n' }))[0]).toMatchObject({ thirdpartyId: LOG_ID });
    expect(adapt(request({ status: 'up' }))).toEqual([{ action: 'ignore', reason: 'up without the check code' }]);
  });

  it('ignores statuses other than down and up', () => {
    expect(adapt(request({ status: 'grace', code: CHECK }))).toEqual([
      { action: 'ignore', reason: 'Healthchecks.io status is neither down nor up' },
    ]);
  });

  it('rejects a plain-text body', () => {
    expect(() => adapt(request('Nightly backup is down', { contentType: 'text/plain' }))).toThrowError(/not JSON/);
  });
});
