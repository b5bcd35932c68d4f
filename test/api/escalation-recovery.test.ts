// Escalation timers that go wrong, through the real local server and the service's clock: a timer
// lost with its queue is re-driven by the sweeper, a timer delivered twice (or run by the sweeper
// and its message) pages once, a step that crashed after its commit is finished by whoever finds it
// (a message caught mid-call is recorded as an unknown outcome, never sent twice), and delayed starts
// (the routing seam's delay_ms) wait their time.
// @moto: leases, versioned commits and the due index.
// Tests that stage a crashed worker's commit hold the runtime's escalation worker while they do
// (on a slow store it could otherwise take the due step first, between the staging's read and its
// commit); tests of an acknowledgement racing a step wait on its calls, not on the runtime at rest
// (on moto a settle can outlast the API's own timeout, whose 503 would be an answer).
import { describe, expect, it, onTestFinished } from 'vitest';
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
  type Person,
} from '../escalation/support';
import { awsCallAnswered, holdAwsCalls } from '../support/aws-gates';
import { sendEffects } from '../../lib/escalation/send-effects';
import { now, timeScale } from '../../lib/clock';
import { getAlert } from '../../lib/alerts/store';
import { advanceWithLoader, dueTimeouts, type EscalationEffect, type PageEffect } from '../../lib/escalation/engine';
import { notificationIdOf, type SendEffects } from '../../lib/escalation/effects';
import { StepInputs } from '../../lib/escalation/inputs';
import { runStep } from '../../lib/escalation/run-step';
import { startEscalation } from '../../lib/escalation/start-escalation';
import { commitEscalation, extendLease, getEscalation, releaseEscalation, takeOverEscalation } from '../../lib/escalation/store';
import { pageWorkflow } from '../../lib/escalation/reject-workflows';
import { insertNotification, getNotification } from '../../lib/notify/store';
import { SWEEP_GRACE_MS, sweepEscalations } from '../../lib/escalation/sweep';
import { testClock } from '../support/dependencies';
import { passTime, runDueSweeps, settle } from '../support/quiescence';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

const MINUTE = 60_000;

/**
 * The runtime's escalation worker runs nothing it receives from now until the returned release: a
 * test stages what a crashed worker left (a commit, a message in the provider's hands) without the
 * running worker taking the due step first (on a slow store it otherwise can, between the staging's
 * read and its commit). A batch already running is waited for.
 */
async function holdEscalationWorker(): Promise<() => void> {
  const poller = service.runtime.pollers.find((p) => p.functionName === 'escalationWorker');
  if (!poller) throw new Error('the runtime has no escalation worker');
  const release = poller.hold();
  onTestFinished(release); // a failed staging leaves no held worker to the next test
  await waitFor(
    async () => poller.busy,
    (busy) => busy === 0,
  );
  return release;
}

/** A one-layer team paged by a new alert: its push and e-mail sent, and the escalation at rest (no lease held). */
async function pagedOneLayer() {
  const a = await person(admin);
  const t = await team(admin, { layers: [[a.id]], timeouts: [10] });
  const alert = await alertTo(admin, { teams: [t.id] });
  await sentFor(admin, alert.id, (s) => s.length === 2 && s.every((n) => n.status === 'sent'));
  const escalation = await waitFor(
    () => getEscalation(accountId, alert.id),
    (e) => e.leaseOwner === null,
  );
  return { a, t, alert, escalation };
}

/**
 * What a worker did before dying: the alert's due layer timeouts advanced and committed with their
 * outbox and a lease, then nothing (the lease has run out since). Returns the step's time and effects.
 */
async function crashAfterCommit(alertId: string, teamId: string): Promise<{ at: number; effects: EscalationEffect[] }> {
  const stored = await waitFor(
    () => getEscalation(accountId, alertId),
    (e) => e.leaseOwner === null,
  );
  const at = now() - 500;
  const inputs = new StepInputs(accountId, (await getAlert(accountId, alertId))!, at, timeScale());
  await inputs.loadTeams([teamId]);
  let state = stored.state!;
  const effects: EscalationEffect[] = [];
  for (const event of dueTimeouts(state, at)) {
    const result = await advanceWithLoader(state, event, inputs.inputs(), (ids) => inputs.loadTeams(ids));
    state = result.state;
    effects.push(...result.effects);
  }
  const committed = await commitEscalation(
    accountId,
    alertId,
    stored.version,
    { state, deferred: [], outbox: effects, lease: { owner: 'crashed-worker', until: at + 100 }, dueAt: at + 200 },
    'crashed-worker',
    at,
  );
  expect(committed).not.toBeNull();
  return { at, effects };
}

describe('timers that go wrong', () => {
  it('a lost timer is re-driven by the sweeper; its late message then changes nothing', { tags: ['moto'] }, async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [10, 10] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length === 1 && s.length === 2 && s.every((n) => n.status === 'sent'));
    const stored = await getEscalation(accountId, alert.id);
    expect(stored.dueAt).not.toBeNull();
    // Ten minutes pass, but the queue's delayed message is still ten real minutes away (as good as lost).
    testClock.advance(10 * MINUTE + 5_000);
    await service.runtime.runScheduled('sweeper');
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(b.id));
    expect(pagedPeople(sent)).toEqual([a.id, b.id]);
    // The state moved on: running what is due again, or the old timer arriving, pages nobody.
    await runStep(accountId, alert.id, { kind: 'due' });
    await service.runtime.runScheduled('sweeper');
    expect((await notificationsOf(admin, alert.id)).length).toBe(sent.length);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  // moto has no isolation between concurrent conditional writes to one item (see alerts-transitions):
  // this race runs on DynamoDB and dynalite.
  it.skipIf(Boolean(process.env.AWS_ENDPOINT_URL))('the same due step delivered several times at once pages each layer once', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [10, 10] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length === 1 && s.length === 2 && s.every((n) => n.status === 'sent'));
    testClock.advance(10 * MINUTE + 1_000);
    await Promise.all(Array.from({ length: 6 }, () => runStep(accountId, alert.id, { kind: 'due' })));
    const sent = await notificationsOf(admin, alert.id);
    expect(sent.filter((n) => n.account_user_id === b.id)).toHaveLength(2); // push and e-mail, once each
    expect(new Set(sent.filter((n) => n.account_user_id === b.id).map((n) => n.workflow_id)).size).toBe(1);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it(
    'a step that crashed after its commit is finished by the sweeper: each page once, a message caught mid-call never resent',
    { tags: ['moto'] },
    async () => {
      const [a, b] = [await person(admin), await person(admin)];
      const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [10, 10] });
      const alert = await alertTo(admin, { teams: [t.id] });
      await sentFor(admin, alert.id, (s) => pagedPeople(s).length === 1 && s.length === 2 && s.every((n) => n.status === 'sent'));
      const releaseWorker = await holdEscalationWorker();
      testClock.advance(10 * MINUTE + 1_000);

      // What a worker did before dying: layer 1's timeout advanced and committed with its outbox and a
      // lease, then nothing (its lease has run out since). One e-mail was already in the provider's hands.
      const { at, effects } = await crashAfterCommit(alert.id, t.id);
      const page = effects.find((e): e is PageEffect => e.type === 'page' && e.accountUserId === b.id)!;
      expect(page).toBeDefined();
      const iso = new Date(at).toISOString();
      await insertNotification({
        id: notificationIdOf(page, 'email'),
        account_id: accountId,
        account_user_id: b.id,
        user_id: b.userId,
        alert_id: alert.id,
        broadcast_id: null,
        workflow_id: page.workflowId,
        group_id: null,
        channel: 'email',
        provider: null,
        provider_message_id: null,
        provider_status: null,
        template: 'alert_alert',
        to: b.email,
        from: 'oncall',
        subject: 'crashed mid-call',
        message: 'crashed mid-call',
        status: 'sending',
        err: [],
        cost: 0,
        sent_at: null,
        delivered_at: null,
        source_key: page.key,
        created_at: iso,
        updated_at: iso,
        version: 2,
      });
      releaseWorker();

      // The sweeper finds the leftover once its lease (and a grace) has passed.
      testClock.advance(5_000);
      await service.runtime.runScheduled('sweeper');
      // The e-mail's outcome is unknown, so it counts as failed: the page fails over to the next
      // channel the person may receive, once: Slack (found by e-mail), which fails here (no workspace is
      // connected), and then no channel is left.
      const sent = await sentFor(admin, alert.id, (s) => s.filter((n) => n.account_user_id === b.id && n.status !== 'queued').length === 3);
      const toB = sent.filter((n) => n.account_user_id === b.id);
      expect(toB.map((n) => [n.channel, n.status]).sort()).toEqual([
        ['email', 'failed'],
        ['push', 'sent'],
        ['slack', 'failed'],
      ]);
      const unknown = await getNotification(accountId, notificationIdOf(page, 'email'));
      expect(unknown).toMatchObject({ status: 'failed', provider_status: 'unknown' });
      // The last failover's record is written before its step clears the outbox: wait for the step's release.
      await waitFor(
        () => getEscalation(accountId, alert.id),
        (e) => e.outbox.length === 0 && e.leaseOwner === null,
      );
      // Nothing more on another sweep.
      await runDueSweeps(service);
      expect(await notificationsOf(admin, alert.id)).toHaveLength(sent.length);
      await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    },
  );

  /** A worker that dies in its step's fan-out, after the commit: nothing is sent, the lease and outbox stay. */
  const dyingWorker: SendEffects = () => Promise.reject(new Error('the worker died during its fan-out'));

  /** A person paged alone (their 5-minute timeout due) and a team of one more person to start now. */
  async function pagedAloneThenTeam() {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[b.id]], timeouts: [10] });
    const alert = await alertTo(admin, { users: [a.id] });
    await sentFor(admin, alert.id, (s) => s.length === 2 && s.every((n) => n.status === 'sent'));
    const before = await waitFor(
      () => getEscalation(accountId, alert.id),
      (e) => e.leaseOwner === null,
    );
    expect(before.dueAt).toBeGreaterThan(now() + MINUTE);
    const start = { kind: 'start' as const, key: 'router:dies', targets: [{ type: 'team' as const, id: t.id }] };
    /** Starts the team by a step that dies after its commit (held from the runtime's worker meanwhile). */
    const startDying = async (retriedByQueue?: boolean) => {
      const releaseWorker = await holdEscalationWorker();
      await expect(runStep(accountId, alert.id, start, { send: dyingWorker, retriedByQueue })).rejects.toThrow('died');
      releaseWorker();
    };
    /** The channels the team's person was sent on. */
    const channelsOfB = async () =>
      (await notificationsOf(admin, alert.id))
        .filter((n) => n.account_user_id === b.id)
        .map((n) => n.channel)
        .sort();
    return { b, alert, before, start, startDying, channelsOfB };
  }

  it(
    "a worker's step that dies after its commit leaves the due index as it was: its message, delivered again, pages once",
    { tags: ['moto'] },
    async () => {
      const { alert, before, start, startDying, channelsOfB } = await pagedAloneThenTeam();
      await startDying(true);
      const left = await getEscalation(accountId, alert.id);
      expect(left.outbox.some((e) => e.type === 'page')).toBe(true);
      expect(left.leaseOwner).not.toBeNull();
      // No move to a leftover time and back: the person's timeout stays the due time.
      expect(left.dueAt).toBe(before.dueAt);
      expect(await channelsOfB()).toEqual([]);

      // The message comes again once its visibility timeout has passed (the lease with it).
      testClock.advance(30_000);
      await runStep(accountId, alert.id, start, { send: sendEffects, retriedByQueue: true });
      await runStep(accountId, alert.id, start, { send: sendEffects, retriedByQueue: true });
      expect(await channelsOfB()).toEqual(['email', 'push']);
      const after = await getEscalation(accountId, alert.id);
      expect(after.outbox).toEqual([]);
      expect(after.leaseOwner).toBeNull();
      await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    },
  );

  it("at the local runtime's start-up, whose queue lost the message that would bring a dead step back, its outbox runs at once", async () => {
    const { alert, before, startDying, channelsOfB } = await pagedAloneThenTeam();
    await startDying(true);
    testClock.advance(10_000);
    const swept = await sweepEscalations({ startup: true });
    expect(swept.rearmed).toBeGreaterThan(0);
    expect(await channelsOfB()).toEqual(['email', 'push']);
    expect(await getEscalation(accountId, alert.id)).toMatchObject({ outbox: [], leaseOwner: null, dueAt: before.dueAt });
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('a step no message brings back (a request, the sweeper) that dies after its commit is due for the sweeper once its lease has passed', async () => {
    const { b, alert, startDying } = await pagedAloneThenTeam();
    await startDying();
    const left = await getEscalation(accountId, alert.id);
    expect(left.outbox.length).toBeGreaterThan(0);
    expect(left.dueAt).toBe(left.leaseUntil! + 1_000);

    testClock.advance(left.dueAt! - now() + SWEEP_GRACE_MS + 1);
    await service.runtime.runScheduled('sweeper');
    const sent = await sentFor(admin, alert.id, (s) => s.filter((n) => n.account_user_id === b.id).length === 2);
    expect(sent.filter((n) => n.account_user_id === b.id).every((n) => n.status === 'sent')).toBe(true);
    await runDueSweeps(service);
    expect(await notificationsOf(admin, alert.id)).toHaveLength(sent.length);
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });

  it('an acknowledgement that finds a crashed step cancels its queued pages instead of sending them', { tags: ['moto'] }, async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [10, 10] });
    const alert = await alertTo(admin, { teams: [t.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length === 1 && s.length === 2 && s.every((n) => n.status === 'sent'));
    const releaseWorker = await holdEscalationWorker();
    testClock.advance(10 * MINUTE + 1_000);
    await crashAfterCommit(alert.id, t.id);
    const ack = await a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`);
    expect(ack.status).toBe(200);
    releaseWorker();
    // Past the crashed step's lease and the sweeper's grace: its leftover would have been run by now.
    await passTime(service, SWEEP_GRACE_MS);
    const sent = await notificationsOf(admin, alert.id);
    expect(sent.filter((n) => n.account_user_id === b.id && n.status === 'sent')).toEqual([]);
    const after = await getEscalation(accountId, alert.id);
    expect(after.state?.outcome).toBe('acknowledged');
    expect(after.outbox).toEqual([]);
  });
});

describe('acknowledge racing a step (no page after its 200)', () => {
  it(
    'waits for a step that holds the paging lease, which it can no longer extend, and answers only after its release',
    { tags: ['moto'] },
    async () => {
      const { a, alert, escalation: stored } = await pagedOneLayer();
      // A step is paging: it holds the lease for the next two seconds of the service's clock, which
      // stands still from here, so the lease cannot run out however long the machine takes.
      testClock.freeze();
      const until = now() + 2_000;
      const version = await takeOverEscalation(accountId, alert.id, stored.version, 'paging-step', until, now());
      expect(version).not.toBeNull();
      expect(await extendLease(accountId, alert.id, version!, 'paging-step', until)).toBe(true);

      const calls = escalationCalls(accountId, (id) => id === alert.id);
      let answeredAt = 0;
      const ack = a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`).then((res) => {
        answeredAt = Date.now();
        return res;
      });
      // Once the acknowledgement has seen the lease, the step may not extend it any more.
      await waitFor(
        () => extendLease(accountId, alert.id, version!, 'paging-step', until),
        (extended) => !extended,
      );
      // The acknowledgement looks at the lease again twice (the first look's answer did not end its
      // wait) and has still not answered. No settle of the whole runtime here: on a slow store that
      // outlasts the API's own timeout, whose 503 would be an answer.
      for (let look = 0; look < 2; look++) await Promise.race([awsCallAnswered(calls.leaseRead), ack]);
      expect(answeredAt).toBe(0);
      const releasedAt = Date.now();
      expect(await releaseEscalation(accountId, alert.id, version!, 'paging-step', null)).toBe(true);
      const res = await ack;
      expect(res.status, res.text).toBe(200);
      expect(answeredAt).toBeGreaterThanOrEqual(releasedAt);
      // The stop is recorded after the answer: the workflow closes acknowledged.
      await waitFor(
        () => getEscalation(accountId, alert.id),
        (e) => e.state?.outcome === 'acknowledged',
      );
      const workflowId = (await notificationsOf(admin, alert.id))[0].workflow_id!;
      expect(await pageWorkflow(accountId, alert.id, workflowId)).toBeNull();
      expect(await notificationsOf(admin, alert.id)).toHaveLength(2);
    },
  );

  // A due step and an acknowledgement at the same moment, in the two orders that matter: the test
  // holds the step at one point (its call to AWS there: test/support/aws-gates.ts) while the
  // acknowledgement comes, instead of starting the two a few milliseconds apart and hoping.
  describe('a due step running at the moment of the acknowledgement pages nobody after its 200', () => {
    /** Layer 1 paged and at rest, and layer 2 due by the service's clock (the step below pages it unless the acknowledgement comes first). */
    async function layerTwoDue() {
      const [a, b] = [await person(admin), await person(admin)];
      const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [10, 10] });
      const alert = await alertTo(admin, { teams: [t.id] });
      await sentFor(admin, alert.id, (s) => s.length === 2 && s.every((n) => n.status === 'sent'));
      await waitFor(
        () => getEscalation(accountId, alert.id),
        (e) => e.leaseOwner === null,
      );
      // The team's snapshot (lib/escalation/inputs.ts) is too old by then: the step reads it again.
      // The clock stands still from here: the step's lease cannot run out while the test holds it.
      testClock.advance(10 * MINUTE + 1_000);
      testClock.freeze();
      return { a, alert, calls: escalationCalls(accountId, (id) => id === alert.id) };
    }

    /** The step as the escalation worker runs it. */
    const dueStep = (alertId: string) => runStep(accountId, alertId, { kind: 'due' }, { send: sendEffects });

    async function nobodyPagedAfter(alert: { id: string }, a: Person) {
      await settle(service);
      expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([a.id]);
      await waitFor(
        () => getEscalation(accountId, alert.id),
        (e) => e.state?.outcome === 'acknowledged' && e.leaseOwner === null,
      );
      for (const id of new Set((await notificationsOf(admin, alert.id)).map((n) => n.workflow_id!)))
        expect((await pageWorkflow(accountId, alert.id, id))?.status).not.toBe('open');
    }

    it(
      'the step commits after the acknowledgement read its lease: its second look at the alert keeps it from paging',
      { tags: ['moto'] },
      async () => {
        const { a, alert, calls } = await layerTwoDue();
        await acknowledgedBeforeCommit(
          calls.commit,
          () => dueStep(alert.id),
          () => a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`),
        );
        await nobodyPagedAfter(alert, a);
      },
    );

    it(
      'the step commits before the acknowledgement reads its lease: the acknowledgement waits while the step looks at the alert again',
      { tags: ['moto'] },
      async () => {
        const { a, alert, calls } = await layerTwoDue();
        // The step's second look at the alert, after its commit, waits until the acknowledgement has
        // written the alert and asked the step (its lease holder) to stop.
        let committed = false;
        const gate = holdAwsCalls((call) => {
          if (calls.commit(call)) committed = true;
          return committed && calls.alertRead(call);
        }, 1);
        const stopRequested = awsCallAnswered(calls.stopRequest);
        let step: Promise<unknown> | undefined;
        try {
          step = dueStep(alert.id);
          const look = await gate.next();
          const acknowledged = a.client.post(`/api/v4/alerts/${alert.id}/acknowledge`);
          await stopRequested;
          await look.release();
          const res = await acknowledged;
          expect(res.status, res.text).toBe(200);
        } finally {
          gate.open();
        }
        await step;
        await nobodyPagedAfter(alert, a);
      },
    );
  });
});

describe('a deleted alert', () => {
  it('stops escalating: its timer pages nobody, and its escalation state goes', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], timeouts: [10, 10] });
    const alert = await alertTo(admin, { teams: [t.id] });
    const paged = await sentFor(
      admin,
      alert.id,
      (s) => pagedPeople(s).length === 1 && s.length === 2 && s.every((n) => n.status === 'sent'),
    );
    expect((await admin.delete(`/api/v4/alerts/${alert.id}`)).status).toBe(204);
    await passTime(service, 10 * MINUTE + SWEEP_GRACE_MS);
    expect(await notificationsOf(admin, alert.id)).toHaveLength(paged.length);
    expect((await getEscalation(accountId, alert.id)).version).toBe(0);
  });
});

describe('delayed starts (the routing seam)', () => {
  it(
    'a routing message delivered again starts nothing and writes nothing: the escalation keeps its version',
    { tags: ['moto'] },
    async () => {
      const { t, alert, escalation: before } = await pagedOneLayer();
      // What the routing worker does with a redelivered message (assignments-decided.ts): the same key and targets.
      const result = await startEscalation({
        accountId,
        alertId: alert.id,
        key: `route:${alert.id}`,
        targets: [{ type: 'team', id: t.id }],
      });
      expect(result?.changed).toBe(false);
      expect((await getEscalation(accountId, alert.id)).version).toBe(before.version);
      expect(await notificationsOf(admin, alert.id)).toHaveLength(2);
      await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
    },
  );

  it('startEscalation runs targets without delay at once and a delayed one after its delay (÷ TIME_SCALE), once', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[b.id]], timeouts: [60] });
    const alert = await alertTo(admin, { users: [a.id] });
    await sentFor(admin, alert.id, (s) => pagedPeople(s).length === 1);
    const start = {
      accountId,
      alertId: alert.id,
      key: 'router:test',
      targets: [{ type: 'team' as const, id: t.id, delay_ms: 3 * MINUTE }],
    };
    await startEscalation(start);
    await startEscalation(start); // a redelivered routing message
    const stored = await getEscalation(accountId, alert.id);
    expect(stored.deferred).toHaveLength(1);
    expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([a.id]);
    testClock.advance(3 * MINUTE + 5_000);
    await service.runtime.runScheduled('sweeper');
    const sent = await sentFor(admin, alert.id, (s) => pagedPeople(s).includes(b.id));
    expect(pagedPeople(sent)).toEqual([a.id, b.id]);
    await startEscalation(start);
    await runDueSweeps(service);
    expect(pagedPeople(await notificationsOf(admin, alert.id))).toEqual([a.id, b.id]);
    expect((await getEscalation(accountId, alert.id)).deferred).toEqual([]);
    await waitFor(
      () => notificationsOf(admin, alert.id),
      (s) => s.every((n) => n.status !== 'queued'),
    );
    await admin.post(`/api/v4/alerts/${alert.id}/resolve`);
  });
});
