// Broadcasts on the v4 interface (docs/api.md#broadcasts) through the real local server and the memory
// outbox: create validation and roles, delivery to every member and admin of the destination teams and
// every destination user (each person once), status queued → open → closed (by its creator or an admin,
// or by response_requested_by: an absolute time, which TIME_SCALE leaves alone), errored when nothing
// could be sent, answers by addressees only (a second replaces the first; counts exact under concurrent
// answers), isolation between accounts, and the earlier /broadcast alert view left as it was.
import { describe, expect, it } from 'vitest';
import { insertBroadcast } from '../../lib/broadcasts/store';
import { runBroadcastStep } from '../../lib/broadcasts/run-broadcast';
import { newId } from '../../lib/ids';
import { createMember, type ApiClient } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { person, waitFor, type Person } from '../escalation/support';
import { BROADCAST_SWEEP_GRACE_MS } from '../../lib/broadcasts/sweep-broadcasts';
import { outboxMessages, testClock } from '../support/dependencies';
import { passTime, runDueSweeps, settle } from '../support/quiescence';

let service: TestService;
let admin: ApiClient;
let broadcaster: ApiClient;
let broadcasterId: string;

// TIME_SCALE divides relative timers only: a response deadline is an absolute time (checked below).
useService(
  async (started) => {
    service = started;
    admin = service.admin;
    const created = await createMember(admin, { name: 'Caster', roles: { broadcaster: true } });
    broadcaster = created.client;
    broadcasterId = created.accountUser.id;
  },
  { env: { TIME_SCALE: '600' } },
);

interface Notification {
  account_user_id: string;
  broadcast_id: string | null;
  alert_id: string | null;
  channel: string;
  template: string;
  status: string;
  subject: string | null;
  message: string;
}

async function notificationsOfBroadcast(id: string): Promise<Notification[]> {
  const res = await admin.get(`/api/v4/notifications?broadcast_id=${id}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Notification[];
}

async function teamOf(members: Person[], admins: Person[]) {
  const res = await admin.post('/api/v4/teams', {
    name: `Broadcast team ${Math.random().toString(36).slice(2, 8)}`,
    member_account_user_ids: members.map((p) => p.id),
    admin_account_user_ids: admins.map((p) => p.id),
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; prefix_id: string };
}

async function broadcastCount(client: ApiClient = admin): Promise<number> {
  const res = await client.get('/api/v4/broadcasts');
  expect(res.status, res.text).toBe(200);
  return res.body.total_count as number;
}

function waitForStatus(id: string, status: string, client: ApiClient = admin) {
  return waitFor(
    async () => (await client.get(`/api/v4/broadcasts/${id}`)).body,
    (b) => b.status === status,
  );
}

async function openPoll(people: Person[], options = ['Yes', 'No', 'Maybe'], extra: Record<string, unknown> = {}) {
  const res = await admin.post('/api/v4/broadcasts', {
    title: 'Can you join the incident bridge?',
    response_requested: true,
    broadcast_response_options_attributes: options.map((value) => ({ value })),
    destination_account_user_ids: people.map((p) => p.id),
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return waitForStatus(res.body.id, 'open');
}

describe('creating a broadcast', () => {
  it('refuses bad input with 422 naming the field, and changes nothing', async () => {
    const someone = await person(admin);
    const before = await broadcastCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ destination_account_user_ids: [someone.id] }, 'title'],
      [{ title: '   ', destination_account_user_ids: [someone.id] }, 'title'],
      [{ title: 'No one' }, 'destination_team_ids'],
      [{ title: 'Empty', destination_team_ids: [], destination_account_user_ids: [] }, 'destination_account_user_ids'],
      [{ title: 'Ask', response_requested: true, destination_account_user_ids: [someone.id] }, 'broadcast_response_options_attributes'],
      [
        { title: 'Ask', response_requested: true, broadcast_response_options_attributes: [], destination_account_user_ids: [someone.id] },
        'broadcast_response_options_attributes',
      ],
      [{ title: 'Ghost team', destination_team_ids: ['tem_01JZZZZZZZZZZZZZZZZZZZZZZZ'] }, 'destination_team_ids'],
      [{ title: 'Wrong kind', destination_account_user_ids: ['tem_01JZZZZZZZZZZZZZZZZZZZZZZZ'] }, 'destination_account_user_ids'],
      [
        { title: 'Late', destination_account_user_ids: [someone.id], response_requested_by: '2020-01-01T00:00:00Z' },
        'response_requested_by',
      ],
      [{ title: 'Garbled', destination_account_user_ids: [someone.id], response_requested_by: 'next tuesday' }, 'response_requested_by'],
      [{ title: 'Flag', destination_account_user_ids: [someone.id], response_requested: 'perhaps' }, 'response_requested'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post('/api/v4/broadcasts', body);
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(422);
      expect(res.body.code).toBe(422);
      expect(res.body.errors.map((e: { message: string }) => e.message).join(' | ')).toContain(field);
    }
    expect(await broadcastCount()).toBe(before);
  });

  it('needs the admin or broadcaster role (403 otherwise); a broadcaster creates one, answered queued', async () => {
    const plain = await person(admin);
    const refused = await plain.client.post('/api/v4/broadcasts', { title: 'Hi', destination_account_user_ids: [plain.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(403);

    const res = await broadcaster.post('/api/v4/broadcasts', {
      title: 'Office closed Friday',
      description: 'Work from home.',
      tags: ['office'],
      destination_account_user_ids: [`acu_${plain.id}`],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Office closed Friday',
      description: 'Work from home.',
      tag_list: ['office'],
      status: 'queued',
      response_requested: false,
      response_requested_by: null,
      destination_account_user_ids: [plain.id],
      destination_team_ids: [],
      broadcast_response_options: [],
      broadcast_responses: [],
      source_id: broadcasterId,
      source_type: 'AccountUser',
    });
    expect(res.body.prefix_id).toBe(`brd_${res.body.id}`);
    expect(res.body.tiny_id).toBeGreaterThanOrEqual(1);
    const got = await admin.get(`/api/v4/broadcasts/${res.body.prefix_id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(res.body.id);
  });

  it('takes a form-encoded body with response options in the order given', async () => {
    const someone = await person(admin);
    const form = new URLSearchParams();
    form.append('title', 'Form poll');
    form.append('response_requested', 'true');
    form.append('destination_account_user_ids[]', someone.id);
    for (const value of ['First', 'Second', 'Third']) form.append('broadcast_response_options_attributes[][value]', value);
    const res = await admin.post('/api/v4/broadcasts', form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.response_requested).toBe(true);
    expect(res.body.broadcast_response_options.map((o: { value: string; position: number }) => [o.value, o.position])).toEqual([
      ['First', 0],
      ['Second', 1],
      ['Third', 2],
    ]);
  });

  it('takes response options keyed by index, as Rails nested attributes arrive', async () => {
    const someone = await person(admin);
    const res = await admin.post('/api/v4/broadcasts', {
      title: 'Indexed poll',
      response_requested: 'true',
      destination_account_user_ids: someone.id,
      broadcast_response_options_attributes: { '1': { value: 'Later' }, '0': { value: 'Sooner' }, '2': { value: 'Gone', _destroy: '1' } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.broadcast_response_options.map((o: { value: string }) => o.value)).toEqual(['Sooner', 'Later']);
  });
});

describe('delivering a broadcast', () => {
  it('reaches every member and admin of the teams and every destination user, each once, then is open', async () => {
    const [a, b, c, d, e, outsider] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => person(admin)));
    const first = await teamOf([a, b], [c]);
    const second = await teamOf([b, d], [a]);
    const res = await admin.post('/api/v4/broadcasts', {
      title: 'Datacenter maintenance tonight',
      description: 'Expect a failover at 22:00.',
      destination_team_ids: [first.id, second.prefix_id],
      destination_account_user_ids: [d.id, e.id],
    });
    expect(res.status, res.text).toBe(201);
    const open = await waitForStatus(res.body.id, 'open');
    expect(open.sent_at).toEqual(expect.any(String));

    const sent = await notificationsOfBroadcast(res.body.id);
    const byPerson = new Map<string, string[]>();
    for (const n of sent) byPerson.set(n.account_user_id, [...(byPerson.get(n.account_user_id) ?? []), n.channel]);
    expect([...byPerson.keys()].sort()).toEqual([a.id, b.id, c.id, d.id, e.id].sort());
    for (const channels of byPerson.values()) expect(channels.sort()).toEqual(['email', 'push']);
    expect(byPerson.has(outsider.id)).toBe(false);
    for (const n of sent) {
      expect(n).toMatchObject({ template: 'alert_broadcast', status: 'sent', alert_id: null, broadcast_id: res.body.id });
    }
    const email = outboxMessages().find((m) => m.template === 'alert_broadcast' && m.channel === 'email' && m.to === b.email);
    expect(email?.subject).toBe(`Broadcast #${res.body.tiny_id}: Datacenter maintenance tonight`);
    expect(email?.message).toContain('Expect a failover at 22:00.');
  });

  it('tells the addressees what to answer when a response is requested', async () => {
    const someone = await person(admin);
    const poll = await openPoll([someone], ['Joining', 'Not available']);
    const email = outboxMessages().find(
      (m) =>
        m.template === 'alert_broadcast' && m.channel === 'email' && m.to === someone.email && m.subject?.includes(`#${poll.tiny_id}:`),
    );
    expect(email?.message).toContain('Please respond');
    expect(email?.message).toContain('Joining / Not available');
  });

  it('is errored when nothing could be sent (nobody has a channel)', async () => {
    const silent = await person(admin, { push: false, email: false });
    const res = await admin.post('/api/v4/broadcasts', { title: 'Into the void', destination_account_user_ids: [silent.id] });
    expect(res.status, res.text).toBe(201);
    await waitForStatus(res.body.id, 'errored');
    expect(await notificationsOfBroadcast(res.body.id)).toEqual([]);
  });

  it('is delivered by the sweeper when its queue message was lost, and a second run sends nothing twice', async () => {
    const someone = await person(admin);
    const template = await admin.post('/api/v4/broadcasts', { title: 'Template', destination_account_user_ids: [someone.id] });
    expect(template.status).toBe(201);
    // A broadcast stored as create stores it, whose timer message never reached the queue.
    const now = Date.now();
    const iso = new Date(now - 10_000).toISOString();
    const lost = {
      id: newId(),
      account_id: template.body.account_id,
      version: 1,
      tiny_id: 9_999,
      title: 'Lost message',
      description: null,
      tag_list: [],
      destination_team_ids: [],
      destination_account_user_ids: [someone.id],
      status: 'queued' as const,
      response_requested: false,
      response_requested_by: null,
      response_options: [],
      created_by: template.body.source_id,
      recipients_count: null,
      sent_at: null,
      closed_at: null,
      lease_until: null,
      due_at: now - 10_000,
      created_at: iso,
      updated_at: iso,
    };
    await insertBroadcast(lost);
    await settle(service);
    expect((await admin.get(`/api/v4/broadcasts/${lost.id}`)).body.status).toBe('queued');
    await runDueSweeps(service);
    expect((await admin.get(`/api/v4/broadcasts/${lost.id}`)).body.status).toBe('open');
    expect(await notificationsOfBroadcast(lost.id)).toHaveLength(2);
    // Another run (a late message, the next sweep) finds nothing left to do.
    await runBroadcastStep(lost.account_id, lost.id);
    await passTime(service, 120_000);
    expect(await notificationsOfBroadcast(lost.id)).toHaveLength(2);
  });
});

describe('closing a broadcast', () => {
  it('by its creator or an admin; another broadcaster gets 403; only closed is writable; closing twice is 409', async () => {
    const someone = await person(admin);
    const other = await createMember(admin, { name: 'Other caster', roles: { broadcaster: true } });
    const res = await broadcaster.post('/api/v4/broadcasts', { title: 'Closable', destination_account_user_ids: [someone.id] });
    expect(res.status).toBe(201);
    await waitForStatus(res.body.id, 'open');

    expect((await other.client.put(`/api/v4/broadcasts/${res.body.id}`, { status: 'closed' })).status).toBe(403);
    expect((await someone.client.put(`/api/v4/broadcasts/${res.body.id}`, { status: 'closed' })).status).toBe(403);
    const reopen = await broadcaster.put(`/api/v4/broadcasts/${res.body.id}`, { status: 'open' });
    expect(reopen.status).toBe(422);
    expect(reopen.body.errors[0].message).toContain('status');

    const renamed = await broadcaster.put(`/api/v4/broadcasts/${res.body.id}`, { title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Renamed', status: 'open' });

    const closed = await broadcaster.put(`/api/v4/broadcasts/${res.body.id}`, { status: 'closed' });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.status).toBe('closed');
    expect(closed.body.closed_at).toEqual(expect.any(String));
    const again = await admin.put(`/api/v4/broadcasts/${res.body.id}`, { status: 'closed' });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].message).toContain('closed');

    // An admin closes someone else's.
    const second = await broadcaster.post('/api/v4/broadcasts', { title: 'Admin closes', destination_account_user_ids: [someone.id] });
    await waitForStatus(second.body.id, 'open');
    expect((await admin.put(`/api/v4/broadcasts/${second.body.id}`, { status: 'closed' })).body.status).toBe('closed');
  });

  it('closes when response_requested_by passes (the service clock), not sooner under TIME_SCALE; then answers are refused', async () => {
    const someone = await person(admin);
    const deadline = new Date(Date.now() + 3_600_000).toISOString();
    const poll = await openPoll([someone], ['Yes', 'No'], { response_requested_by: deadline });
    expect(poll.response_requested_by).toBe(deadline);
    // With TIME_SCALE=600 an hour of relative time would be 6 s; a deadline is absolute and stays.
    await passTime(service, 3_600_000 / 600 + BROADCAST_SWEEP_GRACE_MS);
    expect((await admin.get(`/api/v4/broadcasts/${poll.id}`)).body.status).toBe('open');

    await passTime(service, 3_600_000);
    const closed = (await admin.get(`/api/v4/broadcasts/${poll.id}`)).body;
    expect(closed.status).toBe('closed');
    expect(closed.closed_at).toEqual(expect.any(String));
    const late = await someone.client.post(`/api/v4/broadcasts/${poll.id}/respond`, {
      broadcast_response_option_id: poll.broadcast_response_options[0].id,
    });
    expect(late.status).toBe(409);
  });

  it('closes on its deadline through its own timer message, without the sweeper', async () => {
    const someone = await person(admin);
    // The service's clock stands still until the test moves it past the deadline, so however slow
    // the creation, the deadline is ahead when it is checked and has passed when the timer message
    // (delayed 2 s by SQS) arrives. The sweeper never runs here.
    const now = testClock.freeze();
    const poll = await openPoll([someone], ['Yes'], { response_requested_by: new Date(now + 2_500).toISOString() });
    await settle(service);
    testClock.advance(2_500);
    const closed = await waitForStatus(poll.id, 'closed');
    expect(Date.parse(closed.closed_at)).toBeGreaterThanOrEqual(Date.parse(poll.response_requested_by));
  });
});

describe('responding to a broadcast', () => {
  it('addressees only: others 403, another account 404; a second answer replaces the first', async () => {
    const [yes, no, bystander] = [await person(admin), await person(admin), await person(admin)];
    const poll = await openPoll([yes, no]);
    const [optYes, optNo] = poll.broadcast_response_options as { id: string; value: string }[];

    const outsider = await bystander.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: optYes.id });
    expect(outsider.status).toBe(403);
    const notAddressedAdmin = await admin.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: optYes.id });
    expect(notAddressedAdmin.status).toBe(403);
    const other = await signupAccount(service, 'Elsewhere');
    expect((await other.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: optYes.id })).status).toBe(
      404,
    );

    const bad = await yes.client.post(`/api/v4/broadcasts/${poll.id}/respond`, {
      broadcast_response_option_id: 'bro_01JZZZZZZZZZZZZZZZZZZZZZZZ',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toContain('broadcast_response_option_id');
    const missing = await yes.client.post(`/api/v4/broadcasts/${poll.id}/respond`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].message).toContain('broadcast_response_option_id');

    const first = await yes.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: optNo.id });
    expect(first.status, first.text).toBe(200);
    const changed = await yes.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: `bro_${optYes.id}` });
    expect(changed.status, changed.text).toBe(200);
    const theirs = await no.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: optNo.id });
    expect(theirs.status).toBe(200);

    const seen = (await admin.get(`/api/v4/broadcasts/${poll.id}`)).body;
    expect(
      seen.broadcast_response_options.map((o: { value: string; broadcast_responses_count: number }) => [
        o.value,
        o.broadcast_responses_count,
      ]),
    ).toEqual([
      ['Yes', 1],
      ['No', 1],
      ['Maybe', 0],
    ]);
    expect(seen.broadcast_responses).toHaveLength(2);
    const answerOf = (id: string) => seen.broadcast_responses.find((r: { account_user_id: string }) => r.account_user_id === id);
    expect(answerOf(yes.id)).toMatchObject({ broadcast_response_option_id: optYes.id, channel: 'api' });
    expect(answerOf(yes.id).prefix_id).toBe(`brr_${answerOf(yes.id).id}`);
    expect(answerOf(no.id)).toMatchObject({ broadcast_response_option_id: optNo.id });
  });

  it('keeps the counts exact under concurrent answers, one answer per person', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => person(admin)));
    const team = await teamOf(people.slice(0, 5), people.slice(5));
    const res = await admin.post('/api/v4/broadcasts', {
      title: 'Headcount',
      response_requested: true,
      broadcast_response_options_attributes: [{ value: 'A' }, { value: 'B' }],
      destination_team_ids: [team.id],
    });
    expect(res.status, res.text).toBe(201);
    const poll = await waitForStatus(res.body.id, 'open');
    const [a, b] = poll.broadcast_response_options as { id: string }[];
    // Everyone answers at once, and each person sends five answers racing each other: whichever wins,
    // each person has one answer and every option's count is the number of answers naming it.
    const answers = await Promise.all(
      people.flatMap((p, index) =>
        [a, b, a, b, index < 3 ? b : a].map((option) =>
          p.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: option.id }),
        ),
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const seen = (await admin.get(`/api/v4/broadcasts/${poll.id}`)).body;
    expect(seen.broadcast_responses).toHaveLength(8);
    expect(new Set(seen.broadcast_responses.map((r: { account_user_id: string }) => r.account_user_id)).size).toBe(8);
    const counts = seen.broadcast_response_options.map((o: { broadcast_responses_count: number }) => o.broadcast_responses_count);
    expect(counts[0] + counts[1]).toBe(8);
    for (const option of seen.broadcast_response_options) {
      const actual = seen.broadcast_responses.filter(
        (r: { broadcast_response_option_id: string }) => r.broadcast_response_option_id === option.id,
      );
      expect(option.broadcast_responses_count).toBe(actual.length);
    }
    // Answered one at a time afterwards, every person's last answer is the one that counts.
    for (const [index, p] of people.entries()) {
      const res = await p.client.post(`/api/v4/broadcasts/${poll.id}/respond`, { broadcast_response_option_id: index < 3 ? b.id : a.id });
      expect(res.status).toBe(200);
    }
    const settled = (await admin.get(`/api/v4/broadcasts/${poll.id}`)).body;
    expect(settled.broadcast_response_options.map((o: { broadcast_responses_count: number }) => o.broadcast_responses_count)).toEqual([
      5, 3,
    ]);
  });

  it('refuses answers to a broadcast that asks for none, and to a closed one (409)', async () => {
    const someone = await person(admin);
    const plain = await admin.post('/api/v4/broadcasts', { title: 'FYI', destination_account_user_ids: [someone.id] });
    await waitForStatus(plain.body.id, 'open');
    const answer = await someone.client.post(`/api/v4/broadcasts/${plain.body.id}/respond`, {
      broadcast_response_option_id: plain.body.id,
    });
    expect(answer.status).toBe(409);

    const poll = await openPoll([someone], ['Ok']);
    expect((await admin.put(`/api/v4/broadcasts/${poll.id}`, { status: 'closed' })).status).toBe(200);
    const late = await someone.client.post(`/api/v4/broadcasts/${poll.id}/respond`, {
      broadcast_response_option_id: poll.broadcast_response_options[0].id,
    });
    expect(late.status).toBe(409);
    expect(late.body.errors[0].message).toContain('closed');
  });
});

describe('reading, listing, deleting, isolation', () => {
  it('lists with the envelope and filters; deletes (creator or admin); another account sees nothing (404)', async () => {
    const someone = await person(admin);
    const res = await admin.post('/api/v4/broadcasts', {
      title: 'Listed one',
      tag_list: ['listed'],
      destination_account_user_ids: [someone.id],
    });
    await waitForStatus(res.body.id, 'open');
    const listed = await admin.get('/api/v4/broadcasts?tag_list=listed&status=open');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.total_count).toBe(1);
    expect(listed.body.data[0].id).toBe(res.body.id);
    expect((await admin.get('/api/v4/broadcasts?colour=red')).status).toBe(422);

    const other = await signupAccount(service, 'Isolated');
    expect((await other.client.get(`/api/v4/broadcasts/${res.body.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/v4/broadcasts/${res.body.id}`, { status: 'closed' })).status).toBe(404);
    expect((await other.client.delete(`/api/v4/broadcasts/${res.body.id}`)).status).toBe(404);
    expect(await broadcastCount(other.client)).toBe(0);
    expect((await other.client.post('/api/v4/broadcasts', { title: 'Cross', destination_account_user_ids: [someone.id] })).status).toBe(
      422,
    );

    expect((await someone.client.delete(`/api/v4/broadcasts/${res.body.id}`)).status).toBe(403);
    expect((await admin.delete(`/api/v4/broadcasts/${res.body.id}`)).status).toBe(204);
    expect((await admin.get(`/api/v4/broadcasts/${res.body.id}`)).status).toBe(404);
    // The notifications it sent stay: they record what went out.
    expect((await notificationsOfBroadcast(res.body.id)).length).toBe(2);
  });

  it('leaves the earlier /broadcast alert view as it was: neither interface shows the other', async () => {
    const someone = await person(admin);
    const v4 = await admin.post('/api/v4/broadcasts', { title: 'v4 only', destination_account_user_ids: [someone.id] });
    expect(v4.status).toBe(201);
    const earlier = await admin.post('/broadcast', { title: 'Earlier view', destination_ids: [`usr_${someone.userId}`] });
    expect(earlier.status, earlier.text).toBe(201);
    expect(earlier.body.id).toMatch(/^alt_/);
    expect(earlier.body.subtype).toBe('broadcast');

    const earlierList = await admin.get('/broadcast?limit=100');
    expect(earlierList.status).toBe(200);
    expect(earlierList.body.data.map((a: { id: string }) => a.id)).toContain(earlier.body.id);
    expect(earlierList.body.data.map((a: { title: string }) => a.title)).not.toContain('v4 only');
    expect((await admin.get(`/broadcast/brd_${v4.body.id}`)).status).toBe(404);
    const v4List = await admin.get('/api/v4/broadcasts?limit=100');
    expect(v4List.body.data.map((b: { title: string }) => b.title)).not.toContain('Earlier view');
    expect((await admin.get(`/api/v4/broadcasts/${earlier.body.id}`)).status).toBe(404);
  });
});
