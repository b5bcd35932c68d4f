// A team's chat webhooks through the real local server (docs/api.md#chat-webhooks): the field saved,
// shown and refused as documented; each alert assigned to the team posted as a card in each chat's
// format to a loopback receiver; a one-line follow-up for each later change made through either
// interface, a hand-off or a policy's reassignment; a receiver that fails gets the card once it
// recovers (clock advanced, sweeper run); a redelivered queue message posts nothing twice; a team
// with a Slack channel as well gets both (test/support/slack-stand-in.ts behind SLACK_API_URL).
// @moto: deliveries made once under redelivered messages (conditional puts), claimed tries and the due index.
// The runtime starts without pollers: each test drains the queues itself until they are at rest, then
// asserts, including that nothing else arrived. Loopback receivers are allowed as the outgoing webhook
// tests allow them (ALLOW_PRIVATE_AUTOMATION_TARGETS); chat-webhooks-guard.test.ts runs without that.
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { toRecord } from '../../infra/local/sqs-poller';
import { changeEnvironment, testClock } from '../support/dependencies';
import { drainQueue, settleQueues } from '../support/queues';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { untilArrived } from '../support/quiescence';
import type { ApiClient } from '../support/api-client';
import { useHttpTarget, type Received } from '../support/http-target';
import { SlackStandIn } from '../support/slack-stand-in';
import { notificationsOf, person, team, type Person } from '../escalation/support';
import { connect, textOf } from '../slack/support';

const target = useHttpTarget();
let service: TestService;
let admin: ApiClient;
let alice: Person;
let bob: Person;

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    alice = await person(admin, { name: 'Alice Chat' });
    bob = await person(admin, { name: 'Bob Chat' });
  },
  { env: { ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true' }, pollerConcurrency: 0 },
);

const TYPES = ['slack', 'msteams', 'mattermost', 'google_chat', 'discord'] as const;
type ChatType = (typeof TYPES)[number];
type Json = Record<string, any>;

const uid = () => Math.random().toString(36).slice(2, 10);
const messages = (res: { body: any }) => (res.body?.errors ?? []).map((e: { message: string }) => e.message) as string[];

/** Routing, escalation and the webhooks queue at rest. */
const settle = () => settleQueues(service, ['routing', 'escalation', 'webhooks']);

/** Past the first retry's due time and the sweeper's grace (30 s + 2 min): the sweeper re-drives what is pending. */
async function afterTheFirstRetryIsDue(): Promise<void> {
  testClock.advance(3 * 60_000);
  await service.runtime.runScheduled('sweeper');
  await settle();
}

const at = (path: string): Received[] => target().received.filter((r) => r.url === path);
const bodiesAt = (path: string): Json[] => at(path).map((r) => JSON.parse(r.body));

/** One webhook per chat (or those given), each at a path of its own on the receiver. */
function webhooks(types: readonly ChatType[] = TYPES): { type: ChatType; url: string; path: string }[] {
  return types.map((type) => {
    const path = `/${type}/${uid()}`;
    return { type, url: `${target().url}${path}`, path };
  });
}

async function teamWithChats(hooks: { type: ChatType; url: string }[], layers: string[][] = [[alice.id]], extra = {}) {
  const created = await team(admin, { layers, ...extra });
  const res = await admin.put(`/api/v4/teams/${created.id}`, { chat_webhooks: hooks.map(({ type, url }) => ({ type, url })) });
  expect(res.status, res.text).toBe(200);
  return { ...created, name: res.body.name as string };
}

async function alertFor(teamIds: string[], title = `Disk full ${uid()}`) {
  const res = await admin.post('/api/v4/alerts', { title, description: 'Only 2 % left.', urgency: 'high', destination_team_ids: teamIds });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; prefix_id: string; tiny_id: number; title: string };
}

/** The text a follow-up shows, whatever the chat. */
function followUpText(type: ChatType, body: Json): string {
  if (type === 'msteams') return body.attachments[0].content.body[0].text;
  if (type === 'discord') return body.content;
  return body.text;
}

describe('a team’s chat_webhooks field', () => {
  it('is saved on create and update, shown on read, and emptied by [] or null', async () => {
    const [slack, discord] = webhooks(['slack', 'discord']);
    const created = await admin.post('/api/v4/teams', {
      name: `Chat ${uid()}`,
      member_account_user_ids: [alice.id],
      admin_account_user_ids: [alice.id],
      chat_webhooks: [{ type: slack.type, url: slack.url }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.chat_webhooks).toEqual([{ type: 'slack', url: slack.url }]);
    const replaced = await admin.put(`/api/v4/teams/${created.body.id}`, {
      chat_webhooks: [
        { type: 'discord', url: discord.url },
        { type: 'slack', url: slack.url },
      ],
    });
    expect(replaced.status, replaced.text).toBe(200);
    const read = await admin.get(`/api/v4/teams/${created.body.prefix_id}`);
    expect(read.body.chat_webhooks).toEqual([
      { type: 'discord', url: discord.url },
      { type: 'slack', url: slack.url },
    ]);
    // The list filters on the chats a team posts to.
    const slackOnly = await teamWithChats([slack]);
    const listed = await admin.get('/api/v4/teams?chat_webhooks.type=discord&limit=100');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((t: Json) => t.id)).toContain(created.body.id);
    expect(listed.body.data.map((t: Json) => t.id)).not.toContain(slackOnly.id);
    expect(listed.body.data.every((t: Json) => t.chat_webhooks.some((w: Json) => w.type === 'discord'))).toBe(true);
    // A PUT that does not name the field keeps it.
    expect((await admin.put(`/api/v4/teams/${created.body.id}`, { notes: 'x' })).body.chat_webhooks).toHaveLength(2);
    expect((await admin.put(`/api/v4/teams/${created.body.id}`, { chat_webhooks: null })).body.chat_webhooks).toEqual([]);
    const other = await admin.post('/api/v4/teams', {
      name: `Plain ${uid()}`,
      member_account_user_ids: [alice.id],
      admin_account_user_ids: [alice.id],
    });
    expect(other.body.chat_webhooks).toEqual([]);
  });

  it('refuses a wrong type, a URL that is not http(s), a repeat and too many, naming the entry, and changes nothing', async () => {
    const { id } = await teamWithChats(webhooks(['slack']));
    const before = (await admin.get(`/api/v4/teams/${id}`)).body;
    const put = (chat_webhooks: unknown) => admin.put(`/api/v4/teams/${id}`, { chat_webhooks, notes: 'changed' });

    let res = await put([
      { type: 'slack', url: 'https://hooks.example.com/a' },
      { type: 'irc', url: 'https://hooks.example.com/b' },
    ]);
    expect(res.status).toBe(422);
    expect(messages(res)).toEqual([
      expect.stringMatching(/^chat_webhooks\[1\]\.type must be one of: slack, msteams, mattermost, google_chat, discord/),
    ]);

    res = await put([{ type: 'slack', url: 'ftp://hooks.example.com/a' }]);
    expect(res.status).toBe(422);
    expect(messages(res)).toEqual(['chat_webhooks[0].url must be an https URL']);

    res = await put([{ type: 'discord', url: 'not a url' }]);
    expect(messages(res)).toEqual(['chat_webhooks[0].url is not a valid URL']);

    res = await put([
      { type: 'slack', url: 'https://hooks.example.com/a' },
      { type: 'discord', url: 'https://hooks.example.com/a' },
    ]);
    expect(messages(res)).toEqual(['chat_webhooks[1].url repeats chat_webhooks[0].url']);

    res = await put(Array.from({ length: 11 }, (_, i) => ({ type: 'slack', url: `https://hooks.example.com/${i}` })));
    expect(res.status).toBe(422);
    expect(messages(res)).toEqual(['chat_webhooks must have at most 10 entries']);

    res = await put([{ type: 'slack' }]);
    expect(messages(res)).toEqual(["chat_webhooks[0].url can't be blank"]);

    expect((await admin.get(`/api/v4/teams/${id}`)).body).toEqual(before);
  });

  it('answers hostile bodies with a 4xx naming the field, never a 5xx', async () => {
    const { id } = await teamWithChats(webhooks(['slack']));
    const before = (await admin.get(`/api/v4/teams/${id}`)).body;
    const hostile: unknown[] = [
      'https://hooks.example.com/a',
      { type: 'slack', url: 'https://hooks.example.com/a' },
      [null],
      [[]],
      [{ type: { $ne: null }, url: 'https://hooks.example.com/a' }],
      [{ type: 'slack', url: 12 }],
      [{ type: 'slack', url: `https://hooks.example.com/${'a'.repeat(5_000)}` }],
      [{ type: 'slack', url: 'javascript:alert(1)' }],
      [{ type: 'slack', url: 'https://user:pass@[::1' }],
      Array.from({ length: 300 }, () => ({ type: 'slack', url: 'https://hooks.example.com/a' })),
      [{ __proto__: { type: 'slack' }, url: 'https://hooks.example.com/a' }],
    ];
    for (const chat_webhooks of hostile) {
      const res = await admin.put(`/api/v4/teams/${id}`, { chat_webhooks });
      expect(res.status, JSON.stringify(chat_webhooks).slice(0, 80)).toBe(422);
      expect(messages(res).join(' ')).toMatch(/chat_webhooks/);
    }
    const raw = await fetch(`${service.url}/api/v4/teams/${id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${service.adminKey}`, 'content-type': 'application/json' },
      body: '{"chat_webhooks": [{"type": "slack", "url": ',
    });
    expect(raw.status).toBe(400);
    expect((await admin.get(`/api/v4/teams/${id}`)).body).toEqual(before);
  });

  it('is another account’s business: its team is a 404 and stays as it was', async () => {
    const { id } = await teamWithChats(webhooks(['slack']));
    const before = (await admin.get(`/api/v4/teams/${id}`)).body;
    const other = await signupAccount(service, 'Chatty');
    const res = await other.client.put(`/api/v4/teams/${id}`, { chat_webhooks: [{ type: 'slack', url: 'https://hooks.example.com/x' }] });
    expect(res.status).toBe(404);
    expect((await other.client.get(`/api/v4/teams/${id}`)).status).toBe(404);
    expect((await admin.get(`/api/v4/teams/${id}`)).body).toEqual(before);
  });
});

describe('cards', () => {
  it('posts each alert assigned to the team once to every chat, in that chat’s format, from the webhooks queue', async () => {
    const hooks = webhooks();
    const chats = await teamWithChats(hooks);
    const alert = await alertFor([chats.id]);
    const link = `${service.url}/#/alerts/${alert.id}`;
    const heading = `#${alert.tiny_id} ${alert.title}`;

    // Routing and escalation page alice without waiting for any chat: the cards are still queued.
    await drainQueue(service, 'routing');
    await drainQueue(service, 'escalation');
    expect((await notificationsOf(admin, alert.id)).map((n) => n.account_user_id)).toContain(alice.id);
    for (const hook of hooks) expect(at(hook.path)).toHaveLength(0);
    await settle();

    const got = Object.fromEntries(hooks.map((hook) => [hook.type, at(hook.path)]));
    for (const hook of hooks) {
      expect(got[hook.type], hook.type).toHaveLength(1);
      expect(got[hook.type][0].method).toBe('POST');
      expect(got[hook.type][0].headers['content-type']).toBe('application/json');
    }
    const body = (type: ChatType) => JSON.parse(got[type][0].body) as Json;

    const teamsCard = body('msteams');
    expect(teamsCard.type).toBe('message');
    expect(teamsCard.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    const content = teamsCard.attachments[0].content;
    expect(content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(content.body[0].items[0]).toMatchObject({ type: 'TextBlock', text: heading });
    expect(content.body[1]).toEqual({
      type: 'FactSet',
      facts: [
        { title: 'Urgency', value: 'High' },
        { title: 'Status', value: 'Open' },
        { title: 'Team', value: chats.name },
      ],
    });
    expect(content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in the console', url: link }]);

    for (const type of ['slack', 'mattermost'] as const) {
      const [attachment] = body(type).attachments;
      expect(attachment).toMatchObject({ title: heading, title_link: link, color: '#E53935', text: 'Only 2 % left.' });
      expect(attachment.fields).toEqual([
        { title: 'Urgency', value: 'High', short: true },
        { title: 'Status', value: 'Open', short: true },
        { title: 'Team', value: chats.name, short: true },
      ]);
    }

    const google = body('google_chat').cardsV2[0];
    expect(google.cardId).toBe(`alert-${alert.id}`);
    expect(google.card.header.title).toBe(heading);
    expect(google.card.sections[0].widgets.at(-1).buttonList.buttons[0].onClick.openLink.url).toBe(link);

    const [embed] = body('discord').embeds;
    expect(embed).toMatchObject({ title: heading, url: link, color: 0xe53935 });
    expect(embed.fields.map((f: Json) => [f.name, f.value])).toEqual([
      ['Urgency', 'High'],
      ['Status', 'Open'],
      ['Team', chats.name],
    ]);
    expect(body('discord').allowed_mentions).toEqual({ parse: [] });

    // Each try is a log of the team, which never shows a webhook's secret path.
    const logs = (await admin.get(`/log?owner_id=tem_${chats.id}&limit=100`)).body.data as Json[];
    expect(logs).toHaveLength(5);
    expect(logs.map((l) => l.data.outcome)).toEqual(Array(5).fill('delivered'));
    expect(logs.map((l) => l.data.chat_type).sort()).toEqual([...TYPES].sort());
    expect(logs.every((l) => l.data.message === 'card' && l.data.url === `${target().url}/…`)).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(hooks[0].path);
  });

  it('posts nothing for a team without chat webhooks, nor to a team the alert is not assigned to', async () => {
    const [hook] = webhooks(['slack']);
    await teamWithChats([hook]);
    const plain = await team(admin, { layers: [[alice.id]] });
    await alertFor([plain.id]);
    await settle();
    expect(at(hook.path)).toHaveLength(0);
  });
});

describe('follow-ups', () => {
  it('posts one line per later change, through v4 and the earlier interface, naming who made it', async () => {
    const hooks = webhooks();
    const chats = await teamWithChats(hooks);
    const alert = await alertFor([chats.id]);
    await settle();

    expect((await alice.client.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    await settle();
    expect((await bob.client.post(`/alert/${alert.prefix_id}/resolve`)).status).toBe(200);
    await settle();
    expect((await bob.client.post(`/alert/${alert.prefix_id}/archive`)).status).toBe(200);
    await settle();

    for (const hook of hooks) {
      const bodies = bodiesAt(hook.path);
      expect(bodies, hook.type).toHaveLength(4);
      const lines = bodies.slice(1).map((body) => followUpText(hook.type, body));
      const link = (label: string) =>
        hook.type === 'slack' || hook.type === 'google_chat'
          ? `<${service.url}/#/alerts/${alert.id}|${label}>`
          : `[${label}](${service.url}/#/alerts/${alert.id})`;
      expect(lines).toEqual([
        `${link(`#${alert.tiny_id}`)} acknowledged by Alice Chat: ${alert.title}`,
        `${link(`#${alert.tiny_id}`)} resolved by Bob Chat: ${alert.title}`,
        `${link(`#${alert.tiny_id}`)} archived by Bob Chat: ${alert.title}`,
      ]);
    }
    const logs = (await admin.get(`/log?owner_id=tem_${chats.id}&limit=100`)).body.data as Json[];
    expect(logs.filter((l) => l.data.message === 'follow_up')).toHaveLength(15);
  });

  it('a hand-off to another team: a card there, a follow-up here, and both hear what follows', async () => {
    const [here] = webhooks(['slack']);
    const [there] = webhooks(['discord']);
    const first = await teamWithChats([here]);
    const second = await teamWithChats([there], [[bob.id]]);
    const alert = await alertFor([first.id]);
    await settle();
    expect(at(there.path)).toHaveLength(0);

    const handed = await alice.client.post(`/alert/${alert.prefix_id}/handoff`, { to: `tem_${second.id}` });
    expect(handed.status, handed.text).toBe(200);
    await settle();
    expect(bodiesAt(here.path).map((b) => b.text ?? 'card')).toEqual([
      'card',
      `<${service.url}/#/alerts/${alert.id}|#${alert.tiny_id}> handed off to ${second.name} by Alice Chat: ${alert.title}`,
    ]);
    const [card] = bodiesAt(there.path);
    expect(card.embeds[0]).toMatchObject({ title: `#${alert.tiny_id} ${alert.title}` });
    expect(card.embeds[0].fields[2]).toEqual({ name: 'Team', value: second.name, inline: true });

    expect((await bob.client.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    await settle();
    expect(bodiesAt(here.path)).toHaveLength(3);
    expect(bodiesAt(here.path)[2].text).toContain('acknowledged by Bob Chat');
    expect(bodiesAt(there.path)).toHaveLength(2);
    expect(bodiesAt(there.path)[1].content).toContain('acknowledged by Bob Chat');
  });

  it('a hand-off to a person: the team hears who has the alert now', async () => {
    const [hook] = webhooks(['google_chat']);
    const chats = await teamWithChats([hook]);
    const alert = await alertFor([chats.id]);
    await settle();
    const handed = await alice.client.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${bob.userId}` });
    expect(handed.status, handed.text).toBe(200);
    await settle();
    expect(bodiesAt(hook.path).slice(1)).toEqual([
      { text: `<${service.url}/#/alerts/${alert.id}|#${alert.tiny_id}> handed off to Bob Chat by Alice Chat: ${alert.title}` },
    ]);
  });

  it('a policy’s reassignment: a card for the new team, a follow-up for the one whose layers ran out', async () => {
    const [fallback] = webhooks(['mattermost']);
    const [front] = webhooks(['google_chat']);
    const backup = await teamWithChats([fallback], [[bob.id]]);
    // Nobody on call in the front team: its layer is skipped, its policy exhausted, the alert reassigned.
    const frontTeam = await teamWithChats([front], [[]], { members: [alice.id], reassign_team_ids: [backup.id] });
    const alert = await alertFor([frontTeam.id]);
    await settle();
    // The reassignment is the policy's own step after the skipped layer: wait for what it sends, not a clock.
    await untilArrived(
      service,
      () => (bodiesAt(front.path).length >= 2 && bodiesAt(fallback.path).length >= 1 ? true : undefined),
      'the card and the follow-up',
    );

    // The card (sent as the alert reached the team) and the follow-up (the policy's step) are two
    // deliveries of their own queue messages: either may arrive first.
    const frontBodies = bodiesAt(front.path);
    expect(frontBodies.filter((b) => b.cardsV2 !== undefined)).toHaveLength(1);
    expect(frontBodies.filter((b) => b.cardsV2 === undefined).map((b) => b.text)).toContain(
      `<${service.url}/#/alerts/${alert.id}|#${alert.tiny_id}> reassigned to ${backup.name} by the service: ${alert.title}`,
    );
    const [card] = bodiesAt(fallback.path);
    expect(card.attachments[0].title).toBe(`#${alert.tiny_id} ${alert.title}`);
    expect(card.attachments[0].fields[2].value).toBe(backup.name);
  });
});

describe('beside a Slack team channel', () => {
  it('a team with both: the chats get their card and follow-up, and the Slack message is posted and updated', async () => {
    const standIn = await SlackStandIn.start();
    const restore = changeEnvironment({ SLACK_API_URL: standIn.apiUrl });
    try {
      await connect(admin, standIn, standIn.addWorkspace('Both'));
      const channel = standIn.addChannel();
      const [hook] = webhooks(['mattermost']);
      const chats = await teamWithChats([hook]);
      expect((await admin.put(`/api/v4/teams/${chats.id}`, { slack_channel_id: channel })).status).toBe(200);
      const alert = await alertFor([chats.id]);
      await settle();
      expect(bodiesAt(hook.path).map((b) => b.attachments?.[0].title)).toEqual([`#${alert.tiny_id} ${alert.title}`]);
      const [posted] = standIn.messagesIn(channel);
      expect(posted.text).toContain(`#${alert.tiny_id}: ${alert.title}`);

      expect((await alice.client.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
      await settle();
      expect(
        bodiesAt(hook.path)
          .slice(1)
          .map((b) => b.text),
      ).toEqual([`[#${alert.tiny_id}](${service.url}/#/alerts/${alert.id}) acknowledged by Alice Chat: ${alert.title}`]);
      expect(textOf(posted.blocks)).toMatch(/Acknowledged by Alice Chat/);
      expect(standIn.messagesIn(channel)).toHaveLength(1);
    } finally {
      expect((await admin.delete('/api/v4/slack')).status).toBe(204);
      restore();
      await standIn.close();
    }
  });
});

describe('delivery', () => {
  it('a receiver that fails gets the card once it recovers (the sweeper re-drives it), and only once', { tags: ['moto'] }, async () => {
    const [hook] = webhooks(['msteams']);
    const chats = await teamWithChats([hook]);
    target().answer = (request) => (request.url === hook.path ? { status: 503, body: 'busy' } : { status: 200 });
    try {
      const alert = await alertFor([chats.id]);
      await settle();
      expect(at(hook.path)).toHaveLength(1);
      const logs = (await admin.get(`/log?owner_id=tem_${chats.id}`)).body.data as Json[];
      expect(logs.map((l) => [l.data.try, l.data.status, l.data.outcome])).toEqual([[1, 503, 'retrying']]);

      target().answer = () => ({ status: 202, body: '' });
      await afterTheFirstRetryIsDue();
      const tries = at(hook.path);
      expect(tries).toHaveLength(2);
      expect(tries[1].body).toBe(tries[0].body);
      expect(JSON.parse(tries[1].body).attachments[0].content.body[0].items[0].text).toBe(`#${alert.tiny_id} ${alert.title}`);
      const after = (await admin.get(`/log?owner_id=tem_${chats.id}`)).body.data as Json[];
      expect(after.map((l) => [l.data.try, l.data.outcome])).toEqual([
        [1, 'retrying'],
        [2, 'delivered'],
      ]);

      await service.runtime.runScheduled('sweeper');
      await settle();
      expect(at(hook.path)).toHaveLength(2);
    } finally {
      target().answer = () => ({ status: 200, body: 'ok' });
    }
  });

  it('a webhook the team removed meanwhile is not posted to (the delivery is cancelled)', async () => {
    const [hook] = webhooks(['slack']);
    const chats = await teamWithChats([hook]);
    target().answer = (request) => (request.url === hook.path ? { status: 500 } : { status: 200 });
    try {
      await alertFor([chats.id]);
      await settle();
      expect(at(hook.path)).toHaveLength(1);
      expect((await admin.put(`/api/v4/teams/${chats.id}`, { chat_webhooks: [] })).status).toBe(200);
      target().answer = () => ({ status: 200, body: 'ok' });
      await afterTheFirstRetryIsDue();
      expect(at(hook.path)).toHaveLength(1);
      const logs = (await admin.get(`/log?owner_id=tem_${chats.id}`)).body.data as Json[];
      expect(logs.map((l) => l.data.outcome)).toEqual(['retrying', 'cancelled']);
    } finally {
      target().answer = () => ({ status: 200, body: 'ok' });
    }
  });

  it('a redelivered event or delivery message posts nothing twice', { tags: ['moto'] }, async () => {
    const [hook] = webhooks(['discord']);
    const chats = await teamWithChats([hook]);
    const alert = await alertFor([chats.id]);
    await drainQueue(service, 'routing');
    await drainQueue(service, 'escalation');

    const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
    const { handler } = (await import('../../functions/queue/webhook-worker')) as {
      handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
    };
    try {
      const url = service.runtime.queues.webhooks.url;
      const received: Message[] = [];
      for (let empty = 0; empty < 2;) {
        const batch = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, AttributeNames: ['All'] }));
        if (!batch.Messages?.length) empty++;
        else received.push(...batch.Messages);
      }
      const events = received.filter((m) => JSON.parse(m.Body ?? '{}').kind === 'event');
      expect(events.length).toBeGreaterThan(0);
      const event: SQSEvent = { Records: events.map((m) => toRecord(m, 'arn:aws:sqs:local:000000000000:webhooks')) };
      // The same messages handed to the worker three times, side by side and again after.
      const context = { functionName: 'webhookWorker', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
      const answers = await Promise.all([handler(event, context), handler(event, context)]);
      answers.push(await handler(event, context));
      for (const answer of answers) expect(answer.batchItemFailures).toEqual([]);
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: received.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    } finally {
      sqs.destroy();
    }
    await settle();
    const got = bodiesAt(hook.path);
    expect(got).toHaveLength(1);
    expect(got[0].embeds[0].title).toBe(`#${alert.tiny_id} ${alert.title}`);
  });
});
