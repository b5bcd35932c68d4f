// Slack (docs/api.md#slack) through the real local server and the service's Slack client, pointed by
// SLACK_API_URL at a stand-in on loopback (test/support/slack-stand-in.ts): connecting a workspace
// (auth.test, one workspace per account, secrets sealed and never shown), people's slack_user_id
// (looked up by e-mail once), pages by direct message with their buttons, team channel messages
// posted once and updated in place after every change from any interface, and Slack's rate limits
// honoured by the service's clock.
// @moto: the workspace claim and Slack links (conditional puts), team messages' lease and the due index.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../support/dependencies';
import { passTime, runDueSweeps, settle } from '../support/quiescence';
import { getConnection } from '../../lib/slack-client/store';
import { createMember, type ApiClient } from '../support/api-client';
import { signupAccount, startService, type TestService } from '../support/runtime';
import { SlackStandIn, type Workspace } from '../support/slack-stand-in';
import { alertTo, person, sentFor, team } from '../escalation/support';
import { buttonsOf, click, connect, eventually, slackPerson, textOf } from '../slack/support';

let standIn: SlackStandIn;
let service: TestService;
let admin: ApiClient;
let accountId: string;
let workspace: Workspace;

beforeAll(async () => {
  standIn = await SlackStandIn.start();
  service = await startService({ env: { SLACK_API_URL: standIn.apiUrl } });
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
  workspace = standIn.addWorkspace('Acme');
});
// No test starts where another left the clock.
afterEach(() => testClock.reset());
afterAll(async () => {
  testClock.reset();
  await service?.stop();
  await standIn?.close();
});

/** Waits until the alert's timeline holds its acknowledgement: the change is written and its event published. */
const acknowledgementRecorded = (prefixId: string) =>
  eventually(async () => {
    const res = await admin.get(`/log?owner_id=${prefixId}&limit=100`);
    return (res.body.data as { data: { action: string } }[]).some((entry) => entry.data.action === 'acknowledged') || undefined;
  }, 'the acknowledgement in the timeline');

const messages = (res: { body: any }) => (res.body?.errors ?? []).map((e: { message: string }) => e.message).join(' | ');

describe('connecting a workspace', () => {
  it('is 404 before, refuses bad input naming the field, and checks the token with auth.test', async () => {
    expect((await admin.get('/api/v4/slack')).status).toBe(404);
    const missing = await admin.put('/api/v4/slack', {});
    expect(missing.status).toBe(422);
    expect(messages(missing)).toMatch(/bot_token/);
    expect(messages(missing)).toMatch(/signing_secret/);
    const userToken = await admin.put('/api/v4/slack', { bot_token: 'xoxp-123-456', signing_secret: workspace.signingSecret });
    expect(userToken.status).toBe(422);
    expect(messages(userToken)).toMatch(/bot_token must be a Slack bot token/);
    const calls = standIn.callsOf('auth.test').length;
    const refused = await admin.put('/api/v4/slack', { bot_token: 'xoxb-1-not-a-real-token', signing_secret: workspace.signingSecret });
    expect(refused.status).toBe(422);
    expect(messages(refused)).toMatch(/bot_token was refused by Slack \(auth\.test: invalid_auth\)/);
    const asked = standIn.callsOf('auth.test').slice(calls);
    expect(asked).toHaveLength(1);
    expect(asked[0].token).toBe('xoxb-1-not-a-real-token');
    expect((await admin.get('/api/v4/slack')).status).toBe(404);
  });

  it('keeps the workspace, never shows the secrets, and stores them sealed', { tags: ['moto'] }, async () => {
    const connected = await connect(admin, standIn, workspace);
    expect(connected).toEqual({
      connected: true,
      team_id: workspace.teamId,
      team_name: 'Acme',
      bot_user_id: workspace.botUserId,
      connected_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const read = await admin.get('/api/v4/slack');
    expect(read.body).toEqual(connected);
    for (const text of [read.text, JSON.stringify(connected)]) {
      expect(text).not.toContain(workspace.botToken);
      expect(text).not.toContain(workspace.signingSecret);
    }
    // The auth.test call carried the token as a bearer token, as Slack's SDK sends it.
    const check = standIn.callsOf('auth.test').at(-1)!;
    expect(check.token).toBe(workspace.botToken);
    // At rest: neither secret appears in the stored item.
    const stored = await getConnection(accountId);
    const item = JSON.stringify(stored);
    expect(item).not.toContain(workspace.botToken);
    expect(item).not.toContain(workspace.signingSecret);
    expect(stored!.bot_token_sealed).toMatch(/^v1\.[\w-]{40,}$/);
  });

  it('is for admins only', async () => {
    const { client } = await createMember(admin, { name: 'Not an admin' });
    const res = await client.put('/api/v4/slack', { bot_token: workspace.botToken, signing_secret: workspace.signingSecret });
    expect(res.status).toBe(403);
    expect((await client.delete('/api/v4/slack')).status).toBe(403);
    expect((await client.get('/api/v4/slack')).status).toBe(200);
  });

  it('gives one workspace to one account: another account connecting it is 409', { tags: ['moto'] }, async () => {
    const other = await signupAccount(service, 'Rival');
    const res = await other.client.put('/api/v4/slack', { bot_token: workspace.botToken, signing_secret: workspace.signingSecret });
    expect(res.status).toBe(409);
    expect(messages(res)).toMatch(new RegExp(`${workspace.teamId}.*connected to another account`));
    expect((await other.client.get('/api/v4/slack')).status).toBe(404);
    // Disconnected, the workspace is free again; connected back here afterwards.
    expect((await admin.delete('/api/v4/slack')).status).toBe(204);
    expect((await admin.get('/api/v4/slack')).status).toBe(404);
    expect((await admin.delete('/api/v4/slack')).status).toBe(404);
    const taken = await other.client.put('/api/v4/slack', { bot_token: workspace.botToken, signing_secret: workspace.signingSecret });
    expect(taken.status, taken.text).toBe(200);
    expect((await admin.put('/api/v4/slack', { bot_token: workspace.botToken, signing_secret: workspace.signingSecret })).status).toBe(409);
    expect((await other.client.delete('/api/v4/slack')).status).toBe(204);
    await connect(admin, standIn, workspace);
  });
});

describe('people', () => {
  it(
    'slack_user_id: null by default, validated, set by an admin or the person, one account user per Slack user',
    { tags: ['moto'] },
    async () => {
      const a = await person(admin);
      const b = await person(admin);
      const read = await admin.get(`/api/v4/account_users/${a.id}`);
      expect(read.body.slack_user_id).toBeNull();
      expect(read.body.user.notify_slack).toBe(false);
      const bad = await admin.put(`/api/v4/account_users/${a.id}`, { slack_user_id: 'alice' });
      expect(bad.status).toBe(422);
      expect(messages(bad)).toMatch(/^slack_user_id must be a Slack user id/);
      const own = await a.client.put(`/api/v4/account_users/${a.id}`, {
        slack_user_id: 'UAAAA0001',
        user_attributes: { notify_slack: true },
      });
      expect(own.status, own.text).toBe(200);
      expect(own.body.slack_user_id).toBe('UAAAA0001');
      expect(own.body.user.notify_slack).toBe(true);
      expect((await b.client.put(`/api/v4/account_users/${a.id}`, { slack_user_id: 'UAAAA0002' })).status).toBe(403);
      const taken = await admin.put(`/api/v4/account_users/${b.id}`, { slack_user_id: 'UAAAA0001' });
      expect(taken.status).toBe(409);
      expect(messages(taken)).toMatch(/slack_user_id UAAAA0001 is already linked to another account user/);
      // Unlinked, the Slack user is free for someone else.
      expect((await admin.put(`/api/v4/account_users/${a.id}`, { slack_user_id: null })).status).toBe(200);
      expect((await admin.put(`/api/v4/account_users/${b.id}`, { slack_user_id: 'UAAAA0001' })).body.slack_user_id).toBe('UAAAA0001');
      expect((await admin.get('/api/v4/account_users?slack_user_id=UAAAA0001')).body.data.map((u: any) => u.id)).toEqual([b.id]);
    },
  );
});

describe('pages by direct message', () => {
  // Each group runs on its own too (vitest -t): the account is connected whatever ran before.
  beforeAll(() => connect(admin, standIn, workspace));

  it('one DM per page, naming tiny id, title, urgency and a console link, with acknowledge, reject and resolve', async () => {
    const p = await slackPerson(admin, standIn, workspace);
    const t = await team(admin, { layers: [[p.id]] });
    const alert = await alertTo(admin, { teams: [t.id] }, 'Disk full on db-7');
    const sent = await sentFor(admin, alert.id, (s) => s.some((n) => n.status !== 'queued'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ channel: 'slack', template: 'alert_alert', to: p.slackUserId, status: 'sent' });
    const full = (await admin.get(`/api/v4/notifications/${sent[0].id}`)).body;
    expect(full.provider).toBe('slack');
    const dms = standIn.messagesIn(p.slackUserId);
    expect(dms).toHaveLength(1);
    const post = standIn.callsOf('chat.postMessage').find((c) => c.args.channel === p.slackUserId)!;
    expect(post.token).toBe(workspace.botToken);
    expect(post.args.text).toMatch(new RegExp(`#${alert.tiny_id}.*Disk full on db-7.*high`));
    expect(buttonsOf(dms[0].blocks)).toEqual({ acknowledge: alert.prefix_id, reject: alert.prefix_id, resolve: alert.prefix_id });
    expect(textOf(dms[0].blocks)).toContain(`${service.url}/#/alerts/${alert.id}`);
    expect(textOf(dms[0].blocks)).toMatch(/Urgency:\*\s*high/);
  });

  it('looks a person without slack_user_id up by their e-mail once, and keeps the id', async () => {
    const p = await slackPerson(admin, standIn, workspace, { linked: false });
    const t = await team(admin, { layers: [[p.id]] });
    const lookups = () => standIn.callsOf('users.lookupByEmail').filter((c) => c.args.email === p.email);
    const first = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, first.id, (s) => s.some((n) => n.status === 'sent'));
    const second = await alertTo(admin, { teams: [t.id] });
    const sent = await sentFor(admin, second.id, (s) => s.some((n) => n.status === 'sent'));
    expect(sent[0].to).toBe(p.slackUserId);
    expect(lookups()).toHaveLength(1);
    expect((await admin.get(`/api/v4/account_users/${p.id}`)).body.slack_user_id).toBe(p.slackUserId);
    expect(standIn.messagesIn(p.slackUserId)).toHaveLength(2);
  });

  it('records failed with the reason: nobody in Slack with the e-mail, Slack answering ok: false, no connection', async () => {
    const stranger = await person(admin, { push: false, email: false });
    expect((await admin.put(`/api/v4/account_users/${stranger.id}`, { user_attributes: { notify_slack: true } })).status).toBe(200);
    const p = await slackPerson(admin, standIn, workspace);
    const t = await team(admin, { layers: [[stranger.id, p.id]] });
    standIn.failNext('chat.postMessage', { error: 'channel_not_found', when: (args) => args.channel === p.slackUserId });
    const alert = await alertTo(admin, { teams: [t.id] });
    // Each failed Slack page fails over to the person's next channel (contract §13): only the Slack tries are looked at.
    const slackTries = (s: Awaited<ReturnType<typeof sentFor>>) => s.filter((n) => n.channel === 'slack' && n.status !== 'queued');
    const sent = slackTries(await sentFor(admin, alert.id, (s) => slackTries(s).length === 2));
    const byPerson = new Map(sent.map((n) => [n.account_user_id, n]));
    const unknown = (await admin.get(`/notification/ntf_${byPerson.get(stranger.id)!.id}`)).body;
    expect(unknown).toMatchObject({ status: 'failed', provider: 'slack' });
    expect(unknown.err.join(' ')).toMatch(
      new RegExp(`nobody in the Slack workspace Acme has the e-mail ${stranger.email}.*users_not_found`),
    );
    const refused = (await admin.get(`/notification/ntf_${byPerson.get(p.id)!.id}`)).body;
    expect(refused).toMatchObject({ status: 'failed', provider: 'slack', to: p.slackUserId });
    expect(refused.err.join(' ')).toMatch(/chat\.postMessage: channel_not_found/);

    // An account without a connection.
    const other = await signupAccount(service, 'Unconnected');
    const me = (await other.client.get('/api/v4/account_users?limit=1')).body.data[0];
    expect(
      (await other.client.put(`/api/v4/account_users/${me.id}`, { slack_user_id: 'UNOWHERE1', user_attributes: { notify_slack: true } }))
        .status,
    ).toBe(200);
    const elsewhere = await other.client.post('/api/v4/alerts', { title: 'x', urgency: 'low', destination_account_user_ids: [me.id] });
    const failed = (
      await sentFor(other.client, elsewhere.body.id, (s) => s.some((n) => n.channel === 'slack' && n.status !== 'queued'))
    ).find((n) => n.channel === 'slack')!;
    const shown = (await other.client.get(`/notification/ntf_${failed.id}`)).body;
    expect(shown).toMatchObject({ status: 'failed', provider: 'slack' });
    expect(shown.err.join(' ')).toMatch(/Slack is not connected/);
  });

  it('a notification rule picks slack with channels: [slack]', async () => {
    const p = await person(admin);
    const slackUserId = standIn.addUser(workspace, p.email);
    const rule = await admin.post('/api/v4/notification_rules', {
      name: 'Slack only',
      rules: 'rules:\n  - match: {always: true}\n    actions:\n      - type: notify\n        channels: [slack]\n',
    });
    expect(rule.status, rule.text).toBe(201);
    expect(
      (await admin.put(`/api/v4/account_users/${p.id}`, { notification_rule_id: rule.body.id, slack_user_id: slackUserId })).status,
    ).toBe(200);
    const alert = await alertTo(admin, { users: [p.id] });
    const sent = await sentFor(admin, alert.id, (s) => s.some((n) => n.status !== 'queued'));
    expect(sent.map((n) => [n.channel, n.to, n.status])).toEqual([['slack', slackUserId, 'sent']]);
  });
});

describe('team channels', () => {
  beforeAll(() => connect(admin, standIn, workspace));

  it(
    'posts each alert once, then updates it in place on each change (no timer waited for) through v4, the earlier interface and a click',
    { tags: ['moto'] },
    async () => {
      const p = await slackPerson(admin, standIn, workspace, { name: 'Ada Lovelace' });
      const channel = standIn.addChannel();
      const t = await team(admin, { layers: [[p.id]] });
      const set = await admin.put(`/api/v4/teams/${t.id}`, { slack_channel_id: channel });
      expect(set.status, set.text).toBe(200);
      expect(set.body.slack_channel_id).toBe(channel);
      expect((await admin.put(`/api/v4/teams/${t.id}`, { slack_channel_id: '#general' })).status).toBe(422);

      const alert = await alertTo(admin, { teams: [t.id] }, 'Queue backlog');
      const posted = await eventually(() => standIn.messagesIn(channel)[0], 'the team message');
      expect(buttonsOf(posted.blocks)).toEqual({ acknowledge: alert.prefix_id, reject: alert.prefix_id, resolve: alert.prefix_id });
      expect(posted.text).toMatch(new RegExp(`#${alert.tiny_id}: Queue backlog \\(high, open\\)`));

      // The contract's "within 5 s of each change": the update follows the change itself, not a timer.
      // So it is there once the runtime is at rest, with the service's clock where it was and no sweep
      // run (a sync left to a retry or to the sweeper would not have run yet).
      expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
      await settle(service);
      const update = standIn.callsOf('chat.update').filter((c) => c.args.ts === posted.ts);
      expect(update).toHaveLength(1);
      expect(update[0].args.channel).toBe(channel);
      expect(posted.text).toMatch(/acknowledged/);
      expect(textOf(posted.blocks)).toMatch(/Acknowledged by Admin/);
      expect(buttonsOf(posted.blocks)).toEqual({ resolve: alert.prefix_id });

      // The earlier interface resolves it.
      expect((await admin.post(`/alert/${alert.prefix_id}/resolve`)).status).toBe(200);
      await settle(service);
      expect(textOf(posted.blocks)).toMatch(/Resolved by Admin/);
      expect(posted.text).toMatch(/resolved/);
      expect(buttonsOf(posted.blocks)).toEqual({});

      // A click on the team message of another alert acknowledges it as the linked person.
      const second = await alertTo(admin, { teams: [t.id] }, 'Second');
      const message = await eventually(() => standIn.messagesIn(channel).find((m) => m.text.includes('Second')), 'the second message');
      const clicked = await click(service, standIn, workspace, {
        userId: p.slackUserId,
        actionId: 'acknowledge',
        value: second.prefix_id,
        channel,
        messageTs: message.ts,
      });
      expect(clicked.status).toBe(200);
      // Slack is answered after 2.5 s even when the work goes on (a loaded machine): the change is
      // recorded in the alert's timeline, and its event published, before the runtime is brought to rest.
      await acknowledgementRecorded(second.prefix_id);
      await settle(service);
      expect(textOf(message.blocks)).toMatch(/Acknowledged by Ada Lovelace/);

      // Once per alert: every message in the channel is a different alert's, and nothing else was posted.
      await runDueSweeps(service);
      const inChannel = standIn.callsOf('chat.postMessage').filter((c) => c.args.channel === channel);
      expect(inChannel).toHaveLength(2);
    },
  );

  it("a hand-off to another team: the first team's message shows it, the new team's channel gets its own", async () => {
    const p = await slackPerson(admin, standIn, workspace);
    const [first, second] = [standIn.addChannel(), standIn.addChannel()];
    const a = await team(admin, { layers: [[p.id]] });
    const b = await team(admin, { layers: [[p.id]] });
    expect((await admin.put(`/api/v4/teams/${a.id}`, { slack_channel_id: first, name: 'Alpha' })).status).toBe(200);
    expect((await admin.put(`/api/v4/teams/${b.id}`, { slack_channel_id: second, name: 'Bravo' })).status).toBe(200);
    const alert = await alertTo(admin, { teams: [a.id] }, 'Handed on');
    const posted = await eventually(() => standIn.messagesIn(first)[0], 'the first team message');
    expect(textOf(posted.blocks)).toMatch(/Assigned to:\* Alpha/);
    const handoff = await admin.post(`/alert/${alert.prefix_id}/handoff`, { to: `tem_${b.id}` });
    expect(handoff.status, handoff.text).toBe(200);
    const other = await eventually(() => standIn.messagesIn(second)[0], 'the new team message');
    expect(textOf(other.blocks)).toMatch(/Assigned to:\* Bravo/);
    await eventually(() => (/Handed off by Admin/.test(textOf(posted.blocks)) ? true : undefined), 'the first message updated');
    expect(textOf(posted.blocks)).toMatch(/Handed off by Admin/);
    expect(textOf(posted.blocks)).toMatch(/Assigned to:\* Bravo/);
    expect(standIn.messagesIn(first)).toHaveLength(1);
  });

  it('escalation dropping the alert updates the message: who did it, and the buttons a dropped alert has', async () => {
    const p = await slackPerson(admin, standIn, workspace);
    const channel = standIn.addChannel();
    const t = await team(admin, { layers: [[p.id]], timeouts: [1] });
    expect((await admin.put(`/api/v4/teams/${t.id}`, { slack_channel_id: channel })).status).toBe(200);
    const alert = await alertTo(admin, { teams: [t.id] }, 'Nobody home');
    const posted = await eventually(() => standIn.messagesIn(channel)[0], 'the team message');
    // The layer's minute passes by the service clock; the sweeper runs the late step.
    testClock.advance(65_000);
    await service.runtime.runScheduled('sweeper');
    await eventually(
      async () => ((await admin.get(`/api/v4/alerts/${alert.id}`)).body.status === 'dropped' ? true : undefined),
      'the drop',
    );
    // The message may first show the new status alone (a sync already under way), then who made the change.
    await eventually(
      () => (/Dropped: nobody acknowledged it in time/.test(textOf(posted.blocks)) ? true : undefined),
      'the drop shown',
      5_000,
    );
    expect(posted.text).toMatch(/dropped/);
    expect(buttonsOf(posted.blocks)).toEqual({ acknowledge: alert.prefix_id, resolve: alert.prefix_id });
  });

  it('retries an update that Slack rate-limits once Retry-After has passed by the service clock, not before', async () => {
    const p = await slackPerson(admin, standIn, workspace);
    const channel = standIn.addChannel();
    const t = await team(admin, { layers: [[p.id]] });
    expect((await admin.put(`/api/v4/teams/${t.id}`, { slack_channel_id: channel })).status).toBe(200);
    const alert = await alertTo(admin, { teams: [t.id] }, 'Rate limited');
    const posted = await eventually(() => standIn.messagesIn(channel)[0], 'the team message');
    const updates = () => standIn.callsOf('chat.update').filter((c) => c.args.ts === posted.ts);

    standIn.failNext('chat.update', { retryAfter: 30, when: (args) => args.ts === posted.ts });
    expect((await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    await eventually(() => (updates().length === 1 ? true : undefined), 'the rate-limited update');
    expect(updates()[0].status).toBe(429);

    // Another change meanwhile is not sent to Slack either: the limit lasts 30 s by the service clock
    // (20 s on, with room for a slow machine's own seconds).
    expect((await admin.post(`/api/v4/alerts/${alert.id}/resolve`)).status).toBe(200);
    await runDueSweeps(service);
    await passTime(service, 20_000);
    expect(updates()).toHaveLength(1);
    expect(posted.history).toHaveLength(1);

    testClock.advance(11_000);
    await service.runtime.runScheduled('sweeper');
    await eventually(() => (updates().length === 2 ? true : undefined), 'the retried update');
    expect(updates()[1].status).toBe(200);
    expect(posted.text).toMatch(/resolved/);
  });

  it('a page while chat.postMessage is rate limited fails at once without asking Slack', async () => {
    const p = await slackPerson(admin, standIn, workspace);
    // Ten minutes of Retry-After by the service clock: longer than a loaded machine takes for the two pages.
    standIn.failNext('chat.postMessage', { retryAfter: 600, when: (args) => args.channel === p.slackUserId });
    // Only the Slack messages: a failed one fails over to the person's next channel (its own notification).
    const slackOnly = (sent: Awaited<ReturnType<typeof sentFor>>) => sent.filter((n) => n.channel === 'slack');
    const slackTried = (alertId: string) => sentFor(admin, alertId, (s) => slackOnly(s).some((n) => n.status !== 'queued')).then(slackOnly);
    const first = await alertTo(admin, { users: [p.id] });
    const one = await slackTried(first.id);
    const calls = standIn.callsOf('chat.postMessage').length;
    const second = await alertTo(admin, { users: [p.id] });
    const two = await slackTried(second.id);
    expect(standIn.callsOf('chat.postMessage')).toHaveLength(calls);
    expect([...one, ...two]).toHaveLength(2);
    for (const n of [...one, ...two]) {
      const shown = (await admin.get(`/notification/ntf_${n.id}`)).body;
      expect(shown.status).toBe('failed');
      expect(shown.err.join(' ')).toMatch(/chat\.postMessage: ratelimited \(retry after \d+ s\)/);
    }
    testClock.advance(601_000);
    const third = await alertTo(admin, { users: [p.id] });
    expect((await slackTried(third.id))[0].status).toBe('sent');
  });
});
