// The service's metrics (lib/metrics.ts) as the real pipeline writes them: the EMF lines Powertools
// Metrics prints on stdout, read back from the process's stdout while alerts are created, routed and
// paged through the SES stand-in, and while a webhook becomes an alert. Each line's namespace, metric
// names, units, dimensions (few, low in cardinality: never an account, alert or person) and values
// are checked. POWERTOOLS_METRICS_DISABLED=false turns the lines on here, as Lambda has them.
// @moto: the same pipeline on moto's SQS and DynamoDB.
// @module-tag moto
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE } from '../../lib/metrics';
import { alertTo, person, team } from '../escalation/support';
import { createIntegration } from '../integrations/support';
import { startDeliveryService, type DeliveryService } from '../notify/delivery-events';
import type { ApiClient } from '../support/api-client';
import { testClock } from '../support/dependencies';
import { captureEmf, sumOf, type EmfCapture } from '../support/emf';
import { passTime, settle } from '../support/quiescence';
import type { TestService } from '../support/runtime';

let delivery: DeliveryService;
let service: TestService;
let admin: ApiClient;
let emf: EmfCapture;

beforeAll(async () => {
  delivery = await startDeliveryService({ env: { POWERTOOLS_METRICS_DISABLED: 'false', TIME_SCALE: '600' } });
  service = delivery.service;
  admin = service.admin;
}, 60_000);

afterAll(async () => {
  await delivery?.stop();
});

beforeEach(() => {
  emf = captureEmf();
});

afterEach(() => {
  emf.stop();
  delivery.aws.accept('SendEmail');
  testClock.reset();
});

const named = (name: string, dimensions?: Record<string, string>) => emf.named(name, dimensions);

describe('metrics of a page', () => {
  it('writes time to page for the first layer alone, the pages per channel, the deliveries per provider and the timer lateness', async () => {
    const [first, second] = [await person(admin, { push: false }), await person(admin, { push: false })];
    const paged = await team(admin, { layers: [[first.id], [second.id]], timeouts: [60, 5] });
    // Their welcome e-mails are deliveries too: only what the alert brings is looked at.
    await settle(service);
    emf.clear();
    const started = Date.now();
    await alertTo(admin, { teams: [paged.id] });
    await settle(service);
    const pagedWithin = Date.now() - started;
    // Layer 1's hour is 6 s here; the clock moves 90 s past it, and the sweeper runs the step that late.
    await passTime(service, 6_000 + 90_000);

    const timeToPage = named('TimeToPage', {});
    expect(timeToPage).toHaveLength(1);
    expect(timeToPage[0].unit).toBe('Milliseconds');
    expect(timeToPage[0].value).toBeGreaterThanOrEqual(0);
    expect(timeToPage[0].value).toBeLessThanOrEqual(pagedWithin);

    // Both layers paged by e-mail through SES: two pages, two deliveries, no failure.
    expect(named('PagesSent', { channel: 'email' }).map((v) => [v.unit, v.value])).toEqual([
      ['Count', 1],
      ['Count', 1],
    ]);
    expect(sumOf(named('Deliveries', { provider: 'ses' }))).toBe(2);
    expect(named('DeliveryFailures')).toEqual([]);

    const lateness = named('TimerLateness', {});
    expect(lateness.length).toBeGreaterThanOrEqual(1);
    expect(lateness.every((v) => v.unit === 'Milliseconds')).toBe(true);
    const latest = Math.max(...lateness.map((v) => v.value));
    // Due 6 s (of the clock) after the page, run 96 s of the clock plus the real time since the page later.
    expect(latest).toBeGreaterThanOrEqual(90_000);
    expect(latest).toBeLessThanOrEqual(90_000 + (Date.now() - started));

    for (const value of emf.values()) {
      expect(value.namespace).toBe(METRICS_NAMESPACE);
      expect(
        Object.keys(value.dimensions).every((name) => ['service', 'channel', 'provider'].includes(name)),
        JSON.stringify(value),
      ).toBe(true);
    }
  });

  it('counts a provider that refuses a page as its failure, and no time to page for a page nobody received', async () => {
    delivery.aws.refuse('SendEmail', { type: 'MessageRejected', message: 'refused by the test' });
    const unlucky = await person(admin, { push: false });
    const paged = await team(admin, { layers: [[unlucky.id]] });
    await settle(service);
    emf.clear();
    await alertTo(admin, { teams: [paged.id] });
    await settle(service);

    expect(sumOf(named('DeliveryFailures', { provider: 'ses' }))).toBeGreaterThanOrEqual(1);
    expect(sumOf(named('Deliveries', { provider: 'ses' }))).toBe(sumOf(named('DeliveryFailures', { provider: 'ses' })));
    expect(named('PagesSent')).toEqual([]);
    expect(named('TimeToPage')).toEqual([]);
  });
});

describe('metrics of a webhook', () => {
  it('writes the time from the webhook accepted to its alert stored', async () => {
    const integration = await createIntegration(admin, { type: 'webhook' });
    const before = Date.now();
    const res = await service.anonymous.post(`/integration/${integration.prefix_id}`, { title: 'Disk full', urgency: 'low' });
    expect(res.status).toBe(202);
    await settle(service);
    const elapsed = Date.now() - before;

    const latency = named('WebhookToAlert', {});
    expect(latency).toHaveLength(1);
    expect(latency[0].unit).toBe('Milliseconds');
    expect(latency[0].value).toBeGreaterThanOrEqual(0);
    expect(latency[0].value).toBeLessThanOrEqual(elapsed);
  });
});
