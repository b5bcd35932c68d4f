import { beforeAll, describe, expect, it } from 'vitest';
import { ADAPTER_SLUGS, adaptPayload, UnknownIntegrationType, UnreadablePayload } from '../../../lib/integrations/adapters';
import { parseFormBody } from '../../../lib/integrations/adapters/parse-body';
import { INTEGRATION_TYPES } from '../../../lib/integrations/integration-types';
import { loadEveryPackageOnFirstUse } from '../../../lib/on-first-use';
import { fixture, LOG_ID, request } from './support';

// wrapper_key's JMESPath loads on first use (lib/integrations/adapters/index.ts): loaded here, as whenLoaded does for the ingest path.
beforeAll(loadEveryPackageOnFirstUse);

describe('adaptPayload', () => {
  it('has an adapter for every integration type of the catalogue that receives', () => {
    // An outgoing webhook sends alert events and receives nothing (an inbound POST is 405); a
    // heartbeat's requests are beats, never read (lib/integrations/ingest/receive-beat.ts); a live
    // call answers phone calls (lib/voice-calls), an inbound POST is 405.
    const receiving = INTEGRATION_TYPES.filter((type) => !['outgoing_webhook', 'heartbeat', 'live_call'].includes(type.slug));
    expect([...ADAPTER_SLUGS].sort()).toEqual(receiving.map((type) => type.slug).sort());
  });

  it('throws for an unknown slug', () => {
    expect(() => adaptPayload('nagios', request({}))).toThrowError(UnknownIntegrationType);
    expect(() => adaptPayload('toString', request({}))).toThrowError(UnknownIntegrationType);
  });

  it('marks an empty body unreadable, whatever its content type', () => {
    for (const slug of ADAPTER_SLUGS) {
      expect(() => adaptPayload(slug, request('  \n', { contentType: 'text/plain' }))).toThrowError(UnreadablePayload);
    }
  });

  it('marks invalid JSON unreadable for every JSON-only sender, with the parser message', () => {
    for (const slug of ['prometheus', 'grafana', 'aws_cloudwatch', 'pagerduty_events_v2']) {
      expect(() => adaptPayload(slug, request('{"status": "firing"'))).toThrowError(/^invalid JSON: /);
    }
  });

  it('reads a JSON body behind a byte-order mark', () => {
    const [action] = adaptPayload('webhook', request(`\uFEFF${JSON.stringify({ id: 'b', title: 'bom' })}`));
    expect(action).toMatchObject({ thirdpartyId: 'b', alert: { title: 'bom' } });
  });

  it('reads a JSON body that arrives labelled as a form post', () => {
    const [action] = adaptPayload(
      'pagerduty_events_v2',
      request(fixture('pagerduty/resolve.json'), { contentType: 'application/x-www-form-urlencoded' }),
    );
    expect(action).toEqual({ action: 'resolve', thirdpartyId: 'srv01/mysql' });
  });

  describe('wrapper_key', () => {
    it('selects the payload inside the body with a JMESPath expression', () => {
      const body = { source: 'relay', data: { event: JSON.parse(fixture('pagerduty/trigger.json')) } };
      const [action] = adaptPayload('pagerduty_events_v2', request(body, { options: { wrapper_key: 'data.event' } }));
      expect(action).toMatchObject({ action: 'create', thirdpartyId: 'srv01/mysql' });
    });

    it('adapts each element when it selects an array, each with its own deterministic fallback id', () => {
      const body = {
        records: [
          { event_type: 'create', title: 'first' },
          { event_type: 'resolve', id: 'known' },
          { event_type: 'create', title: 'third' },
        ],
      };
      const input = request(body, { options: { wrapper_key: 'records' } });

      const actions = adaptPayload('webhook', input);

      expect(actions).toEqual([
        { action: 'create', thirdpartyId: `${LOG_ID}-0`, alert: { title: 'first', urgency: 'medium' } },
        { action: 'resolve', thirdpartyId: 'known' },
        { action: 'create', thirdpartyId: `${LOG_ID}-2`, alert: { title: 'third', urgency: 'medium' } },
      ]);
      expect(adaptPayload('webhook', input)).toEqual(actions);
    });

    it('adapts a top-level JSON array element by element', () => {
      const actions = adaptPayload(
        'webhook',
        request([
          { id: 'a', title: 'A' },
          { id: 'b', title: 'B' },
        ]),
      );
      expect(actions.map((action) => action.action === 'create' && action.thirdpartyId)).toEqual(['a', 'b']);
    });

    it('ignores an empty array', () => {
      expect(adaptPayload('webhook', request([]))).toEqual([{ action: 'ignore', reason: 'empty batch' }]);
    });

    it('parses a selected JSON string, as wrappers often carry the payload that way', () => {
      const body = { Records: [{ body: fixture('pagerduty/acknowledge.json') }] };
      const actions = adaptPayload('pagerduty_events_v2', request(body, { options: { wrapper_key: 'Records[0].body' } }));
      expect(actions).toEqual([{ action: 'acknowledge', thirdpartyId: 'srv01/mysql' }]);
    });

    it('applies to form-encoded bodies too', () => {
      const input = request('alert[id]=f1&alert[title]=Form+wrapped', {
        contentType: 'application/x-www-form-urlencoded',
        options: { wrapper_key: 'alert' },
      });
      expect(adaptPayload('webhook', input)[0]).toMatchObject({ thirdpartyId: 'f1', alert: { title: 'Form wrapped' } });
    });

    it('marks the log unreadable when the expression selects nothing or is not JMESPath', () => {
      const body = fixture('pagerduty/trigger.json');
      expect(() => adaptPayload('pagerduty_events_v2', request(body, { options: { wrapper_key: 'missing.path' } }))).toThrowError(
        /selects nothing/,
      );
      expect(() => adaptPayload('pagerduty_events_v2', request(body, { options: { wrapper_key: 'a[' } }))).toThrowError(
        /not a valid JMESPath expression/,
      );
    });

    it('cannot apply to a plain-text body', () => {
      expect(() =>
        adaptPayload('webhook', request('just text', { contentType: 'text/plain', options: { wrapper_key: 'x' } })),
      ).toThrowError(/wrapper_key is set/);
    });
  });

  describe('capture_additional_data', () => {
    it("adds the payload's top-level fields to a create, typed by their JSON type", () => {
      const body = { id: 'c1', title: 'Captured', host: 'web-1', load: 3.5, paging: false, labels: { az: 'b' }, gone: null };
      const [action] = adaptPayload('webhook', request(body, { options: { capture_additional_data: true } }));

      expect(action).toMatchObject({
        alert: {
          additionalData: [
            { type: 'string', label: 'host', value: 'web-1' },
            { type: 'number', label: 'load', value: 3.5 },
            { type: 'boolean', label: 'paging', value: false },
            { type: 'json', label: 'labels', value: { az: 'b' } },
            { type: 'json', label: 'gone', value: null },
          ],
        },
      });
    });

    it("captures the selected payload's fields, not the wrapper's, after the adapter's own data", () => {
      const body = { envelope: 'x', event: JSON.parse(fixture('pagerduty/trigger.json')) };
      const [action] = adaptPayload(
        'pagerduty_events_v2',
        request(body, { options: { wrapper_key: 'event', capture_additional_data: true } }),
      );
      const labels = action.action === 'create' ? action.alert.additionalData?.map((datum) => datum.label) : [];

      expect(labels).toEqual([
        'severity',
        'source',
        'component',
        'group',
        'class',
        'timestamp',
        'custom_details.free space',
        'custom_details.ping time',
        'custom_details.load avg',
        'Sample Monitoring Service',
        'Link text',
        'Example text',
        'Example text (link)',
        'payload',
        'routing_key',
        'dedup_key',
        'images',
        'links',
        'event_action',
        'client',
        'client_url',
      ]);
    });

    it('records form fields as strings', () => {
      const [action] = adaptPayload(
        'uptime_robot',
        request(fixture('uptime-robot/down.form.txt'), {
          contentType: 'application/x-www-form-urlencoded',
          options: { capture_additional_data: true },
        }),
      );
      expect(action).toMatchObject({
        alert: { additionalData: expect.arrayContaining([{ type: 'string', label: 'alertID', value: '86114092' }]) },
      });
    });

    it("keeps only the sender's details when it is off, and leaves other actions untouched when on", () => {
      const [off] = adaptPayload('prometheus', request(fixture('prometheus/alertmanager-firing.json')));
      const [on] = adaptPayload(
        'prometheus',
        request(fixture('prometheus/alertmanager-firing.json'), { options: { capture_additional_data: true } }),
      );
      const resolve = adaptPayload(
        'prometheus',
        request(fixture('prometheus/alertmanager-resolved.json'), { options: { capture_additional_data: true } }),
      );

      const labels = (action: typeof off) => (action.action === 'create' ? (action.alert.additionalData ?? []) : []).map((d) => d.label);
      expect(labels(off)).toContain('commonLabels');
      expect(labels(off)).not.toContain('groupKey');
      expect(labels(on)).toEqual([
        ...labels(off),
        ...['receiver', 'status', 'alerts', 'groupLabels', 'commonAnnotations', 'version', 'groupKey', 'truncatedAlerts'],
      ]);
      expect(resolve).toEqual([{ action: 'resolve', thirdpartyId: expect.any(String) }]);
    });

    it('accepts the option stored as the string "true"', () => {
      const [action] = adaptPayload(
        'webhook',
        request({ title: 't', extra: 1 }, { options: { capture_additional_data: 'true' as unknown as boolean } }),
      );
      expect(action).toMatchObject({ alert: { additionalData: [{ type: 'number', label: 'extra', value: 1 }] } });
    });
  });

  it('is deterministic: the same stored request always gives the same actions', () => {
    for (const [slug, path] of [
      ['webhook', 'webhook/create.json'],
      ['datadog', 'datadog/default-payload-triggered.json'],
      ['healthchecks', 'healthchecks/webhook-check-json-down.json'],
    ]) {
      const input = request(fixture(path), { options: { capture_additional_data: true } });
      expect(adaptPayload(slug, input)).toEqual(adaptPayload(slug, structuredClone(input)));
    }
  });
});

describe('form-encoded bodies', () => {
  it('decode + and percent escapes and nest brackets', () => {
    expect(parseFormBody('a=1+2&b=%C3%A9t%C3%A9&m[x][y]=deep&t[]=1&t[]=2&rows[][n]=a&rows[][n]=b&flag')).toEqual({
      a: '1 2',
      b: 'été',
      m: { x: { y: 'deep' } },
      t: ['1', '2'],
      rows: [{ n: 'a' }, { n: 'b' }],
      flag: '',
    });
  });

  it('never write through __proto__ or constructor', () => {
    const parsed = parseFormBody('__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][x]=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('are unreadable when their percent escapes are malformed', () => {
    expect(() => parseFormBody('title=100%')).toThrowError(UnreadablePayload);
  });
});
