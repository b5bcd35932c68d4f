// Storm protection over HTTP: at most one SMS and one call per person per one-minute window; pages
// that arrive meanwhile go out as one message, and each bundled page stays a notification of its own
// that says so; a page answered meanwhile is cancelled, not sent. The window is a real minute of the
// service's clock: it opens only when the test moves the clock, so a slow machine cannot open it
// before the test has looked at what waits.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { useService } from '../support/runtime';
import { alertTo, notificationsOf, person, waitFor } from '../escalation/support';
import { outboxMessages } from '../support/dependencies';
import { SWEEP_GRACE_MS } from '../../lib/escalation/sweep';
import { passTime } from '../support/quiescence';
import type { TestService } from '../support/runtime';

let admin: ApiClient;
let service: TestService;

useService(async (started) => {
  service = started;
  admin = started.admin;
});

describe('storm protection', () => {
  it('sends the first SMS and call at once, bundles the next pages into one message each, and cancels an answered one', async () => {
    const a = await person(admin, { sms: true, voice: true, email: false, push: false });
    const phone = (await admin.get(`/api/v4/account_users/${a.id}`)).body.user.phones[0].phone as string;
    const first = await alertTo(admin, { users: [a.id] }, 'Database down');
    await waitFor(
      () => notificationsOf(admin, first.id),
      (s) => s.filter((n) => n.status === 'sent').length === 2,
    );
    const later: Awaited<ReturnType<typeof alertTo>>[] = [];
    for (const title of ['Disk full', 'Queue backlog', 'Cache misses']) later.push(await alertTo(admin, { users: [a.id] }, title));
    // The third of them is answered before the window opens: its messages never go out.
    await waitFor(
      () => notificationsOf(admin, later[2].id),
      (s) => s.length === 2,
    );
    expect((await a.client.post(`/api/v4/alerts/${later[2].id}/acknowledge`)).status).toBe(200);

    for (const alert of later.slice(0, 2)) {
      const waiting = await notificationsOf(admin, alert.id);
      expect(waiting.map((n) => n.status)).toEqual(['queued', 'queued']);
    }
    const sentTo = () => outboxMessages().filter((m) => m.to === phone);
    expect(
      sentTo()
        .map((m) => m.channel)
        .sort(),
    ).toEqual(['sms', 'voice']);

    // When the window opens: one SMS and one call carry both remaining alerts.
    // A minute after the first page, and past the sweeper's grace for a timer whose message is late.
    await passTime(service, 60_000 + SWEEP_GRACE_MS);
    const opened = await Promise.all(later.slice(0, 2).map((alert) => notificationsOf(admin, alert.id)));
    expect(opened.flat().map((n) => n.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const carried = sentTo().slice(2);
    expect(carried.map((m) => m.channel).sort()).toEqual(['sms', 'voice']);
    const sms = carried.find((m) => m.channel === 'sms')!;
    expect(sms.message).toMatch(/^2 new alerts: /);
    expect(sms.message).toContain(`#${later[0].tiny_id}`);
    expect(sms.message).toContain(`#${later[1].tiny_id}`);
    expect(sms.message).not.toContain(`#${later[2].tiny_id}`);
    expect(sms.message.length).toBeLessThanOrEqual(160);
    expect(carried.find((m) => m.channel === 'voice')!.message).toMatch(/You have 2 new alerts/);

    // Every page is a notification of its own; the bundled one names its carrier.
    const earlier = await admin.get(`/notification?source_id=${later[1].prefix_id}`);
    const [carrierSms, bundledSms] = [
      (await admin.get(`/notification?source_id=${later[0].prefix_id}&channel=sms`)).body.data[0],
      earlier.body.data.find((n: { channel: string }) => n.channel === 'sms'),
    ];
    const carrierFirst = carrierSms.provider_status !== 'bundled';
    const [carrier, bundled] = carrierFirst ? [carrierSms, bundledSms] : [bundledSms, carrierSms];
    expect(carrier).toMatchObject({ status: 'sent', provider_status: 'accepted', group_id: null });
    expect(bundled).toMatchObject({ status: 'sent', provider_status: 'bundled', group_id: carrier.id });
    expect(bundled.message).toBe(carrier.message);

    const cancelled = await notificationsOf(admin, later[2].id);
    expect(cancelled.map((n) => n.status)).toEqual(['failed', 'failed']);
    const cancelledEarlier = (await admin.get(`/notification?source_id=${later[2].prefix_id}`)).body.data;
    expect(cancelledEarlier.map((n: { provider_status: string }) => n.provider_status)).toEqual(['cancelled', 'cancelled']);
    expect(cancelledEarlier[0].err[0]).toMatch(/not sent/);
    for (const alert of [first, ...later.slice(0, 2)]) await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('counts the window per person: another person is paged at once', async () => {
    const [a, b] = [
      await person(admin, { sms: true, email: false, push: false }),
      await person(admin, { sms: true, email: false, push: false }),
    ];
    const one = await alertTo(admin, { users: [a.id] });
    await waitFor(
      () => notificationsOf(admin, one.id),
      (s) => s.some((n) => n.status === 'sent'),
    );
    const two = await alertTo(admin, { users: [b.id] });
    const sent = await waitFor(
      () => notificationsOf(admin, two.id),
      (s) => s.some((n) => n.status === 'sent'),
      2_000,
    );
    expect(sent[0].channel).toBe('sms');
    for (const alert of [one, two]) await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});
