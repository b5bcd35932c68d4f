// Helpers for the escalation tests over HTTP: people, a team whose schedule has people on call per
// layer (through the real teams, escalation policies and events endpoints), alerts, and reads of
// what was sent (the notifications API, and the memory outbox for the full text of a message).
import { expect } from 'vitest';
import { createMember, type ApiClient } from '../support/api-client';
import { itemKeyOf, type AwsCall } from '../support/aws-calls';
import { holdAwsCalls } from '../support/aws-gates';
import { outboxMessages } from '../support/dependencies';
import { settle } from '../support/quiescence';
import type { TestService } from '../support/runtime';

export interface Person {
  id: string;
  userId: string;
  name: string;
  email: string;
  client: ApiClient;
}

let counter = 0;

export async function person(
  admin: ApiClient,
  options: { sms?: boolean; voice?: boolean; push?: boolean; email?: boolean; name?: string } = {},
): Promise<Person> {
  counter += 1;
  const name = options.name ?? `Person ${counter}`;
  const email = `p${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { accountUser, client } = await createMember(admin, { name, email });
  if (options.sms || options.voice || options.push === false || options.email === false) {
    const res = await admin.put(`/api/v4/account_users/${accountUser.id}`, {
      user_attributes: {
        notify_sms: options.sms ?? false,
        notify_voice: options.voice ?? false,
        notify_push: options.push ?? true,
        notify_email: options.email ?? true,
        phones_attributes: options.sms || options.voice ? [{ phone: `+1415555${String(1000 + counter).slice(-4)}` }] : [],
      },
    });
    expect(res.status, res.text).toBe(200);
  }
  return { id: accountUser.id, userId: accountUser.user_id, name, email, client };
}

export interface TeamSetup {
  /** Account users on call per layer (layer 1 first); an empty list is a layer with nobody on call. */
  layers: string[][];
  /** Minutes per layer (default 5). */
  timeouts?: number[];
  repeat?: number;
  reassign_team_ids?: string[];
  reassign_account_user_ids?: string[];
  drop_notifications?: string;
  drop_notification_account_user_ids?: string[];
  handoff_notifications?: string;
  handoff_notification_account_user_ids?: string[];
  members?: string[];
  admins?: string[];
  /** A rotation on layer 1 instead of everyone at once. */
  rotation?: boolean;
}

export interface Team {
  id: string;
  scheduleId: string;
  policyId: string;
}

export async function team(admin: ApiClient, setup: TeamSetup): Promise<Team> {
  const everyone = [...new Set(setup.layers.flat())];
  const members = setup.members ?? (everyone.length ? everyone : undefined);
  const admins = setup.admins ?? (members ? [members[0]] : undefined);
  const created = await admin.post('/api/v4/teams', {
    name: `Team ${++counter}`,
    ...(members ? { member_account_user_ids: members } : {}),
    ...(admins ? { admin_account_user_ids: admins } : {}),
    drop_notifications: setup.drop_notifications ?? 'none',
    drop_notification_account_user_ids: setup.drop_notification_account_user_ids ?? [],
    handoff_notifications: setup.handoff_notifications ?? 'none',
    handoff_notification_account_user_ids: setup.handoff_notification_account_user_ids ?? [],
  });
  expect(created.status, created.text).toBe(201);
  const policy = await admin.put(`/api/v4/escalation_policies/${created.body.escalation_policy_id}`, {
    repeat: setup.repeat ?? 0,
    reassign_team_ids: setup.reassign_team_ids ?? [],
    reassign_account_user_ids: setup.reassign_account_user_ids ?? [],
    escalation_layers: setup.layers.map((_, index) => ({
      layer: index + 1,
      timeout: setup.timeouts?.[index] ?? 5,
      timeout_unit: 'minutes',
    })),
  });
  expect(policy.status, policy.text).toBe(200);
  for (const [index, people] of setup.layers.entries()) {
    if (people.length === 0) continue;
    const event = await admin.post('/api/v4/events', {
      schedule_ids: [created.body.schedule_id],
      account_user_ids: people,
      layer: index + 1,
      start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
      end_datetime: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      time_zone: 'UTC',
      ...(setup.rotation && index === 0 ? { rotation: true, repeat: true, frequency: 1, frequency_unit: 'daily' } : {}),
    });
    expect(event.status, event.text).toBe(201);
  }
  return { id: created.body.id, scheduleId: created.body.schedule_id, policyId: created.body.escalation_policy_id };
}

export async function alertTo(admin: ApiClient, destinations: { teams?: string[]; users?: string[] }, title = `Alert ${++counter}`) {
  const res = await admin.post('/api/v4/alerts', {
    title,
    urgency: 'high',
    destination_team_ids: destinations.teams ?? [],
    destination_account_user_ids: destinations.users ?? [],
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; prefix_id: string; tiny_id: number };
}

export interface Sent {
  id: string;
  account_user_id: string;
  alert_id: string | null;
  workflow_id: string | null;
  channel: string;
  template: string;
  status: string;
  /** The provider's word on it (accepted, delivered, failed, cancelled, waiting, unknown). */
  provider_status?: string | null;
  to: string;
  subject: string | null;
  message: string;
  created_at: string;
}

/** Every notification of the alert (v4 list, all pages), oldest first. */
export async function notificationsOf(admin: ApiClient, alertId: string): Promise<Sent[]> {
  const res = await admin.get(`/api/v4/notifications?alert_id=${alertId}&limit=100&sort=created_at`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Sent[];
}

/** The people paged for the alert with a template (one entry per person, in order). */
export function pagedPeople(sent: Sent[], template = 'alert_alert'): string[] {
  const people: string[] = [];
  for (const n of sent) if (n.template === template && !people.includes(n.account_user_id)) people.push(n.account_user_id);
  return people;
}

// A wait for something that must happen; on another endpoint (moto answers each DynamoDB call in
// ~10 ms of one core) the same chain of steps takes several times longer.
const WAIT_MS = process.env.AWS_ENDPOINT_URL ? 60_000 : 15_000;

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = WAIT_MS): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Waits until the alert's notifications satisfy `done`. */
export function sentFor(admin: ApiClient, alertId: string, done: (sent: Sent[]) => boolean, timeoutMs?: number): Promise<Sent[]> {
  return waitFor(() => notificationsOf(admin, alertId), done, timeoutMs);
}

/**
 * A person, a team of one layer of them (`timeouts` as team() takes them) and an alert to it, once
 * the person is paged and the service is at rest: the start of a test of one later step.
 */
export async function pagedAtRest(admin: ApiClient, service: TestService, timeouts?: number[]) {
  const a = await person(admin);
  const t = await team(admin, { layers: [[a.id]], timeouts });
  const alertId = (await alertTo(admin, { teams: [t.id] })).id;
  await sentFor(admin, alertId, (sent) => sent.length >= 1);
  await settle(service);
  return { a, t, alertId };
}

/** The full text of a message as it went out (memory outbox), the newest first match. */
export function delivered(match: (m: ReturnType<typeof outboxMessages>[number]) => boolean) {
  return [...outboxMessages()].reverse().find(match);
}

/**
 * The calls to AWS that mark the points of an escalation step, for test/support/aws-gates.ts to hold
 * or watch (keys as lib/escalation/store.ts, lib/alerts/keys.ts and lib/notify/store.ts write them),
 * of the account's alerts that `alertIs` picks: one alert, or those created after a ULID.
 */
export function escalationCalls(accountId: string, alertIs: (alertId: string) => boolean) {
  const escalationPrefix = `ESC#${accountId}#`;
  const ofEscalation = (call: AwsCall) => {
    const key = itemKeyOf(call);
    return key?.sk === 'STATE' && key.pk.startsWith(escalationPrefix) && alertIs(key.pk.slice(escalationPrefix.length));
  };
  return {
    /** A step's commit: the one conditional put of the state item (commitEscalation). */
    commit: (call: AwsCall) => call.operation === 'PutItem' && ofEscalation(call),
    /** An acknowledgement's stop request to the step that holds the lease (requestStop). */
    stopRequest: (call: AwsCall) =>
      call.operation === 'UpdateItem' && ofEscalation(call) && String(call.input.UpdateExpression).includes('stop_requested = :yes'),
    /** An acknowledgement's look at the state item and its paging lease (getEscalationForStop: a consistent BatchGetItem of the state). */
    leaseRead: (call: AwsCall) => {
      if (call.operation !== 'BatchGetItem') return false;
      const requests = Object.values((call.input.RequestItems ?? {}) as Record<string, { Keys?: Record<string, { S?: string }>[] }>);
      return requests.some((r) =>
        (r.Keys ?? []).some(
          (k) =>
            k.sk?.S === 'STATE' && (k.pk?.S ?? '').startsWith(escalationPrefix) && alertIs((k.pk?.S ?? '').slice(escalationPrefix.length)),
        ),
      );
    },
    /** The routing's versioned save of the alert (its decision: the put that first holds `routed_at`). */
    routingSave: (call: AwsCall) => {
      const key = itemKeyOf(call);
      const item = call.input.Item as Record<string, unknown> | undefined;
      return call.operation === 'PutItem' && key?.pk === `A#${accountId}#ALERT` && alertIs(key.sk) && item?.routed_at !== undefined;
    },
    /** The routing worker's read of its batch's alerts (prefetchAlerts: a GetItem for one, a BatchGetItem for more), its first call. */
    routingRead: (call: AwsCall) => {
      if (call.operation === 'GetItem') return itemKeyOf(call)?.pk === `A#${accountId}#ALERT` && alertIs(itemKeyOf(call)?.sk ?? '');
      if (call.operation !== 'BatchGetItem') return false;
      const requests = Object.values((call.input.RequestItems ?? {}) as Record<string, { Keys?: Record<string, { S?: string }>[] }>);
      return requests.some((r) => (r.Keys ?? []).some((k) => k.pk?.S === `A#${accountId}#ALERT` && alertIs(k.sk?.S ?? '')));
    },
    /**
     * A read of the alert record (getAlert): a step reads it beside the state (the routing's first
     * step goes by the alert the routing saved instead), and again before its first page.
     */
    alertRead: (call: AwsCall) => {
      const key = itemKeyOf(call);
      return call.operation === 'GetItem' && key?.pk === `A#${accountId}#ALERT` && alertIs(key.sk);
    },
    /** A page: its notification record, stored before the provider is called (lib/notify). */
    page: (call: AwsCall) => {
      const item = call.input.Item as Record<string, { S?: string }> | undefined;
      return call.operation === 'PutItem' && itemKeyOf(call)?.pk === `A#${accountId}#NTF` && alertIs(item?.alert_id?.S ?? '');
    },
  };
}

/**
 * An acknowledgement between a step's read of the alert and its commit: runs `step` with every
 * commit that `commit` picks held, acknowledges while the step's is, and once the acknowledgement's
 * own stop step has read the state item and holds its commit too (stop-escalation.ts records the
 * stop on the request path), lets the step's commit land first, then the stop's (which finds the
 * version moved, waits for the step's lease and looks again); the acknowledgement answers 200.
 */
export async function acknowledgedBeforeCommit(
  commit: (call: AwsCall) => boolean,
  step: () => Promise<unknown>,
  acknowledge: () => Promise<{ status: number; text: string }>,
): Promise<void> {
  const gate = holdAwsCalls(commit, 2);
  let running: Promise<unknown> | undefined;
  try {
    running = step();
    const held = await gate.next();
    const acknowledged = acknowledge();
    const stopCommit = await gate.next();
    await held.release();
    await stopCommit.release();
    const res = await acknowledged;
    expect(res.status, res.text).toBe(200);
  } finally {
    gate.open();
  }
  await running;
}
