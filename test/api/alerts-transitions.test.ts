// Alert transitions over HTTP (docs/api.md#alert-transitions): every action from every status on both interfaces,
// reject with and without the caller's workflow, handoff, concurrency, and the timeline each writes.
// @moto: conditional writes on status and version.
import { describe, expect, it } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';
import { testClock } from '../support/dependencies';
import { useService, type TestService } from '../support/runtime';
import { ALL_STATUSES, eventually, forceStatus, whoAmI, type Me } from '../alerts/support';
import type { AlertStatus } from '../../lib/alerts/records';
import { pageWorkflow } from '../../lib/escalation/reject-workflows';
import { team as onCallTeam } from '../escalation/support';

let service: TestService;
let admin: ApiClient;
let me: Me;
/** The person new alerts page (not the caller: the caller holds no workflow unless a test pages them). */
let other: { id: string; user_id: string };

useService(async (started) => {
  service = started;
  admin = service.admin;
  me = await whoAmI(admin);
  other = (await createMember(admin, { name: 'Paged Person' })).accountUser;
});

async function newAlert(status: AlertStatus = 'open', body: Record<string, unknown> = {}) {
  const res = await admin.post('/api/v4/alerts', {
    title: `Alert from ${status}`,
    urgency: 'high',
    destination_account_user_ids: [other.id],
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  // moto lacks isolation between concurrent conditional writes (see the race test below): there the
  // routing worker's write is let through first, so it cannot interleave with what the test does.
  if (process.env.AWS_ENDPOINT_URL) {
    await eventually(
      () => admin.get(`/alert/${res.body.prefix_id}`),
      (r) => r.body.d_user_id !== null || r.body.d_team_id !== null,
    );
  }
  if (status !== 'open') await forceStatus(me.accountId, res.body.id, status);
  return res.body as { id: string; prefix_id: string };
}

async function timeline(alert: { prefix_id: string }) {
  const res = await admin.get(`/log?owner_id=${alert.prefix_id}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data as { data: { action: string; old_status: string; new_status: string; actor: { id: string } } }[];
}

const V4: Record<string, { from: AlertStatus[]; to: AlertStatus }> = {
  acknowledge: { from: ['open', 'dropped', 'suppressed'], to: 'acknowledged' },
  resolve: { from: ['open', 'dropped', 'acknowledged'], to: 'resolved' },
};
const EARLIER: Record<string, { from: AlertStatus[]; to: AlertStatus }> = {
  acknowledge: { from: ['open', 'dropped'], to: 'acknowledged' },
  resolve: { from: ['acknowledged'], to: 'resolved' },
  archive: { from: ['resolved', 'dropped'], to: 'archived' },
};

describe('the transition table', () => {
  for (const [iface, table] of [
    ['v4', V4],
    ['earlier', EARLIER],
  ] as const) {
    for (const [action, rule] of Object.entries(table)) {
      it(`${iface} ${action}: allowed from ${rule.from.join('|')} only`, async () => {
        for (const status of ALL_STATUSES) {
          const alert = await newAlert(status);
          const path = iface === 'v4' ? `/api/v4/alerts/${alert.id}/${action}` : `/alert/${alert.prefix_id}/${action}`;
          const res = await admin.post(path, { ignored: true });
          if (rule.from.includes(status)) {
            expect(res.status, `${action} from ${status}: ${res.text}`).toBe(200);
            expect(res.body.status).toBe(rule.to);
            // (Routing and escalation may add their entries at any moment: they are not the transition's.)
            const entries = (await timeline(alert)).filter(
              (e) => !['routed', 'escalated', 'exhausted', 'layer_skipped'].includes(e.data.action),
            );
            const last = entries[entries.length - 1].data;
            expect(last).toMatchObject({ old_status: status, new_status: rule.to, actor: { id: `usr_${me.userId}` } });
          } else {
            expect(res.status, `${action} from ${status}`).toBe(409);
            expect(res.body.errors[0].message).toContain(status);
            if (iface === 'v4') expect(res.body.code).toBe(409);
            const after = await admin.get(`/api/v4/alerts/${alert.id}`);
            expect(after.body.status).toBe(status);
          }
        }
      });
    }
  }

  it('records who and when: acknowledged_at only on the first acknowledgement', { tags: ['moto'] }, async () => {
    const alert = await newAlert();
    const first = await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    expect(first.body.acknowledged_at).toMatch(/Z$/);
    await forceStatus(me.accountId, alert.id, 'dropped');
    // A later acknowledgement, by the service's clock, may not move acknowledged_at.
    testClock.advance(60_000);
    const second = await admin.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    expect(second.status).toBe(200);
    expect(second.body.acknowledged_at).toBe(first.body.acknowledged_at);
    const resolved = await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    expect(resolved.body.resolved_at).toMatch(/Z$/);
    const earlier = await admin.get(`/alert/${alert.prefix_id}`);
    expect(earlier.body).toMatchObject({
      status: 'resolved',
      acknowledgedby: `usr_${me.userId}`,
      resolvedby: `usr_${me.userId}`,
      acknowledged: Math.floor(Date.parse(first.body.acknowledged_at) / 1000),
      resolved: Math.floor(Date.parse(resolved.body.resolved_at) / 1000),
    });
    const archived = await admin.post(`/alert/${alert.prefix_id}/archive`);
    expect(archived.body).toMatchObject({ status: 'archived', archivedby: `usr_${me.userId}` });
    expect(typeof archived.body.archived).toBe('number');
    // v4 shows the archived status as it is and refuses every action on it.
    const v4 = await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    expect(v4.status).toBe(409);
    expect(v4.body.errors[0].message).toContain('archived');
  });

  it('404s actions on an absent alert or an id of the wrong form', async () => {
    for (const action of ['acknowledge', 'resolve', 'reject']) {
      expect((await admin.post(`/api/v4/alerts/01ARZ3NDEKTSV4RRFFQ69G5FAV/${action}`)).status).toBe(404);
      expect((await admin.post(`/api/v4/alerts/nope/${action}`)).status).toBe(404);
    }
    for (const action of ['acknowledge', 'resolve', 'reject', 'archive', 'handoff']) {
      expect((await admin.post(`/alert/alt_01ARZ3NDEKTSV4RRFFQ69G5FAV/${action}`, { to: `usr_${me.userId}` })).status).toBe(404);
    }
  });
});

describe('reject', () => {
  it('is a conflict without an open workflow of the caller, on both interfaces', { tags: ['moto'] }, async () => {
    const alert = await newAlert();
    const v4 = await admin.post(`/api/v4/alerts/${alert.id}/reject`);
    expect(v4.status).toBe(409);
    expect(v4.body.errors[0].message).toMatch(/workflow/);
    expect(v4.body.errors[0].message).toContain('open');
    expect((await admin.post(`/alert/${alert.prefix_id}/reject`)).status).toBe(409);
    // Someone else's workflow (the paged person's) does not count.
    await eventually(
      () => admin.get(`/api/v4/notifications?alert_id=${alert.id}`),
      (res) => res.body.total_count > 0,
    );
    expect((await admin.post(`/api/v4/alerts/${alert.id}/reject`)).status).toBe(409);
  });

  it(
    "closes the caller's workflow; the alert stays open while others are paged, and drops when no one is left",
    { tags: ['moto'] },
    async () => {
      const { accountUser, client } = await createMember(admin);
      const team = await admin.post('/api/v4/teams', {
        name: 'Both on call',
        member_account_user_ids: [me.accountUserId, accountUser.id],
        admin_account_user_ids: [me.accountUserId],
      });
      await admin.put(`/api/v4/escalation_policies/${team.body.escalation_policy_id}`, {
        escalation_layers: [{ layer: 1, timeout: 60, timeout_unit: 'minutes' }],
      });
      const event = await admin.post('/api/v4/events', {
        schedule_ids: [team.body.schedule_id],
        account_user_ids: [me.accountUserId, accountUser.id],
        layer: 1,
        start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
        end_datetime: new Date(Date.now() + 86_400_000).toISOString(),
        time_zone: 'UTC',
      });
      expect(event.status, event.text).toBe(201);
      const alert = await newAlert('open', { destination_account_user_ids: [], destination_team_ids: [team.body.id] });
      const paged = await eventually(
        () => admin.get(`/api/v4/notifications?alert_id=${alert.id}&channel=email`),
        (res) => res.body.total_count === 2,
      );
      const mine = paged.body.data.find((n: { account_user_id: string }) => n.account_user_id === me.accountUserId).workflow_id;
      const theirs = paged.body.data.find((n: { account_user_id: string }) => n.account_user_id === accountUser.id).workflow_id;

      const first = await admin.post(`/api/v4/alerts/${alert.id}/reject`);
      expect(first.status, first.text).toBe(200);
      expect(first.body.status).toBe('open');
      // The step goes on while their page is open: mine is closed in it, theirs not.
      expect(await pageWorkflow(me.accountId, alert.id, mine.replace(/^wkf_/, ''))).toEqual({
        accountUserId: me.accountUserId,
        status: 'rejected',
      });
      expect((await pageWorkflow(me.accountId, alert.id, theirs.replace(/^wkf_/, '')))?.status).toBe('open');
      // Rejecting twice: the workflow is closed now.
      expect((await admin.post(`/api/v4/alerts/${alert.id}/reject`)).status).toBe(409);

      const last = await client.post(`/alert/${alert.prefix_id}/reject`);
      expect(last.status, last.text).toBe(200);
      expect(last.body.status).toBe('dropped');
      // Nobody is left in the step: it ended, and the alert dropped.
      expect(await pageWorkflow(me.accountId, alert.id, theirs.replace(/^wkf_/, ''))).toBeNull();
      const actions = (await timeline(alert)).map((e) => e.data.action);
      expect(actions.filter((a) => ['created', 'rejected', 'dropped'].includes(a))).toEqual(['created', 'rejected', 'rejected', 'dropped']);
    },
  );

  it('is a conflict when the alert is not open, even with a workflow', { tags: ['moto'] }, async () => {
    for (const status of ALL_STATUSES.filter((s) => s !== 'open')) {
      // Paged (my workflow open in its escalation), then moved to the status without stopping it.
      const alert = await newAlert('open', { destination_account_user_ids: [me.accountUserId] });
      await eventually(
        () => admin.get(`/api/v4/notifications?alert_id=${alert.id}`),
        (r) => r.body.total_count > 0,
      );
      expect(
        (
          await pageWorkflow(
            me.accountId,
            alert.id,
            (await admin.get(`/api/v4/notifications?alert_id=${alert.id}`)).body.data[0].workflow_id.replace(/^wkf_/, ''),
          )
        )?.status,
      ).toBe('open');
      await forceStatus(me.accountId, alert.id, status);
      const res = await admin.post(`/api/v4/alerts/${alert.id}/reject`);
      expect(res.status, status).toBe(409);
      expect(res.body.errors[0].message).toContain(status);
    }
  });
});

describe('handoff (earlier interface)', () => {
  it('reassigns to a user, appends the handoff, reopens and notifies; acknowledged_at stays', { tags: ['moto'] }, async () => {
    const alert = await newAlert();
    await eventually(
      () => admin.get(`/alert/${alert.prefix_id}`),
      (res) => res.body.d_user_id !== null,
    );
    const ack = await admin.post(`/alert/${alert.prefix_id}/acknowledge`);
    const { accountUser } = await createMember(admin, { email: `handoff-${Date.now()}@example.com` });
    const res = await admin.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${accountUser.user_id}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', d_user_id: `usr_${accountUser.user_id}`, acknowledged: ack.body.acknowledged });
    expect(res.body.handoffs).toEqual([
      { to: `usr_${accountUser.user_id}`, from: `usr_${other.user_id}`, time: expect.any(Number), acknowledged: true },
    ]);
    const v4 = await admin.get(`/api/v4/alerts/${alert.id}`);
    expect(v4.body.acknowledged_at).not.toBeNull();
    // The hand-off's page goes out through the escalation worker, just after the 200.
    const { queryItems, partitionOf } = await import('../../lib/store/items');
    const notifications = await eventually(
      () => queryItems(partitionOf(me.accountId, 'NTF')),
      (items) => items.some((n) => n.template === 'alert_handoff' && n.user_id === accountUser.user_id),
    );
    expect(notifications.some((n) => n.template === 'alert_handoff' && n.user_id === accountUser.user_id)).toBe(true);
    const entries = (await timeline(alert)).filter((e) => e.data.action === 'handoff');
    expect(entries[entries.length - 1].data).toMatchObject({ action: 'handoff', old_status: 'acknowledged', new_status: 'open' });
  });

  it('hands off to a team; from is the previous assignee, or the caller when there was none', async () => {
    // A team with someone on call, so its escalation keeps the alert open.
    const teamId = (await onCallTeam(admin, { layers: [[me.accountUserId]], timeouts: [60] })).id;
    const alert = await newAlert('open', { destination_account_user_ids: [], destination_team_ids: [teamId] });
    // Before routing there is no assignee: the caller is `from` (routing then keeps the handoff).
    const first = await admin.post(`/alert/${alert.prefix_id}/handoff`, { to: `tem_${teamId}` });
    expect(first.status, first.text).toBe(200);
    expect(first.body.d_team_id).toBe(`tem_${teamId}`);
    expect(first.body.d_user_id).toBeNull();
    expect(first.body.handoffs[0]).toMatchObject({ to: `tem_${teamId}`, acknowledged: false });
    const second = await admin.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${me.userId}` });
    expect(second.body.handoffs[1]).toMatchObject({ to: `usr_${me.userId}`, from: `tem_${teamId}` });
  });

  it('is allowed from open or acknowledged only, and needs a known usr_ or tem_ id (400)', async () => {
    for (const status of ALL_STATUSES) {
      const alert = await newAlert(status);
      const res = await admin.post(`/alert/${alert.prefix_id}/handoff`, { to: `usr_${me.userId}` });
      expect(res.status, status).toBe(status === 'open' || status === 'acknowledged' ? 200 : 409);
      if (res.status === 409) expect(res.body.errors[0].message).toContain(status);
    }
    const alert = await newAlert();
    expect((await admin.post(`/alert/${alert.prefix_id}/handoff`, {})).body.errors[0].message).toBe("to can't be blank");
    for (const to of ['rtr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'tem_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x']) {
      const res = await admin.post(`/alert/${alert.prefix_id}/handoff`, { to });
      expect(res.status, to).toBe(400);
      expect(res.body.errors[0].message).toMatch(/^to /);
    }
  });
});

describe('concurrency', () => {
  // moto has no isolation between concurrent conditional writes to one item (its check and its
  // write can interleave across request threads), so single-item races run on DynamoDB and dynalite.
  it.skipIf(Boolean(process.env.AWS_ENDPOINT_URL))('of 50 parallel acknowledges exactly one wins; the rest are 409', async () => {
    const alert = await newAlert();
    const results = await Promise.all(Array.from({ length: 50 }, () => admin.post(`/api/v4/alerts/${alert.id}/acknowledge`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const entries = await timeline(alert);
    expect(entries.filter((e) => e.data.action === 'acknowledged')).toHaveLength(1);
  });

  // moto applies concurrent conditional writes to one item without isolation (an acknowledge and a
  // resolve both conditioned on `open` can both apply, each reading `open`), so this race is only
  // meaningful on DynamoDB and dynalite; against moto the same orders run one after the other below.
  it.skipIf(Boolean(process.env.AWS_ENDPOINT_URL))(
    'parallel resolve and acknowledge never lose an update, and keep the counters exact',
    async () => {
      const alerts = await Promise.all(Array.from({ length: 15 }, (_, i) => newAlert('open', { title: `race ${i}` })));
      const before = await admin.get('/api/v4/alerts?status=resolved&limit=1');
      const outcomes = await Promise.all(
        alerts.map(async (alert, i) => {
          const [ack, resolve, edit] = await Promise.all([
            admin.post(`/api/v4/alerts/${alert.id}/acknowledge`),
            admin.post(`/api/v4/alerts/${alert.id}/resolve`),
            admin.put(`/api/v4/alerts/${alert.id}`, { description: `edited ${i}` }),
          ]);
          return { alert, ack: ack.status, resolve: resolve.status, edit: edit.status };
        }),
      );
      for (const { alert, ack, resolve, edit } of outcomes) {
        expect(resolve).toBe(200);
        expect([200, 409]).toContain(ack);
        expect(edit).toBe(200);
        const final = await admin.get(`/api/v4/alerts/${alert.id}`);
        expect(final.body.status).toBe('resolved');
        expect(final.body.description).toMatch(/^edited/);
        expect(final.body.resolved_at).not.toBeNull();
        if (ack === 200) expect(final.body.acknowledged_at).not.toBeNull();
        const actions = (await timeline(alert)).map((e) => e.data.action);
        expect(actions.filter((a) => a === 'resolved')).toHaveLength(1);
      }
      const after = await admin.get('/api/v4/alerts?status=resolved&limit=1');
      expect(after.body.total_count).toBe(before.body.total_count + 15);
      for (const status of ['open', 'acknowledged', 'resolved']) {
        const counted = await admin.get(`/api/v4/alerts?status=${status}&limit=1`);
        const real = await admin.get(`/api/v4/alerts?status=${status}&ops=status:beginsWith&limit=1`);
        expect(counted.body.total_count, status).toBe(real.body.total_count);
      }
    },
  );

  it('resolve after acknowledge applies; acknowledge after resolve is a conflict; edits survive both', { tags: ['moto'] }, async () => {
    const first = await newAlert();
    expect((await admin.post(`/api/v4/alerts/${first.id}/acknowledge`)).status).toBe(200);
    expect((await admin.put(`/api/v4/alerts/${first.id}`, { description: 'kept' })).status).toBe(200);
    const resolved = await admin.post(`/api/v4/alerts/${first.id}/resolve`);
    expect(resolved.body).toMatchObject({ status: 'resolved', description: 'kept' });
    expect(resolved.body.acknowledged_at).not.toBeNull();
    const second = await newAlert();
    expect((await admin.post(`/api/v4/alerts/${second.id}/resolve`)).status).toBe(200);
    const late = await admin.post(`/api/v4/alerts/${second.id}/acknowledge`);
    expect(late.status).toBe(409);
    expect(late.body.errors[0].message).toContain('resolved');
  });
});

describe('one store behind both interfaces', () => {
  it("an alert created on one interface is visible and actionable on the other, with that interface's rules", async () => {
    const created = await admin.post('/alert', { title: 'Earlier made', destination_ids: [`usr_${me.userId}`] });
    expect(created.status, created.text).toBe(201);
    const v4 = await admin.get(`/api/v4/alerts/${created.body.id}`);
    expect(v4.status).toBe(200);
    expect(v4.body).toMatchObject({ title: 'Earlier made', destination_account_user_ids: [me.accountUserId], source_id: me.accountUserId });
    // v4 may resolve an open alert; the earlier interface may not.
    expect((await admin.post(`/alert/${created.body.id}/resolve`)).status).toBe(409);
    expect((await admin.post(`/api/v4/alerts/${v4.body.id}/resolve`)).status).toBe(200);
    const archived = await admin.post(`/alert/${created.body.id}/archive`);
    expect(archived.body.status).toBe('archived');
    const list = await admin.get(`/api/v4/alerts?status=archived`);
    expect(list.body.data.some((a: { id: string }) => a.id === v4.body.id)).toBe(true);
  });
});
