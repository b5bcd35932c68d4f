// What Slack sends (docs/api.md#slack), through the real local server: button clicks and /oncall,
// signed as Slack signs them by the stand-in (test/support/slack-stand-in.ts). Verified before
// anything is done (401 otherwise, nothing changed); the Slack user acts as the linked account user
// under the API's roles and transitions; refusals and strangers get an ephemeral word through
// response_url; a click or command delivered twice acts once, also after a crash; every answer
// within 3 s. Also broadcasts answered from Slack, and "Add to Slack" (the authorize URL, the signed
// state, oauth.v2.access).
// @moto: a redelivered interaction recognised by its transition's conditional write, an alert by its id.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acknowledgeAlert } from '../../lib/alert-transitions/acknowledge';
import { callOf, onServiceClients, type AwsCall } from '../support/aws-calls';
import { awsCallAnswered, holdAwsCalls } from '../support/aws-gates';
import { testClock } from '../support/dependencies';
import type { ApiClient } from '../support/api-client';
import { signupAccount, startService, type TestService } from '../support/runtime';
import { slackAppEnv, SlackStandIn, type Workspace } from '../support/slack-stand-in';
import { alertTo, person, sentFor, team } from '../escalation/support';
import { settle } from '../support/quiescence';
import {
  buttonsOf,
  click,
  command,
  connect,
  eventually,
  finalAnswer,
  nowSeconds,
  slackPerson,
  textOf,
  type SlackPerson,
} from '../slack/support';

let standIn: SlackStandIn;
let service: TestService;
let admin: ApiClient;
let workspace: Workspace;
let ada: SlackPerson;
let platform: { id: string; scheduleId: string };

beforeAll(async () => {
  standIn = await SlackStandIn.start();
  service = await startService({ env: slackAppEnv(standIn) });
  admin = service.admin;
  workspace = standIn.addWorkspace('Acme');
  await connect(admin, standIn, workspace);
  ada = await slackPerson(admin, standIn, workspace, { name: 'Ada Lovelace' });
  platform = await team(admin, { layers: [[ada.id]] });
  const named = await admin.put(`/api/v4/teams/${platform.id}`, { name: 'Platform Ops' });
  expect(named.status, named.text).toBe(200);
});
// No test starts where another left the clock.
afterEach(() => testClock.reset());
afterAll(async () => {
  testClock.reset();
  await service?.stop();
  await standIn?.close();
});

const statusOf = async (id: string) => (await admin.get(`/api/v4/alerts/${id}`)).body.status as string;
const actions = async (prefixId: string) =>
  ((await admin.get(`/log?owner_id=${prefixId}&limit=100`)).body.data as { data: { action: string } }[]).map((e) => e.data.action);

/** `promise`, or a failure naming `what` once `ms` have passed without it. */
async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An alert paged to Ada (her DM carries its buttons). */
async function pagedAlert(title = 'Disk full') {
  const alert = await alertTo(admin, { teams: [platform.id] }, title);
  await sentFor(admin, alert.id, (s) => s.some((n) => n.status === 'sent'));
  return alert;
}

describe('a signed click', () => {
  it('acknowledges as the linked person, answers 200 within 3 s, and replaces the direct message', async () => {
    const alert = await pagedAlert();
    const res = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id });
    expect(res.status, res.text).toBe(200);
    expect(res.ms).toBeLessThan(3_000);
    // The answer comes once the click is accepted; the message is replaced once it is done.
    const replaced = await eventually(() => standIn.responsesTo(res.responseUrl)[0], 'the replaced message');
    expect(await statusOf(alert.id)).toBe('acknowledged');
    const shown = await admin.get(`/alert/${alert.prefix_id}`);
    expect(shown.body.acknowledgedby).toBe(`usr_${ada.userId}`);
    expect(replaced.body.replace_original).toBe(true);
    expect(textOf(replaced.body.blocks)).toMatch(/Acknowledged by Ada Lovelace/);
    expect(buttonsOf(replaced.body.blocks)).toEqual({ resolve: alert.prefix_id });
  });

  it('is answered once SQS holds its work, without waiting for the transition, which follows from the queue', async () => {
    const alert = await pagedAlert();
    const mentions = (call: AwsCall, ...words: string[]) => words.every((word) => JSON.stringify(call.input).includes(word));
    let acceptedBeforeAnswer = false;
    const accepted = awsCallAnswered((call) => call.operation === 'SendMessage' && mentions(call, 'slack_interaction', alert.prefix_id));
    void accepted.then(() => (acceptedBeforeAnswer = true));
    // The transition's one write of the alert is held until the click has been answered.
    const gate = holdAwsCalls((call) => call.operation === 'UpdateItem' && mentions(call, alert.id, 'acknowledged'), 1);
    try {
      const answered = click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id });
      const transition = await gate.next();
      const res = await within(3_000, answered, 'the answer while the transition is held');
      expect(res.status, res.text).toBe(200);
      expect(acceptedBeforeAnswer).toBe(true);
      expect(await statusOf(alert.id)).toBe('open');
      expect(standIn.responsesTo(res.responseUrl)).toEqual([]);
      await transition.release();
      const [replaced] = await eventually(
        () => (standIn.responsesTo(res.responseUrl).length ? standIn.responsesTo(res.responseUrl) : undefined),
        'the result',
      );
      expect(textOf(replaced.body.blocks)).toMatch(/Acknowledged by Ada Lovelace/);
      expect(await statusOf(alert.id)).toBe('acknowledged');
    } finally {
      gate.open();
    }
  });

  it('is acted on even when the worker that took it died before its transition: SQS delivers it again', { tags: ['moto'] }, async () => {
    const alert = await pagedAlert();
    let died = 0;
    // The first try of the transition's write ends the worker's attempt with nothing applied, as a
    // crash would; the message, never deleted, comes back after the queue's visibility timeout.
    const removeCrash = onServiceClients('crashOnce', (kind) => (next, context) => async (args) => {
      const call = callOf(kind, context, args.input);
      const write =
        call.operation === 'UpdateItem' &&
        JSON.stringify(call.input).includes(alert.id) &&
        JSON.stringify(call.input).includes('acknowledged');
      if (write && died === 0) {
        died += 1;
        throw new Error('the worker died before its transition');
      }
      return next(args);
    });
    try {
      const res = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id });
      expect(res.status, res.text).toBe(200);
      const [replaced] = await eventually(
        () => (standIn.responsesTo(res.responseUrl).length ? standIn.responsesTo(res.responseUrl) : undefined),
        'the result after the redelivery',
        30_000,
      );
      expect(textOf(replaced.body.blocks)).toMatch(/Acknowledged by Ada Lovelace/);
    } finally {
      removeCrash();
    }
    expect(died).toBe(1);
    expect(await statusOf(alert.id)).toBe('acknowledged');
    expect((await actions(alert.prefix_id)).filter((a) => a === 'acknowledged')).toHaveLength(1);
  });

  it(
    "whose run outlasts the queue's visibility timeout: SQS hands it out again, it acts once and is answered once",
    { tags: ['moto'] },
    async () => {
      const alert = await pagedAlert();
      // The first run's write of the transition is held past the test services' 2 s visibility timeout.
      const gate = holdAwsCalls(
        (call) =>
          call.operation === 'UpdateItem' &&
          JSON.stringify(call.input).includes(alert.id) &&
          JSON.stringify(call.input).includes('acknowledged'),
        1,
      );
      try {
        const res = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id });
        expect(res.status, res.text).toBe(200);
        const firstRun = await gate.next();
        const [replaced] = await eventually(
          () => (standIn.responsesTo(res.responseUrl).length ? standIn.responsesTo(res.responseUrl) : undefined),
          'the answer of the run of the click delivered again',
          30_000,
        );
        expect(textOf(replaced.body.blocks)).toMatch(/Acknowledged by Ada Lovelace/);
        await firstRun.release();
        // The first run, going on, finds its transition made under the click's key and the answer told.
        await settle(service);
        expect(standIn.responsesTo(res.responseUrl)).toHaveLength(1);
      } finally {
        gate.open();
      }
      expect((await actions(alert.prefix_id)).filter((a) => a === 'acknowledged')).toHaveLength(1);
    },
  );

  it('rejects: the paged person passes the alert on (it stays open)', async () => {
    const alert = await pagedAlert();
    const res = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'reject', value: alert.prefix_id });
    expect(res.status).toBe(200);
    await eventually(async () => ((await actions(alert.prefix_id)).includes('rejected') ? true : undefined), 'the rejection');
    expect(['open', 'dropped']).toContain(await statusOf(alert.id));
  });

  it('is refused with 401 and changes nothing: wrong signature, another secret, stale or missing timestamp, unknown workspace', async () => {
    const alert = await pagedAlert();
    const base = { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id };
    const wrongSecret = await click(service, standIn, workspace, { ...base, secret: 'a-different-signing-secret' });
    expect(wrongSecret.status).toBe(401);
    const stale = await click(service, standIn, workspace, { ...base, timestampSeconds: nowSeconds() - 301 });
    expect(stale.status).toBe(401);
    expect(stale.body.errors[0].message).toMatch(/300 seconds/);
    // Far enough ahead that the request's own time in flight (and nowSeconds' rounding down) cannot
    // bring it back inside the window; the exact edges are test/slack/signature.test.ts's.
    const future = await click(service, standIn, workspace, { ...base, timestampSeconds: nowSeconds() + 330 });
    expect(future.status).toBe(401);
    const { body } = standIn.clickPayload(workspace, base);
    const unsigned = await standIn.send(service.url, '/public/slack/interactions', body, { secret: '', signature: null });
    expect(unsigned.status).toBe(401);
    const tampered = await standIn.send(service.url, '/public/slack/interactions', body.replace('acknowledge', 'resolve'), {
      secret: workspace.signingSecret,
      signature: SlackStandIn.sign(workspace.signingSecret, nowSeconds(), body),
      timestampSeconds: nowSeconds(),
    });
    expect(tampered.status).toBe(401);
    const stranger = standIn.addWorkspace('Stranger');
    const unknown = await click(service, standIn, stranger, base);
    expect(unknown.status).toBe(401);
    const bare = await fetch(`${service.url}/public/slack/interactions`, { method: 'POST', body: 'payload=%7B%7D' });
    expect(bare.status).toBe(401);
    expect(await statusOf(alert.id)).toBe('open');
    expect(await actions(alert.prefix_id)).not.toContain('acknowledged');
    for (const r of [wrongSecret, stale, future, unknown]) expect(standIn.responsesTo(r.responseUrl)).toEqual([]);
  });

  /** Slack delivers the very same request again: the same body (so the same response_url), signed anew. */
  const deliverAgain = (sent: string) =>
    standIn.send(service.url, '/public/slack/interactions', sent, { secret: workspace.signingSecret, timestampSeconds: nowSeconds() });

  /** The answers posted to a response_url, once there are `count` of them. */
  const answersTo = (responseUrl: string, count: number) =>
    eventually(() => {
      const all = standIn.responsesTo(responseUrl);
      return all.length >= count ? all : undefined;
    }, `${count} answers`);

  it('delivered twice acts once: one transition, and the second is answered as the first, never refused', { tags: ['moto'] }, async () => {
    const alert = await pagedAlert();
    const first = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'resolve', value: alert.prefix_id });
    expect(first.status, first.text).toBe(200);
    await answersTo(first.responseUrl, 1);
    const again = await deliverAgain(first.sent);
    expect(again.status, again.text).toBe(200);
    const answers = await answersTo(first.responseUrl, 2);
    for (const answer of answers) {
      expect(answer.body.replace_original).toBe(true);
      expect(textOf(answer.body.blocks)).toMatch(/Resolved by Ada Lovelace/);
    }
    expect(await statusOf(alert.id)).toBe('resolved');
    expect((await actions(alert.prefix_id)).filter((a) => a === 'resolved')).toHaveLength(1);
  });

  it('a reject delivered twice passes the alert on once, and the second is not refused', { tags: ['moto'] }, async () => {
    const alert = await pagedAlert();
    const first = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'reject', value: alert.prefix_id });
    expect(first.status, first.text).toBe(200);
    await answersTo(first.responseUrl, 1);
    expect((await deliverAgain(first.sent)).status).toBe(200);
    const answers = await answersTo(first.responseUrl, 2);
    // Ada's page is answered: a second reject without the key would be a 409 (no open workflow of hers).
    for (const answer of answers) expect(answer.body.text ?? '').not.toMatch(/Nothing was done/);
    expect((await actions(alert.prefix_id)).filter((a) => a === 'rejected')).toHaveLength(1);
  });

  it(
    "acts once when the first delivery's process died right after its transition, and answers the second as the first",
    { tags: ['moto'] },
    async () => {
      const alert = await pagedAlert();
      const accountId = (await admin.get(`/api/v4/account_users/${ada.id}`)).body.account_id as string;
      const { body, responseUrl, actionTs } = standIn.clickPayload(workspace, {
        userId: ada.slackUserId,
        actionId: 'acknowledge',
        value: alert.prefix_id,
      });
      // The first delivery got as far as its transition, under the interaction's key (docs/api.md#slack), and no further.
      const actor = { type: 'AccountUser' as const, accountUserId: ada.id, userId: ada.userId };
      await acknowledgeAlert(accountId, alert.id, { actor, rules: 'v4', idempotencyKey: `slack:${workspace.teamId}:${actionTs}` });
      const again = await deliverAgain(body);
      expect(again.status, again.text).toBe(200);
      const [answer] = await answersTo(responseUrl, 1);
      expect(answer.body.replace_original).toBe(true);
      expect(textOf(answer.body.blocks)).toMatch(/Acknowledged by Ada Lovelace/);
      expect(await statusOf(alert.id)).toBe('acknowledged');
      expect((await actions(alert.prefix_id)).filter((a) => a === 'acknowledged')).toHaveLength(1);
      // Another click of the same button is a request of its own: refused, since the alert is acknowledged.
      const other = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id });
      const [refusal] = await answersTo(other.responseUrl, 1);
      expect(refusal.body.text).toMatch(/Nothing was done: Cannot acknowledge an alert that is acknowledged/);
    },
  );

  it('from an unlinked Slack user: an ephemeral explanation, nothing changes', async () => {
    const alert = await pagedAlert();
    const res = await click(service, standIn, workspace, { userId: 'UNOBODY01', actionId: 'acknowledge', value: alert.prefix_id });
    expect(res.status).toBe(200);
    const answer = await eventually(() => standIn.responsesTo(res.responseUrl)[0], 'the ephemeral answer');
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer.body.text).toMatch(/not linked/);
    expect(await statusOf(alert.id)).toBe('open');
  });

  it('that the API would refuse (409): an ephemeral explanation naming the status, nothing changes', async () => {
    const alert = await pagedAlert();
    expect((await admin.post(`/api/v4/alerts/${alert.id}/resolve`)).status).toBe(200);
    const before = await actions(alert.prefix_id);
    const res = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: 'acknowledge', value: alert.prefix_id });
    expect(res.status).toBe(200);
    const answer = await eventually(() => standIn.responsesTo(res.responseUrl)[0], 'the ephemeral answer');
    expect(answer.body.response_type).toBe('ephemeral');
    expect(answer.body.text).toMatch(/Nothing was done: Cannot acknowledge an alert that is resolved/);
    expect(await statusOf(alert.id)).toBe('resolved');
    expect(await actions(alert.prefix_id)).toEqual(before);
  });

  it('hostile bodies get 4xx, never a 5xx', async () => {
    const signed = (body: string) =>
      standIn.send(service.url, '/public/slack/interactions', body, { secret: workspace.signingSecret, timestampSeconds: nowSeconds() });
    const team = JSON.stringify({ team: { id: workspace.teamId } });
    const cases = [
      `payload=${encodeURIComponent(team)}`,
      `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', team: { id: workspace.teamId }, user: 42 }))}`,
      `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', team: { id: workspace.teamId }, user: { id: 'U1' }, actions: 'x' }))}`,
      `payload=${encodeURIComponent(`{"team":{"id":"${workspace.teamId}"},"__proto__":{"polluted":true},"type":7}`)}`,
    ];
    for (const body of cases) {
      const res = await signed(body);
      expect(res.status, body).toBe(400);
      expect(res.body.errors[0].message).toMatch(/payload/);
    }
    for (const body of ['', 'payload=', 'payload=%7B', 'x'.repeat(70_000), '%ZZ=%ZZ']) {
      const res = await signed(body);
      expect(res.status, body.slice(0, 20)).toBe(401);
    }
    const commandJunk = await standIn.send(service.url, '/public/slack/commands', 'team_id=', { secret: workspace.signingSecret });
    expect(commandJunk.status).toBe(401);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('/oncall', () => {
  it("alone: who is on call now for each of the person's teams, per layer", async () => {
    const grace = await person(admin, { name: 'Grace Hopper' });
    const second = await team(admin, { layers: [[grace.id], [ada.id]] });
    expect((await admin.put(`/api/v4/teams/${second.id}`, { name: 'Databases' })).status).toBe(200);
    const res = await command(service, standIn, workspace, { userId: ada.slackUserId, text: '' });
    expect(res.status).toBe(200);
    expect(res.body.response_type).toBe('ephemeral');
    expect(res.answer).toMatch(/Platform Ops\n {2}Layer 1: Ada Lovelace \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect(res.answer).toMatch(/Databases\n {2}Layer 1: Grace Hopper \(until [^)]+\)\n {2}Layer 2: Ada Lovelace/);
  });

  it('ack and resolve by tiny id, as the person', async () => {
    const alert = await pagedAlert('Cache cold');
    const acked = await command(service, standIn, workspace, { userId: ada.slackUserId, text: `ack ${alert.tiny_id}` });
    expect(acked.answer).toBe(`Acknowledged alert #${alert.tiny_id}: Cache cold`);
    expect(await statusOf(alert.id)).toBe('acknowledged');
    const resolved = await command(service, standIn, workspace, { userId: ada.slackUserId, text: `resolve #${alert.tiny_id}` });
    expect(resolved.answer).toBe(`Resolved alert #${alert.tiny_id}: Cache cold`);
    expect((await admin.get(`/alert/${alert.prefix_id}`)).body.resolvedby).toBe(`usr_${ada.userId}`);
    const again = await command(service, standIn, workspace, { userId: ada.slackUserId, text: `resolve ${alert.tiny_id}` });
    expect(again.answer).toMatch(/^Nothing was done: Cannot resolve an alert that is resolved/);
    const missing = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'ack 999999' });
    expect(missing.answer).toMatch(/^Nothing was done: Alert not found/);
    const vague = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'ack soon' });
    expect(vague.answer).toMatch(/tiny id/);
  });

  it('page creates an alert for the team as the person: "Quoted Name", a bare name, or tem_ id', async () => {
    const quoted = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'page "Platform Ops" Disk full on db-7' });
    const tiny = /alert #(\d+)/.exec(quoted.answer)?.[1];
    expect(quoted.answer).toMatch(/^Paged Platform Ops: alert #\d+ Disk full on db-7$/);
    const created = (await admin.get(`/api/v4/alerts/${tiny}`)).body;
    expect(created).toMatchObject({
      title: 'Disk full on db-7',
      destination_team_ids: [platform.id],
      source_type: 'AccountUser',
      source_id: ada.id,
    });
    const solo = await admin.post('/api/v4/teams', {
      name: 'Payments',
      member_account_user_ids: [ada.id],
      admin_account_user_ids: [ada.id],
    });
    const bare = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'page payments Card declines up' });
    expect(bare.answer).toMatch(/^Paged Payments: alert #\d+ Card declines up$/);
    const byId = await command(service, standIn, workspace, { userId: ada.slackUserId, text: `page ${solo.body.prefix_id} By id` });
    expect(byId.answer).toMatch(/^Paged Payments: alert #\d+ By id$/);
    const unknown = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'page "No Such Team" x' });
    expect(unknown.answer).toMatch(/No team is named No Such Team/);
    const noTitle = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'page payments' });
    expect(noTitle.answer).toMatch(/Name the team and the title/);
  });

  /** Sends a command's body (signed at `timestampSeconds`) and reads what the person reads in the end. */
  const sendCommand = async (body: string, responseUrl: string, timestampSeconds: number) => {
    const seen = standIn.responsesTo(responseUrl).length;
    const res = await standIn.send(service.url, '/public/slack/commands', body, { secret: workspace.signingSecret, timestampSeconds });
    expect(res.status, res.text).toBe(200);
    return finalAnswer(standIn, res, responseUrl, seen);
  };
  const alertCount = async () => (await admin.get('/api/v4/alerts?limit=1')).body.total_count as number;

  it('page delivered twice makes one alert, and the second is answered with it', { tags: ['moto'] }, async () => {
    const before = await alertCount();
    const { body, responseUrl } = standIn.commandBody(workspace, { userId: ada.slackUserId, text: 'page "Platform Ops" Queue stuck' });
    const timestampSeconds = nowSeconds();
    const first = await sendCommand(body, responseUrl, timestampSeconds);
    const again = await sendCommand(body, responseUrl, timestampSeconds);
    expect(first).toMatch(/^Paged Platform Ops: alert #\d+ Queue stuck$/);
    expect(again).toBe(first);
    expect(await alertCount()).toBe(before + 1);
    // A new command (another trigger_id) is another alert.
    const other = await command(service, standIn, workspace, { userId: ada.slackUserId, text: 'page "Platform Ops" Queue stuck' });
    expect(other.answer).toMatch(/^Paged Platform Ops: alert #\d+ Queue stuck$/);
    expect(other.answer).not.toBe(first);
    expect(await alertCount()).toBe(before + 2);
  });

  it(
    'page delivered again, signed anew, while the first delivery is still creating its alert: one alert, both answered with it',
    { tags: ['moto'] },
    async () => {
      const before = await alertCount();
      const title = 'Replica lag on db-3';
      const { body, responseUrl } = standIn.commandBody(workspace, { userId: ada.slackUserId, text: `page "Platform Ops" ${title}` });
      // The first delivery's write of the new alert is held (a slow store) until the second delivery has been answered.
      const gate = holdAwsCalls((call) => call.operation === 'PutItem' && JSON.stringify(call.input).includes(title), 1);
      let answers: string[];
      try {
        const first = sendCommand(body, responseUrl, nowSeconds() - 2);
        const held = await gate.next();
        const again = await sendCommand(body, responseUrl, nowSeconds());
        await held.release();
        answers = [await first, again];
      } finally {
        gate.open();
      }
      expect(answers[0]).toMatch(new RegExp(`^Paged Platform Ops: alert #\\d+ ${title}$`));
      expect(answers[1]).toBe(answers[0]);
      await settle(service);
      expect(await alertCount()).toBe(before + 1);
      const tiny = /alert #(\d+)/.exec(answers[0])?.[1];
      expect((await admin.get(`/api/v4/alerts/${tiny}`)).body).toMatchObject({ title, destination_team_ids: [platform.id] });
    },
  );

  it(
    'page that outlasts its 3 s: answered "working on it" once queued, and the queue\'s run pages and tells the result while the first run is stuck',
    { tags: ['moto'], timeout: 90_000 },
    async () => {
      const before = await alertCount();
      const title = 'Certificate expires in 1 hour';
      const { body, responseUrl } = standIn.commandBody(workspace, { userId: ada.slackUserId, text: `page "Platform Ops" ${title}` });
      // The answering process's write of the alert is held as if that process had been frozen after
      // its answer (a Lambda's is): only the escalation worker's run of the queued command can finish.
      const gate = holdAwsCalls((call) => call.operation === 'PutItem' && JSON.stringify(call.input).includes(title), 1);
      try {
        const res = await standIn.send(service.url, '/public/slack/commands', body, {
          secret: workspace.signingSecret,
          timestampSeconds: nowSeconds(),
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.text).toBe('Working on it…');
        await gate.next();
        const told = await eventually(() => standIn.responsesTo(responseUrl)[0], 'the queued run of the command', 30_000);
        expect(String(told.body.text)).toMatch(new RegExp(`^Paged Platform Ops: alert #\\d+ ${title}$`));
        expect(told.body.response_type).toBe('ephemeral');
      } finally {
        gate.open();
      }
      // The stuck run, once it goes on, finds the alert the queue's run made, and tells nobody again.
      await settle(service);
      expect(await alertCount()).toBe(before + 1);
      expect(standIn.responsesTo(responseUrl)).toHaveLength(1);
    },
  );

  it(
    "page whose queued run outlasts the queue's visibility timeout: SQS hands the command out again, and the result is told once",
    { tags: ['moto'], timeout: 90_000 },
    async () => {
      const before = await alertCount();
      const title = 'Queue depth over 10 000';
      const { body, responseUrl } = standIn.commandBody(workspace, { userId: ada.slackUserId, text: `page "Platform Ops" ${title}` });
      // Held: the answering process's write of the alert (frozen after its answer), then the queue's
      // first run's, past the test services' 2 s visibility timeout: SQS delivers the command again.
      const gate = holdAwsCalls((call) => call.operation === 'PutItem' && JSON.stringify(call.input).includes(title), 2);
      try {
        const res = await standIn.send(service.url, '/public/slack/commands', body, {
          secret: workspace.signingSecret,
          timestampSeconds: nowSeconds(),
        });
        expect(res.body.text).toBe('Working on it…');
        const answering = await gate.next();
        const firstRun = await gate.next();
        const told = await eventually(() => standIn.responsesTo(responseUrl)[0], 'the run of the command delivered again', 30_000);
        expect(String(told.body.text)).toMatch(new RegExp(`^Paged Platform Ops: alert #\\d+ ${title}$`));
        await firstRun.release();
        await answering.release();
      } finally {
        gate.open();
      }
      // The first run, going on, finds the alert and the answer told: it tells nobody again.
      await settle(service);
      expect(await alertCount()).toBe(before + 1);
      expect(standIn.responsesTo(responseUrl)).toHaveLength(1);
    },
  );

  it('from an unlinked Slack user, or unsigned: nothing is done', async () => {
    const before = (await admin.get('/api/v4/alerts?limit=1')).body.total_count;
    const stranger = await command(service, standIn, workspace, { userId: 'UNOBODY02', text: 'page payments Nope' });
    expect(stranger.status).toBe(200);
    expect(stranger.answer).toMatch(/not linked/);
    const forged = await command(service, standIn, workspace, {
      userId: ada.slackUserId,
      text: 'page payments Nope',
      secret: 'forged-secret-0000',
    });
    expect(forged.status).toBe(401);
    expect((await admin.get('/api/v4/alerts?limit=1')).body.total_count).toBe(before);
  });
});

describe('broadcasts from Slack', () => {
  it('an addressee answers a response option from its Slack message; the answer is recorded with channel slack', async () => {
    const created = await admin.post('/api/v4/broadcasts', {
      title: 'Can you cover the weekend?',
      destination_account_user_ids: [ada.id],
      response_requested: true,
      broadcast_response_options_attributes: [{ value: 'Yes' }, { value: 'No' }],
    });
    expect(created.status, created.text).toBe(201);
    const dm = await eventually(
      () => standIn.messagesIn(ada.slackUserId).find((m) => m.text.includes('Can you cover the weekend?')),
      'the broadcast DM',
    );
    // A broadcast takes answers once its delivery is over (queued → open), which may end after this DM.
    await eventually(
      async () => (await admin.get(`/api/v4/broadcasts/${created.body.id}`)).body.status === 'open' || undefined,
      'the broadcast open',
    );
    const buttons = buttonsOf(dm.blocks);
    const yes = Object.entries(buttons).find(([, value]) => value.startsWith(created.body.prefix_id))!;
    expect(Object.keys(buttons)).toHaveLength(2);
    const res = await click(service, standIn, workspace, { userId: ada.slackUserId, actionId: yes[0], value: yes[1] });
    expect(res.status).toBe(200);
    const answer = await eventually(() => standIn.responsesTo(res.responseUrl)[0], 'the confirmation');
    expect(answer.body.text).toMatch(/Your answer “(Yes|No)” to broadcast #\d+ is recorded/);
    const read = (await admin.get(`/api/v4/broadcasts/${created.body.id}`)).body;
    expect(read.broadcast_responses).toEqual([expect.objectContaining({ account_user_id: ada.id, channel: 'slack' })]);
  });
});

describe('Add to Slack', () => {
  it("answers the authorize URL with the bot scopes and a signed state, and connects the workspace on Slack's redirect", async () => {
    const other = await signupAccount(service, 'Installer');
    const install = await other.client.get('/api/v4/slack/install');
    expect(install.status, install.text).toBe(200);
    const url = new URL(install.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${standIn.url}/oauth/v2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(standIn.app.clientId);
    expect(url.searchParams.get('scope')!.split(',').sort()).toEqual([
      'chat:write',
      'chat:write.public',
      'commands',
      'users:read',
      'users:read.email',
    ]);
    const redirect = url.searchParams.get('redirect_uri')!;
    expect(redirect).toBe(`${service.url}/public/slack/oauth`);
    const state = url.searchParams.get('state')!;
    const json = { accept: 'application/json' };

    const installed = standIn.addWorkspace('Installed');
    const oauth = (query: string) => service.anonymous.get(`/public/slack/oauth?${query}`, json);
    expect((await oauth(`code=${standIn.authorize(installed, redirect)}&state=${state.slice(0, -2)}xx`)).status).toBe(404);
    expect((await oauth(`state=${encodeURIComponent(state)}`)).status).toBe(400);
    expect((await oauth('error=access_denied')).status).toBe(400);
    expect((await oauth(`code=not-a-code&state=${encodeURIComponent(state)}`)).status).toBe(502);
    const done = await oauth(`code=${standIn.authorize(installed, redirect)}&state=${encodeURIComponent(state)}`);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ title: 'Slack is connected', team_id: installed.teamId, team_name: 'Installed' });
    const exchange = standIn.callsOf('oauth.v2.access').at(-1)!;
    expect(exchange.args).toMatchObject({ client_id: standIn.app.clientId, redirect_uri: redirect });
    expect((await other.client.get('/api/v4/slack')).body).toMatchObject({ team_id: installed.teamId, bot_user_id: installed.botUserId });
    // Its requests are checked with the app's signing secret.
    const asApp = { ...installed, signingSecret: standIn.app.signingSecret };
    expect((await command(service, standIn, asApp, { userId: 'UNOBODY03', text: '' })).body.text).toMatch(/not linked/);
    expect((await command(service, standIn, installed, { userId: 'UNOBODY03', text: '' })).status).toBe(401);

    // The page a browser sees, and a workspace of another account.
    const page = await service.anonymous.get(
      `/public/slack/oauth?code=${standIn.authorize(workspace, redirect)}&state=${encodeURIComponent(state)}`,
    );
    expect(page.status).toBe(409);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toMatch(/connected to another account/);

    // The state is good for 10 minutes.
    const later = (await other.client.get('/api/v4/slack/install')).body.url;
    testClock.advance(10 * 60_000 + 1_000);
    const expired = await oauth(
      `code=${standIn.authorize(installed, redirect)}&state=${encodeURIComponent(new URL(later).searchParams.get('state')!)}`,
    );
    expect(expired.status).toBe(410);
  });

  it('is for admins only', async () => {
    const member = await person(admin);
    expect((await member.client.get('/api/v4/slack/install')).status).toBe(403);
  });
});
