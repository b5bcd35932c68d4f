// The parts of outgoing webhooks that need no server: the retry schedule (at least 24 hours), the
// signature a receiver recomputes, which timeline changes are events, and the option checks.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertEventOf } from '../../lib/alerts/alert-events';
import { outgoingWebhookFaults } from '../../lib/integrations/outgoing-webhook-checks';
import { ALERT_EVENTS, shownOptions, subscribedEvents, withoutSecretMarkers } from '../../lib/integrations/outgoing-webhook-options';
import { signatureOf } from '../../lib/outgoing-webhooks/deliver';
import { MAX_TRIES, RETRY_DELAYS_MS, retryDelayAfter } from '../../lib/outgoing-webhooks/records';

describe('the retry schedule', () => {
  it('keeps trying for at least 24 hours, backing off', () => {
    const total = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3_600_000);
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1]);
    expect(retryDelayAfter(1)).toBe(30_000);
    expect(retryDelayAfter(MAX_TRIES - 1)).toBe(RETRY_DELAYS_MS.at(-1));
    expect(retryDelayAfter(MAX_TRIES)).toBeNull();
  });
});

describe('signatures', () => {
  it('are v1= and the hex HMAC-SHA256 of the exact body bytes', () => {
    const body = '{"type":"alert.created","data":{"title":"Ünïcode ✓"}}';
    expect(signatureOf(body, 'k')).toBe(`v1=${createHmac('sha256', 'k').update(Buffer.from(body, 'utf8')).digest('hex')}`);
    expect(signatureOf(body, 'k')).not.toBe(signatureOf(`${body} `, 'k'));
  });
});

describe('alert events', () => {
  it('are the changes webhooks can subscribe to', () => {
    const of = (action: string, oldStatus: string | null, newStatus: string | null) =>
      alertEventOf({ action, oldStatus, newStatus } as Parameters<typeof alertEventOf>[0]);
    expect(of('created', null, 'open')).toBe('alert.created');
    expect(of('routed', 'open', 'open')).toBe('alert.open');
    expect(of('routed', 'open', 'suppressed')).toBeNull();
    expect(of('dropped', 'open', 'dropped')).toBe('alert.dropped');
    expect(of('routed', 'open', 'dropped')).toBe('alert.dropped');
    expect(of('acknowledged', 'open', 'acknowledged')).toBe('alert.acknowledged');
    expect(of('rejected', 'open', 'open')).toBe('alert.rejected');
    expect(of('resolved', 'acknowledged', 'resolved')).toBe('alert.resolved');
    expect(of('handoff', 'acknowledged', 'open')).toBe('alert.handoff');
    expect(of('timeout', 'open', 'open')).toBe('alert.timeout');
    expect(of('updated', 'open', 'open')).toBeNull();
    // Events only chat webhooks hear of: never one an outgoing webhook can subscribe to.
    expect(of('archived', 'resolved', 'archived')).toBe('alert.archived');
    expect(of('reassigned', null, null)).toBe('alert.reassigned');
    expect(of('routed', 'acknowledged', 'acknowledged')).toBe('alert.assigned');
    for (const event of ['alert.archived', 'alert.reassigned', 'alert.assigned']) expect(ALERT_EVENTS).not.toContain(event);
  });
});

describe('options', () => {
  it('name each fault, read events from a list or a comma list, and keep secrets out of sight', () => {
    expect(outgoingWebhookFaults({}, false)).toEqual([expect.stringMatching(/^options\.url can't be blank/)]);
    expect(outgoingWebhookFaults({ url: 'http://[::ffff:7f00:1]/x' }, false)[0]).toMatch(/refused/);
    expect(outgoingWebhookFaults({ url: 'http://169.254.169.254/latest' }, false)[0]).toMatch(/metadata/);
    expect(outgoingWebhookFaults({ url: 'http://10.1.2.3/' }, true)).toEqual([]);
    const options: Record<string, unknown> = { url: 'https://example.com', events: 'alert.created, alert.resolved' };
    expect(outgoingWebhookFaults(options, false)).toEqual([]);
    expect(options.events).toEqual(['alert.created', 'alert.resolved']);
    expect(subscribedEvents({})).toHaveLength(8);
    expect(shownOptions({ url: 'u', password: 'p', secret: 's' })).toEqual({ url: 'u', password: '********', secret: '********' });
    expect(withoutSecretMarkers({ password: '********', secret: 'new', url: 'x' })).toEqual({ secret: 'new', url: 'x' });
  });
});
