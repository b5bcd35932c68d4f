import { describe, expect, it } from 'vitest';
import { checkPagerDutyEvent, isIsoTimestamp } from '../../../lib/integrations/adapters/pagerduty-event-rules';
import { fixtureJson } from './support';

const trigger = () => fixtureJson('pagerduty/trigger.json');

describe("PagerDuty's event checks", () => {
  it('accepts the documented trigger, acknowledge and resolve', () => {
    expect(checkPagerDutyEvent(trigger())).toEqual({
      errors: [],
      routingKey: 'e93facc04764012d7bfb002500d5d1a6',
      action: 'trigger',
      dedupKey: 'srv01/mysql',
    });
    expect(checkPagerDutyEvent(fixtureJson('pagerduty/acknowledge.json')).errors).toEqual([]);
    expect(checkPagerDutyEvent(fixtureJson('pagerduty/resolve.json')).errors).toEqual([]);
  });

  it('names every fault of a trigger at once', () => {
    expect(checkPagerDutyEvent({ routing_key: 'k', event_action: 'trigger', payload: { severity: 'fatal' } }).errors).toEqual([
      "'payload.summary' is missing or blank",
      "'payload.source' is missing or blank",
      "'payload.severity' is invalid (must be one of: critical, error, warning, info)",
    ]);
    expect(checkPagerDutyEvent({ routing_key: 'k', event_action: 'trigger' }).errors).toEqual(["'payload' is missing or blank"]);
    expect(checkPagerDutyEvent({ event_action: 'page' }).errors).toEqual([
      "'routing_key' is missing or blank",
      "'event_action' is invalid (must be one of: trigger, acknowledge, resolve)",
    ]);
    expect(checkPagerDutyEvent(['x']).errors).toEqual(['Event object must be a JSON object']);
  });

  it('requires dedup_key for acknowledge and resolve, and bounds it to 255 characters', () => {
    expect(checkPagerDutyEvent({ routing_key: 'k', event_action: 'resolve' }).errors).toEqual(["'dedup_key' is missing or blank"]);
    expect(checkPagerDutyEvent({ ...trigger(), dedup_key: 'd'.repeat(256) }).errors).toEqual([
      "'dedup_key' is too long (maximum is 255 characters)",
    ]);
    expect(checkPagerDutyEvent({ ...trigger(), dedup_key: 'd'.repeat(255) }).errors).toEqual([]);
    // A trigger without one is fine: the service makes one.
    const { dedup_key: _, ...withoutKey } = trigger();
    const checked = checkPagerDutyEvent(withoutKey);
    expect(checked.errors).toEqual([]);
    expect(checked.dedupKey).toBeUndefined();
  });

  it('bounds summary to 1024 characters and checks timestamp, images and links', () => {
    const event = trigger();
    const payload = event.payload as Record<string, unknown>;
    payload.summary = 's'.repeat(1025);
    payload.timestamp = 'yesterday';
    event.images = [{ alt: 'no src' }];
    event.links = 'https://example.com';
    expect(checkPagerDutyEvent(event).errors).toEqual([
      "'payload.summary' is too long (maximum is 1024 characters)",
      "'payload.timestamp' is invalid (must be an ISO 8601 timestamp)",
      "'images[0].src' is missing or blank",
      "'links' must be an array",
    ]);
  });

  it('reads severities and actions in any case, and ignores the payload of a resolve (Alertmanager sends one)', () => {
    expect(
      checkPagerDutyEvent({ ...trigger(), event_action: 'TRIGGER', payload: { ...(trigger().payload as object), severity: 'Critical' } })
        .errors,
    ).toEqual([]);
    expect(checkPagerDutyEvent({ routing_key: 'k', event_action: 'resolve', dedup_key: 'd', payload: { summary: '' } }).errors).toEqual([]);
  });

  it('knows ISO 8601 timestamps, with the +0000 offsets PagerDuty’s own example uses', () => {
    for (const ok of ['2015-07-17T08:42:58.315+0000', '2026-03-02T10:15:30Z', '2026-03-02T10:15:30.123456+02:00', '2026-03-02']) {
      expect(isIsoTimestamp(ok), ok).toBe(true);
    }
    for (const bad of ['2026-13-02T10:15:30Z', '02/03/2026', '1772446524', 'now']) expect(isIsoTimestamp(bad), bad).toBe(false);
  });
});
