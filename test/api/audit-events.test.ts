// The audit trail (contract §16, docs/api.md#audit-trail) through the real local server: changes on
// both interfaces recorded with their actor, source and changed fields (secrets redacted), sign-ins,
// API keys, the list's filters, who may read it, and a write whose event's own put never ran (the
// request dies between the object's write and its event's) settled by the sweeper.
// @moto: conditional puts of the event, the carried event cleared on its condition, the due index and the index queries of the filters.
// @module-tag moto
import { afterEach, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import type { AuditEventV4 } from '../../lib/audit-events/schemas';
import { ApiClient, createMember, type ApiResult } from '../support/api-client';
import { onServiceClients, callOf, itemKeyOf } from '../support/aws-calls';
import { testClock } from '../support/dependencies';
import { passTime } from '../support/quiescence';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signupAccount, useService, type TestService } from '../support/runtime';

let service: TestService;
let admin: ApiClient;
let adminKeyId: string;
let adminAccountUserId: string;
let accountId: string;

const AGENT = 'audit-test/1.0';

useService(async (started) => {
  service = started;
  admin = service.admin.with({ 'user-agent': AGENT });
  const keys = await admin.get('/api/v4/api_keys');
  adminKeyId = keys.body.data[0].id;
  adminAccountUserId = keys.body.data[0].account_user_id;
  accountId = keys.body.data[0].account_id;
});

afterEach(() => testClock.reset());

/** An event as the API answers it (changes' values are any JSON). */
type AuditEvent = Omit<z.output<typeof AuditEventV4>, 'changes'> & { changes: Record<string, [any, any]> };

async function eventsOf(objectId: string): Promise<AuditEvent[]> {
  const res = await admin.get(`/api/v4/audit_events?object_id=${objectId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as AuditEvent[];
}

function ok<T>(res: ApiResult<T>, status = 200): T {
  expect(res.status, res.text).toBe(status);
  return res.body;
}

async function newTeam(name: string) {
  return ok(
    await admin.post('/api/v4/teams', {
      name,
      member_account_user_ids: [adminAccountUserId],
      admin_account_user_ids: [adminAccountUserId],
    }),
    201,
  );
}

describe('changes through the v4 interface', () => {
  it('records a create, an update with only the changed fields, and a delete, by the API key, with its address and agent', async () => {
    const team = await newTeam('Audited platform');
    ok(await admin.put(`/api/v4/teams/${team.id}`, { name: 'Audited platform 2', notes: 'now with notes' }));
    expect((await admin.delete(`/api/v4/teams/${team.id}`)).status).toBe(204);

    const [deleted, updated, created] = await eventsOf(team.id);
    for (const event of [created, updated, deleted]) {
      expect(event).toMatchObject({
        actor_type: 'api_key',
        actor_id: adminKeyId,
        object_type: 'team',
        object_id: team.id,
        user_agent: AGENT,
      });
      expect(event.ip).toMatch(/127\.0\.0\.1|::1/);
    }
    expect(created.action).toBe('create');
    expect(created.changes.name).toEqual([null, 'Audited platform']);
    expect(created.changes.member_account_user_ids).toEqual([null, [adminAccountUserId]]);
    expect(updated.action).toBe('update');
    expect(Object.keys(updated.changes).sort()).toEqual(['name', 'notes']);
    expect(updated.changes.name).toEqual(['Audited platform', 'Audited platform 2']);
    expect(deleted.action).toBe('delete');
    expect(deleted.changes.name).toEqual(['Audited platform 2', null]);
    // Newest first, and each readable by its id.
    expect(deleted.id > updated.id && updated.id > created.id).toBe(true);
    expect(ok(await admin.get(`/api/v4/audit_events/${updated.id}`))).toEqual(updated);
  });

  it('records an account user made by a signed-in admin (a login token) as that account user, and its schedule and policy as made with the team', async () => {
    const login = ok(await service.anonymous.post('/public/login', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD }));
    const session = new ApiClient(service.url, { authorization: `Bearer ${login.token}` });
    const member = ok(
      await session.post('/api/v4/account_users', {
        user_attributes: { name: 'Audited member', emails_attributes: [{ email: 'audited-member@example.com' }] },
      }),
      201,
    );
    const [created] = await eventsOf(member.id);
    expect(created).toMatchObject({
      action: 'create',
      actor_type: 'account_user',
      actor_id: adminAccountUserId,
      object_type: 'account_user',
    });
    expect(created.changes.user[1]).toMatchObject({ name: 'Audited member' });

    // A change of the person is recorded as a change of the account user, field by field.
    ok(await session.put(`/api/v4/account_users/${member.id}`, { user_attributes: { name: 'Audited member, renamed' } }));
    const [renamed] = await eventsOf(member.id);
    expect(renamed).toMatchObject({ action: 'update', actor_type: 'account_user', actor_id: adminAccountUserId });
    expect(renamed.changes.name).toEqual(['Audited member', 'Audited member, renamed']);

    // A password change shows that the password changed, never the hashes.
    const own = ok(
      await session.post(`/api/v4/account_users/${adminAccountUserId}/password`, {
        current_password: ADMIN_PASSWORD,
        password: ADMIN_PASSWORD,
      }),
      204,
    );
    expect(own).toBeFalsy();
    const [changed] = await eventsOf(adminAccountUserId);
    expect(changed).toMatchObject({ action: 'update', object_type: 'account_user', actor_id: adminAccountUserId });
    expect(changed.changes.password_hash).toEqual(['[redacted]', '[redacted]']);

    const team = await newTeam('With a schedule');
    expect((await eventsOf(team.schedule_id))[0]).toMatchObject({ action: 'create', object_type: 'schedule', actor_id: adminKeyId });
    expect((await eventsOf(team.escalation_policy_id))[0]).toMatchObject({ action: 'create', object_type: 'escalation_policy' });
  });
});

describe('changes through the earlier interface', () => {
  it('records an integration made, changed and deleted, its token redacted wherever it sits', async () => {
    const team = await newTeam('Earlier destination');
    const integration = ok(
      await admin.post('/integration', {
        name: 'Legacy',
        type: 'prometheus',
        destination_ids: [`tem_${team.id}`],
        options: { token: 'the-bearer-secret' },
      }),
      201,
    );
    ok(await admin.put(`/integration/${integration.id}`, { name: 'Legacy renamed', options: { token: 'another-bearer-secret' } }));
    expect((await admin.delete(`/integration/${integration.id}`)).status).toBe(204);

    const id = integration.id.replace(/^int_/, '');
    const [deleted, updated, created] = await eventsOf(id);
    expect([created.action, updated.action, deleted.action]).toEqual(['create', 'update', 'delete']);
    expect(created.object_type).toBe('integration');
    expect(created.changes.options[1]).toMatchObject({ token: '[redacted]' });
    expect(updated.changes.name).toEqual(['Legacy', 'Legacy renamed']);
    const everything = JSON.stringify([created, updated, deleted]);
    expect(everything).not.toContain('bearer-secret');
  });
});

describe('API keys', () => {
  it('records a key made and revoked, never its token or its hash', async () => {
    const made = ok(await admin.post('/api/v4/api_keys', { name: 'audited key' }), 201);
    expect((await admin.delete(`/api/v4/api_keys/${made.id}`)).status).toBe(204);
    const [revoked, created] = await eventsOf(made.id);
    expect(created).toMatchObject({ action: 'create', object_type: 'api_key', actor_type: 'api_key', actor_id: adminKeyId });
    expect(created.changes.name).toEqual([null, 'audited key']);
    expect(created.changes.token_hash).toEqual([null, '[redacted]']);
    expect(revoked).toMatchObject({ action: 'delete', object_type: 'api_key' });
    expect(JSON.stringify([created, revoked])).not.toContain(made.token);
  });

  it('keeps a long value as its beginning and its length, so the change still fits the object it rides on', async () => {
    const name = 'y'.repeat(200 * 1024);
    const made = ok(await admin.post('/api/v4/api_keys', { name }), 201);
    const [created] = await eventsOf(made.id);
    const kept = created.changes.name[1] as string;
    expect(kept.startsWith('y'.repeat(1_000))).toBe(true);
    expect(kept).toBe(`${'y'.repeat(1_000)}… [${name.length} characters]`);
    expect(ok(await admin.get(`/api/v4/api_keys/${made.id}`)).name).toBe(name);
  });
});

describe('sign-ins', () => {
  it('records a password sign-in and a failed one in the account, and nothing for an unknown address', async () => {
    const before = ok(await admin.get('/api/v4/audit_events?limit=1')).total_count as number;
    const agent = { 'user-agent': 'a-browser/2.0' };
    ok(await service.anonymous.post('/public/login', { username: ADMIN_EMAIL, password: ADMIN_PASSWORD }, agent));
    expect((await service.anonymous.post('/public/login', { username: ADMIN_EMAIL, password: 'not the password' }, agent)).status).toBe(
      401,
    );
    expect(
      (await service.anonymous.post('/public/login', { username: 'nobody-here@example.com', password: 'whatever it is' }, agent)).status,
    ).toBe(401);

    const page = ok(await admin.get(`/api/v4/audit_events?object_id=${adminAccountUserId}&ops=action:beginsWith&action=sign_in&limit=2`));
    const [failed, signedIn] = page.data as AuditEvent[];
    expect(signedIn).toMatchObject({
      action: 'sign_in',
      actor_type: 'account_user',
      actor_id: adminAccountUserId,
      object_type: 'account_user',
      changes: { method: [null, 'password'] },
      user_agent: 'a-browser/2.0',
    });
    expect(failed).toMatchObject({
      action: 'sign_in_failed',
      actor_type: 'system',
      actor_id: null,
      object_id: adminAccountUserId,
      changes: { method: [null, 'password'], reason: [null, 'wrong password'] },
    });
    expect(JSON.stringify(page.data)).not.toContain('not the password');
    // The two events of this account; the unknown address made none here.
    expect(ok(await admin.get('/api/v4/audit_events?limit=1')).total_count).toBe(before + 2);
  });
});

describe('the list', () => {
  it('filters by actor, object type, object, action and created_at ranges, newest first, paged', async () => {
    const { client: other, accountUser } = await createMember(admin, { roles: { admin: true } });
    const otherKey = ok(await other.get('/api/v4/api_keys')).data[0].id as string;
    testClock.advance(60_000);
    const start = new Date(testClock.now()).toISOString();
    const layers = [{ layer: 1, timeout: 5, timeout_unit: 'minutes' }];
    const first = ok(await other.post('/api/v4/escalation_policies', { name: 'first policy', escalation_layers: layers }), 201);
    testClock.advance(60_000);
    const middle = new Date(testClock.now()).toISOString();
    const second = ok(await other.post('/api/v4/escalation_policies', { name: 'second policy', escalation_layers: layers }), 201);
    ok(await other.put(`/api/v4/escalation_policies/${second.id}`, { name: 'second policy, renamed' }));

    const byActor = ok(await admin.get(`/api/v4/audit_events?actor_id=${otherKey}`));
    expect(byActor.total_count).toBe(3);
    expect(byActor.data.map((e: AuditEvent) => [e.action, e.object_id])).toEqual([
      ['update', second.id],
      ['create', second.id],
      ['create', first.id],
    ]);
    const paged = ok(await admin.get(`/api/v4/audit_events?actor_id=${otherKey}&limit=1&offset=1`));
    expect(paged).toMatchObject({ has_more: true, total_count: 3 });
    expect(paged.data[0].object_id).toBe(second.id);

    const since = ok(
      await admin.get(`/api/v4/audit_events?actor_id=${otherKey}&ops=created_at:gte&created_at=${encodeURIComponent(middle)}`),
    );
    expect(since.data.map((e: AuditEvent) => e.object_id)).toEqual([second.id, second.id]);
    const before = ok(
      await admin.get(
        `/api/v4/audit_events?object_type=escalation_policy&ops=created_at:lt&created_at=${encodeURIComponent(middle)}&limit=100`,
      ),
    );
    expect(before.data.map((e: AuditEvent) => e.object_id)).toContain(first.id);
    expect(before.data.map((e: AuditEvent) => e.object_id)).not.toContain(second.id);
    const between = ok(
      await admin.get(
        `/api/v4/audit_events?ops=created_at:between&created_at=${encodeURIComponent(start)}..${encodeURIComponent(middle)}&object_id=${first.id}`,
      ),
    );
    expect(between.data.map((e: AuditEvent) => e.action)).toEqual(['create']);
    // Written backwards: no event is in it (the table would refuse the key range).
    const backwards = ok(
      await admin.get(
        `/api/v4/audit_events?ops=created_at:between&created_at=${encodeURIComponent(middle)}..${encodeURIComponent(start)}&object_id=${first.id}`,
      ),
    );
    expect(backwards).toMatchObject({ data: [], total_count: 0 });

    const updates = ok(await admin.get(`/api/v4/audit_events?action=update&object_type=escalation_policy&limit=100`));
    expect(updates.data.every((e: AuditEvent) => e.action === 'update' && e.object_type === 'escalation_policy')).toBe(true);
    expect(updates.data.map((e: AuditEvent) => e.object_id)).toContain(second.id);
    const byAction = ok(await admin.get(`/api/v4/audit_events?action=update&limit=100`));
    expect(byAction.data.every((e: AuditEvent) => e.action === 'update')).toBe(true);
    expect(byAction.total_count).toBeGreaterThanOrEqual(1);
    expect(accountUser.id).toBeTruthy();

    const typo = await admin.get('/api/v4/audit_events?actor=me');
    expect(typo.status).toBe(422);
    expect(typo.text).toMatch(/actor/);
  });

  it('is for admins only, shows no other account, and no route changes or deletes an event', async () => {
    const { client: member } = await createMember(admin);
    expect((await member.get('/api/v4/audit_events')).status).toBe(403);
    const team = await newTeam('Kept');
    const [event] = await eventsOf(team.id);
    expect((await member.get(`/api/v4/audit_events/${event.id}`)).status).toBe(403);

    const other = await signupAccount(service, 'Elsewhere');
    const theirs = ok(await other.client.get('/api/v4/audit_events?limit=100'));
    expect(theirs.data.some((e: AuditEvent) => e.object_id === team.id)).toBe(false);
    expect((await other.client.get(`/api/v4/audit_events/${event.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/v4/audit_events?object_id=${team.id}`)).body.total_count).toBe(0);

    for (const res of [
      await admin.put(`/api/v4/audit_events/${event.id}`, { action: 'delete' }),
      await admin.delete(`/api/v4/audit_events/${event.id}`),
      await admin.post('/api/v4/audit_events', { action: 'create', object_type: 'team' }),
      await admin.request('PATCH', `/api/v4/audit_events/${event.id}`, { action: 'delete' }),
    ]) {
      expect([404, 405]).toContain(res.status);
    }
    expect(ok(await admin.get(`/api/v4/audit_events/${event.id}`))).toEqual(event);
    expect(accountId).toBeTruthy();
  });
});

describe('a write whose event the request never finished', () => {
  /** Fails every put of an event's own item (the request dies there, after the object's write), until removed. */
  function dieAtTheEventsPut(): () => void {
    return onServiceClients('dieAtTheEventsPut', (service) => (next, context) => async (args) => {
      const call = callOf(service, context, args.input);
      const key = itemKeyOf(call);
      if (call.operation === 'PutItem' && key?.pk.endsWith('#AUDIT'))
        throw Object.assign(new Error('injected: the process died'), { name: 'ProcessDied' });
      return next(args);
    });
  }

  it('is settled by the sweeper: the create carried its event, the delete wrote it before', async () => {
    const stop = dieAtTheEventsPut();
    let teamId: string;
    try {
      const res = await admin.post('/api/v4/escalation_policies', {
        name: 'Crashed policy',
        escalation_layers: [{ layer: 1, timeout: 5, timeout_unit: 'minutes' }],
      });
      expect(res.status).toBe(500);
      const policies = ok(await admin.get('/api/v4/escalation_policies?name=Crashed%20policy'));
      expect(policies.data).toHaveLength(1);
      teamId = policies.data[0].id;
    } finally {
      stop();
    }
    // The write happened, its event is not yet in the trail.
    expect(await eventsOf(teamId)).toEqual([]);
    await passTime(service, 61_000);
    const [created] = await eventsOf(teamId);
    expect(created).toMatchObject({
      action: 'create',
      object_type: 'escalation_policy',
      actor_type: 'api_key',
      actor_id: adminKeyId,
      user_agent: AGENT,
    });
    expect(created.changes.name).toEqual([null, 'Crashed policy']);

    const stopAgain = dieAtTheEventsPut();
    try {
      expect((await admin.delete(`/api/v4/escalation_policies/${teamId}`)).status).toBe(500);
    } finally {
      stopAgain();
    }
    expect((await admin.get(`/api/v4/escalation_policies/${teamId}`)).status).toBe(404);
    expect((await eventsOf(teamId)).map((e) => e.action)).toEqual(['create']);
    await passTime(service, 61_000);
    const [deleted] = await eventsOf(teamId);
    expect(deleted).toMatchObject({ action: 'delete', actor_id: adminKeyId });
    expect(deleted.changes.name).toEqual(['Crashed policy', null]);
    // Settled once: another sweep finds nothing more.
    await passTime(service, 61_000);
    expect((await eventsOf(teamId)).map((e) => e.action)).toEqual(['delete', 'create']);
  });
});
