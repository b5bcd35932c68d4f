import { describe, expect, it } from 'vitest';
import { findIntegrationType, INTEGRATION_TYPES } from '../../../lib/integrations/integration-types';

describe('integration type catalogue', () => {
  it('lists the nine sender types, the outgoing webhook, the heartbeat and the live call with fixed ids that never change', () => {
    expect(Object.fromEntries(INTEGRATION_TYPES.map((type) => [type.slug, type.id]))).toEqual({
      webhook: '01KDVDNA00GN8A5NGEH4J1RJTG',
      prometheus: '01KDVDNA011ME63NNJGFYP7NMQ',
      grafana: '01KDVDNA02C11YQD4FR4KSG659',
      aws_cloudwatch: '01KDVDNA03JHB1W8KDYR7YYJ9X',
      datadog: '01KDVDNA046SXE3Q12W19SFER9',
      pagerduty_events_v2: '01KDVDNA05G2T1YT8NGG7VC490',
      uptime_robot: '01KDVDNA06A5E2S3027ZA22HPP',
      healthchecks: '01KDVDNA07K56ERX9XS5NDVWP7',
      opsgenie: '01KDVDNA0P5GEN1EA1ERTAP1V2',
      outgoing_webhook: '01KDVDNA08W7B2Q9M4TS6X1HKE',
      heartbeat: '01KDVDNA09HB7T2XQ4M8RZ6KCE',
      live_call: '01KDVDNA0AVC4KK7Q9M2X5R8TB',
    });
  });

  it('gives every sender type an itt_ prefix id, a name, a description and the common options', () => {
    for (const type of INTEGRATION_TYPES.filter((t) => !['outgoing_webhook', 'heartbeat', 'live_call'].includes(t.slug))) {
      expect(type.prefixId).toBe(`itt_${type.id}`);
      expect(type.name).not.toBe('');
      expect(type.description).not.toBe('');
      expect(type.options.map((option) => option.name)).toEqual(['token', 'capture_additional_data', 'wrapper_key']);
      expect(type.options.find((option) => option.name === 'capture_additional_data')).toMatchObject({
        type: 'boolean',
        default: false,
      });
    }
  });

  it('gives the heartbeat its interval, grace and token', () => {
    const heartbeat = findIntegrationType('heartbeat')!;
    expect(heartbeat.prefixId).toBe(`itt_${heartbeat.id}`);
    expect(heartbeat.options.map((option) => [option.name, option.type])).toEqual([
      ['interval_seconds', 'integer'],
      ['grace_seconds', 'integer'],
      ['token', 'string'],
    ]);
  });

  it('gives the live call its number and ring time (20 s unless set)', () => {
    const live = findIntegrationType('live_call')!;
    expect(live.prefixId).toBe(`itt_${live.id}`);
    expect(live.options.map((option) => [option.name, option.type, option.default])).toEqual([
      ['phone_number', 'string', undefined],
      ['ring_seconds', 'integer', 20],
    ]);
  });

  it('gives the outgoing webhook its own options', () => {
    const outgoing = findIntegrationType('outgoing_webhook')!;
    expect(outgoing.prefixId).toBe(`itt_${outgoing.id}`);
    expect(outgoing.options.map((option) => [option.name, option.type])).toEqual([
      ['url', 'string'],
      ['events', 'array'],
      ['username', 'string'],
      ['password', 'string'],
      ['secret', 'string'],
    ]);
  });

  it('finds a type by ULID, by prefix id and by slug', () => {
    const datadog = INTEGRATION_TYPES.find((type) => type.slug === 'datadog');
    expect(findIntegrationType('01KDVDNA046SXE3Q12W19SFER9')).toBe(datadog);
    expect(findIntegrationType('01kdvdna046sxe3q12w19sfer9')).toBe(datadog);
    expect(findIntegrationType('itt_01KDVDNA046SXE3Q12W19SFER9')).toBe(datadog);
    expect(findIntegrationType('datadog')).toBe(datadog);
  });

  it('finds nothing for unknown names, other prefixes or unknown ULIDs', () => {
    expect(findIntegrationType('nagios')).toBeUndefined();
    expect(findIntegrationType('int_01KDVDNA046SXE3Q12W19SFER9')).toBeUndefined();
    expect(findIntegrationType('01KDVDNA09AAAAAAAAAAAAAAAA')).toBeUndefined();
    expect(findIntegrationType('')).toBeUndefined();
  });

  it('hands out option lists that a caller cannot corrupt for other types', () => {
    const [first, second] = INTEGRATION_TYPES;
    expect(first.options).not.toBe(second.options);
  });
});
