import { describe, expect, it } from 'vitest';
import { adaptPayload } from '../../../lib/integrations/adapters';
import { fixture, LOG_ID, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('webhook', input);

describe('webhook adapter', () => {
  it('creates an alert from the documented example with capitalised keys and meta', () => {
    const actions = adapt(request(fixture('webhook/create.json')));

    expect(actions).toEqual([
      {
        action: 'create',
        thirdpartyId: 'example-id-123',
        alert: {
          title: 'Example Incident Title',
          description: 'Example Incident Description',
          urgency: 'medium',
          tags: ['a', 'b', 'c'],
          meta: {
            incident: true,
            incident_severity: 'SEV-1',
            incident_message: 'Please join conference bridge 1-800-123-4567',
          },
        },
      },
    ]);
  });

  it('reads lower-case keys, urgency, dedup_keys and flattened incident fields', () => {
    const [action] = adapt(request(fixture('webhook/create-lowercase.json'), { urgency: 'low' }));

    expect(action).toEqual({
      action: 'create',
      thirdpartyId: 'db-replica-lag',
      alert: {
        title: 'Replica lag above 30s',
        description: 'db-replica-2 is 45s behind the primary',
        urgency: 'critical',
        tags: ['db', 'replication'],
        dedupKeys: ['db-replica-2'],
        meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Read traffic may be stale' },
        // The sender's own fields beyond the format's are kept, not dropped.
        additionalData: [
          { type: 'string', label: 'region', value: 'eu-west-1' },
          { type: 'number', label: 'lag_seconds', value: 45 },
        ],
      },
    });
  });

  it('treats keys in any case as the same key', () => {
    const [action] = adapt(
      request({ EVENT_TYPE: 'Create', ID: 42, TITLE: 'Upper', DeScRiPtIoN: 'mixed', URGENCY: 'High', DEDUP_KEYS: 'k1' }),
    );

    expect(action).toEqual({
      action: 'create',
      thirdpartyId: '42',
      alert: { title: 'Upper', description: 'mixed', urgency: 'high', dedupKeys: ['k1'] },
    });
  });

  it('acknowledges and resolves by id', () => {
    expect(adapt(request(fixture('webhook/acknowledge.json')))).toEqual([{ action: 'acknowledge', thirdpartyId: 'example-id-123' }]);
    expect(adapt(request(fixture('webhook/resolve.json')))).toEqual([{ action: 'resolve', thirdpartyId: 'example-id-123' }]);
  });

  it('creates when event_type is absent', () => {
    const [action] = adapt(request({ id: 'x1', title: 'No event type' }));
    expect(action).toMatchObject({ action: 'create', thirdpartyId: 'x1' });
  });

  it('ignores an unknown event_type', () => {
    expect(adapt(request({ event_type: 'escalate', id: 'x1' }))).toEqual([
      { action: 'ignore', reason: 'unknown event_type', details: { event_type: 'escalate' } },
    ]);
  });

  it('ignores acknowledge and resolve without an id, since no alert can match', () => {
    expect(adapt(request({ event_type: 'resolve' }))).toEqual([{ action: 'ignore', reason: 'resolve without id' }]);
    expect(adapt(request({ event_type: 'acknowledge' }))).toEqual([{ action: 'ignore', reason: 'acknowledge without id' }]);
  });

  it('derives the missing id from the log id, so reprocessing the log gives the same id', () => {
    const body = { title: 'No id here' };
    const first = adapt(request(body));
    const again = adapt(request(body));
    const otherLog = adapt(request(body, { logId: 'log_01KJRDX4B8Q3M7Y2C5V9N6T1X0' }));

    expect(first[0]).toMatchObject({ action: 'create', thirdpartyId: LOG_ID });
    expect(again).toEqual(first);
    expect(otherLog[0]).toMatchObject({ thirdpartyId: 'log_01KJRDX4B8Q3M7Y2C5V9N6T1X0' });
  });

  it("uses the integration's urgency when urgency is absent or not an urgency", () => {
    expect(adapt(request({ title: 't' }, { urgency: 'high' }))[0]).toMatchObject({ alert: { urgency: 'high' } });
    expect(adapt(request({ title: 't', urgency: 'urgent' }, { urgency: 'low' }))[0]).toMatchObject({
      alert: { urgency: 'low' },
    });
    expect(adapt(request({ title: 't', urgency: 'silent' }))[0]).toMatchObject({ alert: { urgency: 'silent' } });
  });

  it('titles an alert without title by the first line of its description, else "Untitled alert"', () => {
    const [withDescription] = adapt(request({ description: '\n  Disk full on web-3\nmore detail' }));
    const [bare] = adapt(request({ id: 'bare' }));

    expect(withDescription).toMatchObject({
      alert: { title: 'Disk full on web-3', description: 'Disk full on web-3\nmore detail' },
    });
    expect(bare).toMatchObject({ alert: { title: 'Untitled alert' } });
  });

  it('accepts tags as a comma-separated string and drops blanks and repeats', () => {
    const [action] = adapt(request({ title: 't', tags: 'db, web,,db ' }));
    expect(action).toMatchObject({ alert: { tags: ['db', 'web'] } });
  });

  it('reads a form-encoded body with bracket nesting', () => {
    const [action] = adapt(request(fixture('webhook/create.form.txt'), { contentType: 'application/x-www-form-urlencoded' }));

    expect(action).toEqual({
      action: 'create',
      thirdpartyId: 'disk-web-3',
      alert: {
        title: 'Disk 95% full on web-3',
        description: '/var is at 95%',
        urgency: 'high',
        tags: ['disk', 'web'],
        meta: { incident: true, incident_severity: 'SEV-1' },
      },
    });
  });

  it('reads a form body sent without a content type', () => {
    const [action] = adapt(request('event_type=resolve&id=disk-web-3', { contentType: null }));
    expect(action).toEqual({ action: 'resolve', thirdpartyId: 'disk-web-3' });
  });

  it('turns a plain-text body into an alert titled by its first line', () => {
    const [action] = adapt(request('Backup job failed\nexit code 2', { contentType: 'text/plain' }));

    expect(action).toEqual({
      action: 'create',
      thirdpartyId: LOG_ID,
      alert: { title: 'Backup job failed', description: 'Backup job failed\nexit code 2', urgency: 'medium' },
    });
  });

  it('rejects invalid JSON sent as application/json', () => {
    expect(() => adapt(request('{"title": "broken"'))).toThrowError(/invalid JSON/);
  });

  it('captures only the fields it did not map when capture_additional_data is on', () => {
    const [action] = adapt(request(fixture('webhook/create-lowercase.json'), { options: { capture_additional_data: true } }));

    expect(action).toMatchObject({
      alert: {
        additionalData: [
          { type: 'string', label: 'region', value: 'eu-west-1' },
          { type: 'number', label: 'lag_seconds', value: 45 },
        ],
      },
    });
  });
});
