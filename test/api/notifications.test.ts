// Notifications (docs/api.md#escalation-and-notifications) over HTTP: the read-only objects on both interfaces and their list
// filters, default channels, the account's notification_templates, one-click response links
// (valid, replayed, expired, foreign), and another account's objects never reachable.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { settle } from '../support/quiescence';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { alertTo, delivered, notificationsOf, pagedPeople, person, sentFor, team, type Person } from '../escalation/support';
import { responseLinks } from '../../lib/notify/response-links';
import { testClock } from '../support/dependencies';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    const account = (await admin.get('/api/v4/account_users?limit=1')).body.data[0];
    accountId = account.account_id;
  },
  { env: { TIME_SCALE: '600' } },
);

async function pagedAlone(who: Person, title?: string) {
  const alert = await alertTo(admin, { users: [who.id] }, title);
  const sent = await sentFor(admin, alert.id, (s) => s.filter((n) => n.template === 'alert_alert' && n.status === 'sent').length >= 2);
  return { alert, sent };
}

describe('the notification object', () => {
  it('is shown with exactly the fields of docs/api.md#escalation-and-notifications on v4, and with the earlier names on /notification', async () => {
    const a = await person(admin);
    const { alert, sent } = await pagedAlone(a);
    const email = sent.find((n) => n.channel === 'email')!;
    const v4 = await admin.get(`/api/v4/notifications/${email.id}`);
    expect(v4.status).toBe(200);
    expect(Object.keys(v4.body).sort()).toEqual(
      [
        'id',
        'prefix_id',
        'account_id',
        'account_user_id',
        'alert_id',
        'broadcast_id',
        'workflow_id',
        'channel',
        'provider',
        'template',
        'to',
        'subject',
        'message',
        'status',
        'sent_at',
        'delivered_at',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(v4.body).toMatchObject({
      prefix_id: `ntf_${email.id}`,
      account_id: accountId,
      account_user_id: a.id,
      alert_id: alert.id,
      broadcast_id: null,
      channel: 'email',
      provider: 'outbox',
      template: 'alert_alert',
      to: a.email,
      status: 'sent',
    });
    expect(v4.body.sent_at).toMatch(/Z$/);
    expect(v4.body.subject).toContain(`#${alert.tiny_id}`);

    const earlier = await admin.get(`/notification/ntf_${email.id}`);
    expect(earlier.status).toBe(200);
    expect(earlier.body).toMatchObject({
      id: `ntf_${email.id}`,
      sid: `acc_${accountId}`,
      user_id: `usr_${a.userId}`,
      source_id: alert.prefix_id,
      workflow_id: `wkf_${email.workflow_id}`,
      group_id: null,
      direction: 'OUTGOING',
      channel: 'email',
      template: 'alert_alert',
      status: 'sent',
      provider_status: 'accepted',
      cost: 0,
      err: [],
      delivered: null,
    });
    expect(earlier.body.sent).toBe(Math.floor(Date.parse(v4.body.sent_at) / 1000));
    // The ULID works on the earlier interface too; another kind's prefix is absent.
    expect((await admin.get(`/notification/${email.id}`)).status).toBe(200);
    expect((await admin.get(`/api/v4/notifications/alt_${email.id}`)).status).toBe(404);
  });

  it('nobody may create, change or delete one (no such route: 404)', async () => {
    const a = await person(admin);
    const { sent } = await pagedAlone(a);
    const id = sent[0].id;
    for (const [method, path] of [
      ['POST', '/api/v4/notifications'],
      ['PUT', `/api/v4/notifications/${id}`],
      ['DELETE', `/api/v4/notifications/${id}`],
      ['POST', '/notification'],
      ['PUT', `/notification/ntf_${id}`],
      ['DELETE', `/notification/ntf_${id}`],
    ]) {
      const res = await admin.request(method, path, { status: 'failed' });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await admin.get(`/api/v4/notifications/${id}`)).body.status).toBe('sent');
  });

  it('lists with the filters of docs/api.md#lists: alert_id, account_user_id, channel, template, on both interfaces', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const one = await pagedAlone(a);
    await pagedAlone(b);
    const byAlert = await admin.get(`/api/v4/notifications?alert_id=${one.alert.id}`);
    expect(byAlert.status).toBe(200);
    expect(byAlert.body.total_count).toBe(2);
    expect(byAlert.body.data.every((n: { alert_id: string }) => n.alert_id === one.alert.id)).toBe(true);
    const prefixed = await admin.get(`/api/v4/notifications?alert_id=${one.alert.prefix_id}&channel=email`);
    expect(prefixed.body.total_count).toBe(1);
    const byPerson = await admin.get(`/api/v4/notifications?account_user_id=${b.id}&template=alert_alert&limit=1`);
    expect(byPerson.body).toMatchObject({ total_count: 2, has_more: true });
    expect(byPerson.body.data[0].account_user_id).toBe(b.id);
    const push = await admin.get(`/api/v4/notifications?account_user_id=${a.id}&channel=push`);
    expect(push.body.data.map((n: { channel: string }) => n.channel)).toEqual(['push']);
    expect((await admin.get('/api/v4/notifications?chanel=push')).status).toBe(422);
    expect((await admin.get('/notification?chanel=push')).status).toBe(400);

    const earlier = await admin.get(`/notification?source_id=${one.alert.prefix_id}&select=channel,user_id`);
    expect(earlier.status).toBe(200);
    expect(earlier.body.total_count).toBe(2);
    expect(earlier.body.data[0]).toEqual({ id: expect.stringMatching(/^ntf_/), channel: expect.any(String), user_id: `usr_${a.userId}` });
    const aliases = await admin.get(`/notification?alert_id=${one.alert.id}&account_user_id=${a.id}&channel=push`);
    expect(aliases.body.total_count).toBe(1);
    const byUser = await admin.get(`/notification?user_id=usr_${b.userId}&sort=-createdAt`);
    expect(byUser.body.data.every((n: { user_id: string }) => n.user_id === `usr_${b.userId}`)).toBe(true);
  });

  it("records every channel the person's defaults name: SMS and voice to the primary phone", async () => {
    const a = await person(admin, { sms: true, voice: true, email: false, push: false });
    const alert = await alertTo(admin, { users: [a.id] });
    const sent = await sentFor(admin, alert.id, (s) => s.length >= 2);
    expect(sent.map((n) => n.channel).sort()).toEqual(['sms', 'voice']);
    const sms = sent.find((n) => n.channel === 'sms')!;
    expect(sms.to).toMatch(/^\+1415555/);
    expect(sms.message).toContain(`#${alert.tiny_id}`);
    expect(sms.message.length).toBeLessThanOrEqual(160);
    const voice = sent.find((n) => n.channel === 'voice')!;
    expect(voice.message).toMatch(/Alert/);
  });

  it('is invisible to another account: 404 by id, absent from its lists', async () => {
    const a = await person(admin);
    const { sent } = await pagedAlone(a);
    const other = await signupAccount(service, 'Elsewhere');
    expect((await other.client.get(`/api/v4/notifications/${sent[0].id}`)).status).toBe(404);
    expect((await other.client.get(`/notification/ntf_${sent[0].id}`)).status).toBe(404);
    const list = await other.client.get('/api/v4/notifications?limit=100');
    expect(list.body.data.some((n: { id: string }) => n.id === sent[0].id)).toBe(false);
    expect((await other.client.get(`/api/v4/notifications?alert_id=${sent[0].alert_id}`)).body.total_count).toBe(0);
  });
});

describe("the account's notification_templates", () => {
  it('shape the subject and message of pages; the built-in text is used where none is set', async () => {
    const put = await admin.put(`/account/acc_${accountId}`, {
      notification_templates: {
        alert_alert: {
          email: {
            subject: 'PAGE #{{alert.tiny_id}} {{alert.urgency}}: {{alert.title}}',
            message: 'Hello {{account_user.name}}, {{alert.title}} needs you.',
          },
        },
      },
    });
    expect(put.status, put.text).toBe(200);
    try {
      const a = await person(admin, { name: 'Dana' });
      const { alert, sent } = await pagedAlone(a, 'Disk full');
      const email = sent.find((n) => n.channel === 'email')!;
      expect(email.subject).toBe(`PAGE #${alert.tiny_id} high: Disk full`);
      expect(email.message).toContain('Hello Dana, Disk full needs you.');
      // Links are appended to every page; the stored text never holds the token.
      expect(email.message).toMatch(/Acknowledge: http:\/\/127\.0\.0\.1:\d+\/public\/respond\/\[token\]/);
      const push = sent.find((n) => n.channel === 'push')!;
      expect(push.subject).toBe(`Alert #${alert.tiny_id} (high): Disk full`);
    } finally {
      await admin.put(`/account/acc_${accountId}`, { notification_templates: {} });
    }
  });

  it('refuses a template that does not compile, an unknown template or channel: 400 naming the field, nothing changed', async () => {
    const before = (await admin.get(`/account/acc_${accountId}`)).body.notification_templates;
    const cases: [unknown, string][] = [
      [{ alert_alert: { email: { subject: '{{#each alert}}x{{/each}}' } } }, 'notification_templates.alert_alert.email.subject'],
      [{ alert_nope: {} }, 'notification_templates.alert_nope'],
      [{ alert_alert: { fax: { message: 'x' } } }, 'notification_templates.alert_alert.fax'],
      [{ alert_alert: { sms: { subject: 'x' } } }, 'notification_templates.alert_alert.sms.subject'],
    ];
    for (const [templates, field] of cases) {
      const res = await admin.put(`/account/acc_${accountId}`, { notification_templates: templates });
      expect(res.status, JSON.stringify(templates)).toBe(400);
      expect(res.body.errors[0].message).toContain(field);
    }
    expect((await admin.get(`/account/acc_${accountId}`)).body.notification_templates).toEqual(before);
  });
});

describe('one-click responses', () => {
  async function pageWithLinks(who: Person, layers?: string[][]) {
    let alert;
    if (layers) {
      const t = await team(admin, { layers, timeouts: layers.map(() => 60) });
      alert = await alertTo(admin, { teams: [t.id] });
    } else alert = await alertTo(admin, { users: [who.id] });
    await sentFor(admin, alert.id, (s) => s.some((n) => n.account_user_id === who.id && n.channel === 'email' && n.status === 'sent'));
    const message = delivered(
      (m) => m.accountUserId === who.id && m.channel === 'email' && m.template === 'alert_alert' && m.message.includes(`#${alert.tiny_id}`),
    );
    expect(message?.links?.acknowledge).toMatch(/\/public\/respond\/r1\./);
    expect(message!.message).toContain(message!.links!.acknowledge!);
    return { alert, links: message!.links as { acknowledge: string; reject: string } };
  }

  const path = (link: string) => new URL(link).pathname;

  it('GET shows what the click will do (a page with a strict CSP and no script); POST acknowledges; a replay changes nothing', async () => {
    const a = await person(admin);
    // A team's hour-long layer (6 s here), not a lone user's 5 minutes (0.5 s): the alert stays open
    // while the test reads the page, even on a loaded machine.
    const { alert, links } = await pageWithLinks(a, [[a.id]]);
    const page = await service.anonymous.get(path(links.acknowledge));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain(`Acknowledge alert #${alert.tiny_id}?`);
    expect(page.text).toContain('<form method="post"');
    expect(page.text).not.toMatch(/<script/i);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');

    const json = await service.anonymous.get(path(links.acknowledge), { accept: 'application/json' });
    expect(json.body).toMatchObject({ status: 200, action: 'acknowledge', alert: { id: alert.id, status: 'open' } });

    const done = await service.anonymous.post(path(links.acknowledge), undefined, { accept: 'application/json' });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: 200, alert: { status: 'acknowledged' } });
    const acknowledged = await admin.get(`/alert/${alert.prefix_id}`);
    expect(acknowledged.body).toMatchObject({ status: 'acknowledged', acknowledgedby: `usr_${a.userId}` });

    const replay = await service.anonymous.post(path(links.acknowledge));
    expect(replay.status).toBe(409);
    expect(replay.text).toContain('Nothing');
    // The reject link of that page can do nothing now either.
    expect((await service.anonymous.post(path(links.reject), undefined, { accept: 'application/json' })).status).toBe(409);
  });

  it('the reject link closes that workflow and moves on to the next layer at once', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const { alert, links } = await pageWithLinks(a, [[a.id], [b.id]]);
    const res = await service.anonymous.post(path(links.reject), undefined, { accept: 'application/json' });
    expect(res.status, res.text).toBe(200);
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(b.id), 3_000);
    expect(pagedPeople(sent)).toEqual([a.id, b.id]);
    expect((await service.anonymous.post(path(links.reject))).status).toBe(409);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('an expired link (after 24 hours) is refused with 410 and changes nothing', async () => {
    const a = await person(admin);
    const { alert, links } = await pageWithLinks(a);
    await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    testClock.advance(24 * 3_600_000 + 1_000);
    const res = await service.anonymous.post(path(links.acknowledge));
    expect(res.status).toBe(410);
    expect(res.text).toContain('expired');
    expect((await service.anonymous.get(path(links.reject), { accept: 'application/json' })).body.status).toBe(410);
  });

  it("a tampered link, or a well-signed one for someone else's workflow, is not valid (404) and changes nothing", async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const { alert, links } = await pageWithLinks(a, [[a.id, b.id]]);
    const token = path(links.acknowledge).split('/').pop()!;
    const [version, body, mac] = token.split('.');
    const tampered = `${version}.${body.slice(0, -2)}${body.slice(-2) === 'AA' ? 'AB' : 'AA'}.${mac}`;
    expect((await service.anonymous.post(`/public/respond/${tampered}`)).status).toBe(404);
    expect((await service.anonymous.get('/public/respond/not-a-token')).status).toBe(404);
    const sent = await notificationsOf(admin, alert.id);
    const bWorkflow = sent.find((n) => n.account_user_id === b.id)!.workflow_id!;
    // Signed with the right secret, but naming b's workflow for a: not a's page.
    const foreign = await responseLinks({ accountId, alertId: alert.id, workflowId: bWorkflow, accountUserId: a.id });
    const res = await service.anonymous.post(path(foreign.reject!), undefined, { accept: 'application/json' });
    expect(res.status).toBe(404);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    // Another account's user and alert never match.
    const other = await signupAccount(service, 'Foreign');
    const crossed = await responseLinks({ accountId: other.accountId, alertId: alert.id, workflowId: bWorkflow, accountUserId: b.id });
    expect((await service.anonymous.post(path(crossed.acknowledge!))).status).toBe(404);
    await settle(service);
    expect((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status).toBe('open');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});
