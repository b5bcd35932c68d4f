// Escalation (docs/api.md#escalation-and-notifications) through the real local server, with TIME_SCALE=600 (a 5-minute layer
// lasts half a second) and the memory outbox: layers, skipped empty layers, repeat, reassign, drop
// and its notifications, account users paged alone, teams side by side, acknowledge and resolve
// stopping everything, reject moving on at once, hand-off, on both interfaces. What must NOT happen
// is asserted after the runtime came to rest with the service's clock moved past the moment it
// would have happened (test/support/quiescence.ts), never after a fixed wait.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { useService, type TestService } from '../support/runtime';
import {
  acknowledgedBeforeCommit,
  alertTo,
  escalationCalls,
  notificationsOf,
  pagedPeople,
  person,
  sentFor,
  team,
  waitFor,
} from '../escalation/support';
import { awsCallAnswered, holdAwsCalls } from '../support/aws-gates';
import { newId } from '../../lib/ids';
import { pageWorkflow } from '../../lib/escalation/reject-workflows';
import { getEscalation } from '../../lib/escalation/store';
import { SWEEP_GRACE_MS } from '../../lib/escalation/sweep';
import { testClock } from '../support/dependencies';
import { passTime, settle } from '../support/quiescence';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
  },
  { env: { TIME_SCALE: '600' } },
);

/** Alerts created after the ULID `before` (ULIDs of one process only grow). */
const createdAfter = (before: string) => (alertId: string) => alertId > before;

/** A policy's minutes as they run here (TIME_SCALE 600), and past the sweeper's grace: a timer this far ahead has fired. */
const pastMinutes = (minutes: number) => (minutes * 60_000) / 600 + SWEEP_GRACE_MS;

const statusOf = async (alertId: string) => (await admin.get(`/api/v4/alerts/${alertId}`)).body.status as string;
const timeline = async (prefixId: string) =>
  ((await admin.get(`/log?owner_id=${prefixId}&limit=100`)).body.data as { data: { action: string; layer?: number } }[]).map((e) => e.data);

describe('layers, skipped layers, repeat', () => {
  it('pages layer 1, then layer 2 at its timeout, then drops the alert and tells the team admins', async () => {
    const [a, b, boss] = [await person(admin), await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], admins: [boss.id], members: [a.id, b.id], drop_notifications: 'team_admins' });
    const alert = await alertTo(admin, { teams: [t.id] });
    const first = await sentFor(admin, alert.id, (s) => s.filter((n) => n.account_user_id === a.id).length >= 2);
    expect(pagedPeople(first)).toEqual([a.id]);
    // One notification per default channel (push and e-mail for new users), each tied to the workflow.
    expect(
      first
        .filter((n) => n.account_user_id === a.id)
        .map((n) => n.channel)
        .sort(),
    ).toEqual(['email', 'push']);
    const workflowId = first[0].workflow_id!;
    expect(workflowId).toMatch(/^[0-9A-Z]{26}$/);

    const all = await sentFor(admin, alert.id, (s) => s.some((n) => n.template === 'alert_dropped'));
    expect(pagedPeople(all)).toEqual([a.id, b.id]);
    expect(pagedPeople(all, 'alert_dropped')).toEqual([boss.id]);
    // Its step timed out and moved on: the workflow is nobody's to answer any more.
    expect(await pageWorkflow(accountId, alert.id, workflowId)).toBeNull();
    expect(await statusOf(alert.id)).toBe('dropped');
    expect((await admin.get(`/alert/${alert.prefix_id}`)).body.status).toBe('dropped');
    const actions = (await timeline(alert.prefix_id)).map((e) => e.action);
    // In the order they happened, though one step writes several entries in the same millisecond.
    expect(actions).toEqual(['created', 'routed', 'escalated', 'timed_out', 'escalated', 'timed_out', 'exhausted', 'dropped']);
    // The layers' timeouts ran in order: layer 2 was paged one (scaled) timeout after layer 1 or later
    // (the timeline's escalated entries carry each step's time).
    const logs = (await admin.get(`/log?owner_id=${alert.prefix_id}&limit=100`)).body.data as {
      createdAt: string;
      data: { action: string; layer?: number };
    }[];
    const steps = logs.filter((l) => l.data.action === 'escalated');
    const at = (layer: number) => Date.parse(steps.find((l) => l.data.layer === layer)!.createdAt);
    expect(at(2) - at(1)).toBeGreaterThanOrEqual(500);
  });

  it('skips a layer with nobody on call at once, and layers are taken by number', async () => {
    const c = await person(admin);
    // Layer 1's timeout (a day: 144 s scaled) cannot pass within the test: a page of layer 2 comes
    // from the skip alone.
    const t = await team(admin, { layers: [[], [c.id]], timeouts: [1440, 60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    expect(pagedPeople(sent)).toEqual([c.id]);
    expect((await timeline(alert.prefix_id)).map((e) => e.action)).toContain('layer_skipped');
  });

  it('runs the whole sequence `repeat` more times, then drops', async () => {
    const a = await person(admin);
    const t = await team(admin, { layers: [[a.id]], timeouts: [2], repeat: 2 });
    const alert = await alertTo(admin, { teams: [t.id] });
    await waitFor(
      () => statusOf(alert.id),
      (s) => s === 'dropped',
    );
    const pages = (await notificationsOf(admin, alert.id)).filter((n) => n.template === 'alert_alert' && n.channel === 'email');
    expect(pages.map((n) => n.account_user_id)).toEqual([a.id, a.id, a.id]);
    expect(new Set(pages.map((n) => n.workflow_id)).size).toBe(3);
    expect((await timeline(alert.prefix_id)).filter((e) => e.action === 'repeated')).toHaveLength(2);
  });

  it('pages one person per occurrence of a rotation', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id, b.id]], rotation: true, timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    await settle(service);
    expect(pagedPeople(await notificationsOf(admin, alert.id))).toHaveLength(1);
    expect([a.id, b.id]).toContain(pagedPeople(sent)[0]);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('reassign and drop', () => {
  it('reassigns once to the policy’s teams and account users, then drops with every drop recipient', async () => {
    const [a, b, c, x] = [await person(admin), await person(admin), await person(admin), await person(admin)];
    const other = await team(admin, { layers: [[b.id]], timeouts: [2], drop_notifications: 'oncall_rotation' });
    const t = await team(admin, {
      layers: [[a.id]],
      timeouts: [2],
      reassign_team_ids: [other.id],
      reassign_account_user_ids: [c.id],
      drop_notifications: 'specific_users',
      drop_notification_account_user_ids: [x.id],
    });
    const alert = await alertTo(admin, { teams: [t.id] });
    const reassigned = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 3);
    expect(pagedPeople(reassigned)[0]).toBe(a.id);
    expect(pagedPeople(reassigned).sort()).toEqual([a.id, b.id, c.id].sort());
    // The alert names its new team (d_team_id) once reassigned.
    await waitFor(
      () => admin.get(`/alert/${alert.prefix_id}`),
      (res) => res.body.d_team_id === `tem_${other.id}`,
    );
    await waitFor(
      () => statusOf(alert.id),
      (s) => s === 'dropped',
    );
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s, 'alert_dropped').length >= 2);
    // specific_users of the first team and oncall_rotation of the reassigned one; nobody twice.
    expect(pagedPeople(sent, 'alert_dropped').sort()).toEqual([x.id, b.id].sort());
    // Reassignment happens once: nobody was paged again after it.
    expect(sent.filter((n) => n.template === 'alert_alert' && n.channel === 'email')).toHaveLength(3);
  });

  it.each([
    ['team_all', (p: Record<string, string>) => [p.a, p.m, p.boss]],
    ['team_admins', (p: Record<string, string>) => [p.boss]],
    ['none', () => []],
  ])('drop_notifications %s', async (setting, expected) => {
    const [a, m, boss] = [await person(admin), await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id]], timeouts: [1], members: [a.id, m.id], admins: [boss.id], drop_notifications: setting });
    const alert = await alertTo(admin, { teams: [t.id] });
    await waitFor(
      () => statusOf(alert.id),
      (s) => s === 'dropped',
    );
    const want = expected({ a: a.id, m: m.id, boss: boss.id });
    await settle(service);
    const all = await sentFor(admin, alert.id, (s) => pagedPeople(s, 'alert_dropped').length >= want.length);
    const dropped = all.filter((n) => n.template === 'alert_dropped');
    expect([...new Set(dropped.map((n) => n.account_user_id))].sort()).toEqual(want.sort());
    for (const n of dropped) expect(n.message).toContain(`#${alert.tiny_id}`);
  });

  it('a team with nobody on call at all drops the alert at once', async () => {
    const member = await person(admin);
    const t = await team(admin, { layers: [[]], members: [member.id] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await waitFor(
      () => statusOf(alert.id),
      (s) => s === 'dropped',
      5_000,
    );
  });
});

describe('account users and teams side by side', () => {
  it('pages a destination account user alone, and drops after 5 minutes (÷ TIME_SCALE) without acknowledgement', async () => {
    const u = await person(admin);
    const alert = await alertTo(admin, { users: [u.id] });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    expect(pagedPeople(sent)).toEqual([u.id]);
    await waitFor(
      () => statusOf(alert.id),
      (s) => s === 'dropped',
      5_000,
    );
    expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([u.id]);
    // Not before its 5 minutes (500 ms here) from the page: read from the timeline's times, not from
    // when this test happened to look (a slow machine may look after the drop).
    const logs = (await admin.get(`/log?owner_id=${alert.prefix_id}&limit=100`)).body.data as {
      createdAt: string;
      data: { action: string };
    }[];
    const at = (action: string) => Date.parse(logs.find((l) => l.data.action === action)!.createdAt);
    expect(at('dropped') - at('escalated')).toBeGreaterThanOrEqual(500);
  });

  it('escalates several teams side by side; the first acknowledgement stops them all', async () => {
    const [a, b, a2, b2] = [await person(admin), await person(admin), await person(admin), await person(admin)];
    // Layers long enough (3 s here) for the acknowledgement to come first on a slow machine: the
    // clock is moved past them afterwards, not waited for.
    const t1 = await team(admin, { layers: [[a.id], [a2.id]], timeouts: [30, 30] });
    const t2 = await team(admin, { layers: [[b.id], [b2.id]], timeouts: [30, 30] });
    const alert = await alertTo(admin, { teams: [t1.id, t2.id] });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 2);
    expect(pagedPeople(sent).sort()).toEqual([a.id, b.id].sort());
    const ack = await b.client.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    expect(ack.status).toBe(200);
    const countAfterAck = (await notificationsOf(admin, alert.id)).length;
    await passTime(service, pastMinutes(30 + 30)); // past both layers' timeouts
    const after = await notificationsOf(admin, alert.id);
    expect(after).toHaveLength(countAfterAck);
    expect(await statusOf(alert.id)).toBe('acknowledged');
    for (const n of after.filter((x) => x.workflow_id)) expect(await pageWorkflow(accountId, alert.id, n.workflow_id!)).toBeNull();
  });
});

describe('acknowledge and resolve stop every pending step', () => {
  for (const [name, stop] of [
    ['v4 acknowledge', (c: ApiClient, a: { id: string; prefix_id: string }) => c.post(`/api/v4/alerts/${a.id}/acknowledge`)],
    ['v4 resolve', (c: ApiClient, a: { id: string; prefix_id: string }) => c.post(`/api/v4/alerts/${a.id}/resolve`)],
    ['earlier acknowledge', (c: ApiClient, a: { id: string; prefix_id: string }) => c.post(`/alert/${a.prefix_id}/acknowledge`)],
  ] as const) {
    it(`${name}: nothing is paged after the 200`, async () => {
      const [a, b] = [await person(admin), await person(admin)];
      const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [60, 60] });
      const alert = await alertTo(admin, { teams: [t.id] });
      await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
      const res = await stop(a.client, alert);
      expect(res.status, res.text).toBe(200);
      const seen = (await notificationsOf(admin, alert.id)).length;
      await passTime(service, pastMinutes(60)); // past layer 1's timeout
      expect(await notificationsOf(admin, alert.id)).toHaveLength(seen);
      expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([a.id]);
    });
  }

  // The start and the timeout steps race the acknowledgement. Each test below holds the step at one
  // point (its call to AWS there: test/support/aws-gates.ts) while the acknowledgement comes, so the
  // order is the one the test names on any machine, and none is left to a sleep. The service's clock
  // stands still meanwhile: a step's lease cannot run out while it is held, however slow the machine.
  describe('racing the start: an acknowledgement right after the alert is created leaves no page after its 200', () => {
    async function acknowledgeDuringTheStart(holdAt: 'routingSave' | 'routingRead' | 'commit') {
      const a = await person(admin);
      const t = await team(admin, { layers: [[a.id]], timeouts: [60] });
      // Through a router, routing decides and saves the decision; straight to the team, the create
      // stored it (lib/alerts/direct-routing.ts) and the routing worker only reads the alert and starts.
      const router =
        holdAt === 'routingSave'
          ? ((await admin.post('/api/v4/routers', { name: `Start race ${newId()}`, rules: null, default_receiver_team_id: t.id })).body as {
              id: string;
            })
          : null;
      // The alert's id is not known before it is created; it is the first ULID after this one.
      const calls = escalationCalls(accountId, createdAfter(newId()));
      const gate = holdAwsCalls(calls[holdAt], 1);
      testClock.freeze();
      let alert: Awaited<ReturnType<typeof alertTo>>;
      try {
        if (router) {
          const res = await admin.post('/api/v4/alerts', {
            title: 'Through a router',
            urgency: 'high',
            destination_router_ids: [router.id],
          });
          expect(res.status, res.text).toBe(201);
          alert = res.body as typeof alert;
        } else alert = await alertTo(admin, { teams: [t.id] });
        const start = await gate.next();
        expect(JSON.stringify(start.input)).toContain(alert.id);
        const res = await a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`);
        expect(res.status, res.text).toBe(200);
        expect(await notificationsOf(admin, alert.id)).toEqual([]);
        await start.release();
      } finally {
        gate.open();
      }
      await passTime(service, pastMinutes(60)); // past its only layer's timeout
      expect(await notificationsOf(admin, alert.id)).toEqual([]);
      expect(await statusOf(alert.id)).toBe('acknowledged');
      // Held at the commit, the stop's item was there first and stands: nothing committed over it.
      if (holdAt === 'commit') expect((await getEscalation(accountId, alert.id)).state?.outcome).toBe('acknowledged');
    }

    it('before the routing saves its decision: the routing finds it acknowledged and starts nothing', () =>
      acknowledgeDuringTheStart('routingSave'));

    it('decided at create, before the routing reads it: the routing finds it acknowledged and starts nothing', () =>
      acknowledgeDuringTheStart('routingRead'));

    // The start goes by the alert the routing saved (open) and, its decision stored just now, by no
    // escalation item: it reads neither before its commit. The stop writes the item first, so the
    // commit (only where none is) fails, and the step reads the item and goes by the stop.
    it('before the start’s commit: the commit finds the stop’s item, and nothing is paged', () => acknowledgeDuringTheStart('commit'));
  });

  describe('racing a due timer: an acknowledgement at the moment layer 2 is due leaves no page after its 200', () => {
    /** Layer 1 paged and at rest, and layer 2 due by the service's clock (the sweeper runs that step). */
    async function layerOnePaged() {
      const [a, b] = [await person(admin), await person(admin)];
      const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [60, 60] });
      const alert = await alertTo(admin, { teams: [t.id] });
      await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
      await settle(service);
      testClock.advance(pastMinutes(60));
      testClock.freeze();
      return { a, b, alert, calls: escalationCalls(accountId, (id) => id === alert.id) };
    }

    it('between the step’s read of the alert and its commit: its second look before paging stops it', async () => {
      const { a, alert, calls } = await layerOnePaged();
      await acknowledgedBeforeCommit(
        calls.commit,
        () => service.runtime.runScheduled('sweeper'),
        () => a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`),
      );
      await passTime(service, pastMinutes(60)); // past layer 2's timeout too
      expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([a.id]);
      expect(await statusOf(alert.id)).toBe('acknowledged');
    });

    it('while the step pages layer 2: the acknowledgement waits for it, so every page comes before the 200', async () => {
      const { a, b, alert, calls } = await layerOnePaged();
      const gate = holdAwsCalls(calls.page, 1);
      const stopRequested = awsCallAnswered(calls.stopRequest);
      let sweep: Promise<unknown> | undefined;
      let atAnswer: Awaited<ReturnType<typeof notificationsOf>>;
      try {
        sweep = service.runtime.runScheduled('sweeper');
        const page = await gate.next();
        const acknowledged = a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`);
        // The acknowledgement has written the alert and found the step's lease; the page goes on.
        await stopRequested;
        await page.release();
        const res = await acknowledged;
        expect(res.status, res.text).toBe(200);
        atAnswer = await notificationsOf(admin, alert.id);
      } finally {
        gate.open();
      }
      await sweep;
      expect(pagedPeople(atAnswer)).toEqual([a.id, b.id]);
      await passTime(service, pastMinutes(60)); // past layer 2's timeout too
      expect(await notificationsOf(admin, alert.id)).toHaveLength(atAnswer.length);
      expect(await statusOf(alert.id)).toBe('acknowledged');
    });
  });
});

describe('reject (docs/api.md#alert-transitions)', () => {
  it('moves on to the next layer at once when the last open workflow of the step is rejected; the others hear alert_rejected', async () => {
    const [a, x, b] = [await person(admin), await person(admin), await person(admin)];
    // Layer 1's timeout (a day: 144 s scaled) cannot pass within the test: layer 2 is paged by the
    // rejects alone.
    const t = await team(admin, { layers: [[a.id, x.id], [b.id]], timeouts: [1440, 60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 2);
    // Someone not paged may not reject.
    const stranger = await admin.post(`/api/v4/alerts/${alert.id}/reject`);
    expect(stranger.status).toBe(409);
    expect(stranger.body.errors[0].message).toMatch(/workflow/);

    const first = await a.client.post(`/api/v4/alerts/${alert.id}/reject`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.status).toBe('open');
    const told = await sentFor(admin, alert.id, (s) => s.some((n) => n.template === 'alert_rejected'));
    expect(pagedPeople(told, 'alert_rejected')).toEqual([x.id]);
    expect(pagedPeople(told)).toEqual(expect.not.arrayContaining([b.id]));
    // A second reject by the same person: the workflow is closed now.
    expect((await a.client.post(`/api/v4/alerts/${alert.id}/reject`)).status).toBe(409);

    const last = await x.client.post(`/alert/${alert.prefix_id}/reject`);
    expect(last.status, last.text).toBe(200);
    const moved = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(b.id));
    expect(pagedPeople(moved).slice(0, 2).sort()).toEqual([a.id, x.id].sort());
    expect(pagedPeople(moved)[2]).toBe(b.id);
    const actions = (await timeline(alert.prefix_id)).map((e) => e.action);
    expect(actions.filter((x2) => x2 === 'rejected')).toHaveLength(2);
  });

  it('drops the alert when the rejected step was the last one', async () => {
    const a = await person(admin);
    const t = await team(admin, { layers: [[a.id]], timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    const res = await a.client.post(`/api/v4/alerts/${alert.id}/reject`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('dropped');
    const actions = (await timeline(alert.prefix_id)).map((e) => e.action).filter((x) => x === 'rejected' || x === 'dropped');
    expect(actions).toEqual(['rejected', 'dropped']);
  });

  it('is a conflict when the alert is not open, even for the paged person', async () => {
    const a = await person(admin);
    const alert = await alertTo(admin, { users: [a.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    expect((await a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    const res = await a.client.post(`/api/v4/alerts/${alert.id}/reject`);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].message).toContain('acknowledged');
  });
});

describe('channels: the default channels, or the notification rule a person uses', () => {
  it('pages by the rule: its first step at once, the next after its timeout (÷ TIME_SCALE); a person without one by the defaults', async () => {
    const [ruled, plain] = [await person(admin, { sms: true, voice: true }), await person(admin)];
    const rule = await admin.post('/api/v4/notification_rules', {
      name: 'SMS then call',
      rules:
        'rules:\n  - match:\n      alert.urgency: high\n    actions:\n      - type: notify\n        channels: [sms]\n        timeout: 2m\n      - type: notify\n        channels: [voice]\n',
    });
    expect(rule.status, rule.text).toBe(201);
    expect((await admin.put(`/api/v4/account_users/${ruled.id}`, { notification_rule_id: rule.body.id })).status).toBe(200);
    const t = await team(admin, { layers: [[ruled.id, plain.id]], timeouts: [60] });
    const alert = await alertTo(admin, { teams: [t.id] });
    const sent = await sentFor(admin, alert.id, (s) => s.some((n) => n.account_user_id === ruled.id && n.channel === 'voice'));
    const of = (id: string) => sent.filter((n) => n.account_user_id === id);
    expect(of(ruled.id).map((n) => n.channel)).toEqual(['sms', 'voice']);
    expect(
      of(plain.id)
        .map((n) => n.channel)
        .sort(),
    ).toEqual(['email', 'push']);
    // The call came after the text, on its own timer (2 minutes ÷ 600 after the page).
    const [sms, voice] = of(ruled.id).map((n) => Date.parse(n.created_at));
    expect(voice).toBeGreaterThan(sms);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});

describe('hand-off (earlier interface)', () => {
  it('pages the new account user with alert_handoff and replaces the running escalation', async () => {
    const [a, b, h] = [await person(admin), await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [30, 30] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    const res = await a.client.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${h.userId}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', d_user_id: `usr_${h.userId}` });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s, 'alert_handoff').length >= 1);
    expect(pagedPeople(sent, 'alert_handoff')).toEqual([h.id]);
    // Past layer 1's timeout: the team's layer 2 never comes, the hand-off replaced it.
    await passTime(service, pastMinutes(30));
    expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([a.id]);
  });

  it("to a team: starts that team's policy, its first page with alert_handoff", async () => {
    const [a, b, c] = [await person(admin), await person(admin), await person(admin)];
    const first = await team(admin, { layers: [[a.id]], timeouts: [60] });
    const second = await team(admin, { layers: [[b.id], [c.id]], timeouts: [1, 60] });
    const alert = await alertTo(admin, { teams: [first.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length >= 1);
    expect((await a.client.post(`/alert/${alert.prefix_id}/acknowledge`)).status).toBe(200);
    const res = await a.client.post(`/alert/${alert.prefix_id}/handoff`, { to: `tem_${second.id}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', d_team_id: `tem_${second.id}` });
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(c.id));
    expect(pagedPeople(sent, 'alert_handoff')).toEqual([b.id]);
    // Layer 2 of the new team pages with the ordinary template.
    expect(sent.find((n) => n.account_user_id === c.id)?.template).toBe('alert_alert');
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});
