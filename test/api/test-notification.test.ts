// POST /api/v4/account_users/:id/test_notification {channel} (docs/api.md#test-notifications): a
// message with template `test` on that channel to the person's address, recorded as a notification;
// by that person or an admin, another account's user is a 404, a channel the person has no address
// for is a 422 naming channel, and a few per window.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { outboxMessages, testClock } from '../support/dependencies';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { person } from '../escalation/support';

let service: TestService;
let admin: ApiClient;

useService((started) => {
  service = started;
  admin = started.admin;
});

const test = (client: ApiClient, accountUserId: string, body: unknown) =>
  client.post(`/api/v4/account_users/${accountUserId}/test_notification`, body);

describe('who may send a test', () => {
  it('the person themself and an admin: 202 and the notification; another member 403; another account 404', async () => {
    const [p, other] = [await person(admin, { sms: true }), await person(admin)];
    const own = await test(p.client, p.id, { channel: 'email' });
    expect(own.status, own.text).toBe(202);
    expect(own.body).toMatchObject({
      account_user_id: p.id,
      channel: 'email',
      template: 'test',
      to: p.email,
      status: 'sent',
      alert_id: null,
    });
    expect(own.body.prefix_id).toBe(`ntf_${own.body.id}`);
    const byAdmin = await test(admin, p.id, { channel: 'sms' });
    expect(byAdmin.status, byAdmin.text).toBe(202);
    expect(byAdmin.body.to).toMatch(/^\+1415555/);

    expect((await test(other.client, p.id, { channel: 'email' })).status).toBe(403);
    const stranger = await signupAccount(service, 'Stranger');
    const hidden = await test(stranger.client, p.id, { channel: 'email' });
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.body)).not.toContain(p.email);
    expect((await service.anonymous.post(`/api/v4/account_users/${p.id}/test_notification`, { channel: 'email' })).status).toBe(401);

    // What went out, and what is kept: the message, a notification of the person like any other.
    const sent = outboxMessages().filter((m) => m.accountUserId === p.id && m.template === 'test');
    expect(sent.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    const listed = await admin.get(`/api/v4/notifications?account_user_id=${p.id}&template=test`);
    expect(listed.body.total_count).toBe(2);
    expect((await admin.get(`/notification/${own.body.prefix_id}`)).body).toMatchObject({ template: 'test', status: 'sent' });
  });
});

describe('what is refused, changing nothing', () => {
  it('a channel that is no channel, none, or one the person has no address for: 422 naming channel', async () => {
    const p = await person(admin);
    const before = outboxMessages().length;
    for (const [body, message] of [
      [{ channel: 'fax' }, /channel/],
      [{ channel: '' }, /channel/],
      [{}, /channel/],
      [{ channel: ['sms'] }, /channel/],
      [{ channel: 'sms' }, /channel sms cannot reach this person: the person has no phone number/],
      [{ channel: 'voice' }, /channel voice cannot reach this person: the person has no phone number/],
      [{ channel: 'slack' }, /channel slack cannot reach this person: Slack is not connected for this account/],
    ] as const) {
      const res = await test(admin, p.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].message, JSON.stringify(body)).toMatch(message);
    }
    expect((await test(admin, p.id, '{not json')).status).toBe(400);
    expect((await test(admin, p.id, '[1]')).status).toBe(422);
    expect((await test(admin, 'acu_01ARZ3NDEKTSV4RRFFQ69G5FAV', { channel: 'email' })).status).toBe(404);
    expect(outboxMessages().length).toBe(before);
    expect((await admin.get(`/api/v4/notifications?account_user_id=${p.id}&template=test`)).body.total_count).toBe(0);
  });

  it('at most 5 per person and channel in 10 minutes (429 with Retry-After), other channels unaffected; then 5 more', async () => {
    const p = await person(admin, { sms: true });
    for (let i = 0; i < 5; i++) expect((await test(p.client, p.id, { channel: 'email' })).status).toBe(202);
    const refused = await test(p.client, p.id, { channel: 'email' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await test(p.client, p.id, { channel: 'sms' })).status).toBe(202);
    expect(outboxMessages().filter((m) => m.accountUserId === p.id && m.template === 'test' && m.channel === 'email')).toHaveLength(5);
    // The window passes by the service's clock.
    testClock.advance(10 * 60_000 + 1_000);
    expect((await test(p.client, p.id, { channel: 'email' })).status).toBe(202);
  });
});
