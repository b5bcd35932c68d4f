import { describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { signupAccount, startService, useService, type TestService } from '../support/runtime';

let service: TestService;
let accountId: string;

useService(async (started) => {
  service = started;
  accountId = service.runtime.created!.account.id;
});

describe('the account (earlier interface)', () => {
  it('reads the caller’s own account by ULID or acc_ id', async () => {
    for (const id of [accountId, `acc_${accountId}`]) {
      const res = await service.admin.get(`/account/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: `acc_${accountId}`, sid: `acc_${accountId}`, name: 'My Account' });
      expect(res.body.createdAt).toMatch(/Z$/);
    }
  });

  it('updates name, meta and notification templates as an admin', async () => {
    const res = await service.admin.put(`/account/acc_${accountId}`, {
      name: 'Renamed',
      meta: { color: 'red' },
      notification_templates: { alert_alert: { sms: { message: '{{title}}' } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', meta: { color: 'red' } });
    expect((await service.admin.get(`/account/${accountId}`)).body.notification_templates.alert_alert.sms.message).toBe('{{title}}');
  });

  it('answers validation errors of the earlier interface with 400 and no code field', async () => {
    const res = await service.admin.put(`/account/${accountId}`, { name: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: "name can't be blank" }] });
  });

  it('refuses a non-admin update with 403', async () => {
    const member = await createMember(service.admin);
    expect((await member.client.get(`/account/${accountId}`)).status).toBe(200);
    expect((await member.client.put(`/account/${accountId}`, { name: 'x' })).status).toBe(403);
  });
});

describe('signup and isolation between accounts', () => {
  it('signs up a new account whose admin can sign in', async () => {
    const other = await signupAccount(service, 'Signup');
    expect(other.accountId).toMatch(/^[0-9A-Z]{26}$/);
    const login = await service.anonymous.post('/public/login', { username: other.email, password: 'another secret password' });
    expect(login.status).toBe(200);
    const account = await other.client.get(`/account/${other.accountId}`);
    expect(account.body.name).toBe('Signup Inc');
  });

  it('refuses signup for a taken e-mail (409) and with missing fields (400)', async () => {
    const taken = await service.anonymous.post('/public/signup', {
      account_name: 'a',
      name: 'b',
      email: 'admin@example.com',
      password: 'longenough',
    });
    expect(taken.status).toBe(409);
    const missing = await service.anonymous.post('/public/signup', { account_name: 'a' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: any) => e.message)).toEqual([
      "name can't be blank",
      "email can't be blank",
      "password can't be blank",
    ]);
  });

  it('keeps every object of one account invisible to another (404, never data)', async () => {
    const other = await signupAccount(service, 'Isolated');
    const member = await createMember(service.admin, { name: 'Secret' });
    const key = (await service.admin.post('/api/v4/api_keys', { name: 'mine' })).body;

    expect((await other.client.get(`/account/${accountId}`)).status).toBe(404);
    expect((await other.client.put(`/account/${accountId}`, { name: 'pwned' })).status).toBe(404);
    for (const res of [
      await other.client.get(`/api/v4/account_users/${member.accountUser.id}`),
      await other.client.put(`/api/v4/account_users/${member.accountUser.id}`, { user_attributes: { name: 'pwned' } }),
      await other.client.delete(`/api/v4/account_users/${member.accountUser.id}`),
      await other.client.delete(`/api/v4/api_keys/${key.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('Secret');
    }
    const list = await other.client.get('/api/v4/account_users?limit=100');
    expect(list.body.total_count).toBe(1);
    expect(list.body.data[0].user.name).toBe('Isolated Admin');
    expect((await other.client.post('/api/v4/api_keys', { name: 'x', account_user_id: member.accountUser.id })).status).toBe(422);
    expect((await service.admin.get(`/api/v4/account_users/${member.accountUser.id}`)).body.user.name).toBe('Secret');
    expect((await service.admin.get(`/account/${accountId}`)).body.name).not.toBe('pwned');
  });

  it('lets one person belong to two accounts and pick the account at login', async () => {
    const other = await signupAccount(service, 'Shared');
    const member = await createMember(service.admin, { name: 'Two Hats' });
    const email = member.accountUser.user.emails[0].email;
    const joined = await other.client.post('/api/v4/account_users', {
      user_attributes: { name: 'ignored', emails_attributes: [{ email }] },
    });
    expect(joined.status).toBe(201);
    expect(joined.body.user.id).toBe(member.accountUser.user.id);
    expect(joined.body.user.name).toBe('Two Hats');
    expect(
      (await other.client.post('/api/v4/account_users', { user_attributes: { name: 'x', emails_attributes: [{ email }] } })).status,
    ).toBe(409);
  });
});

describe('signup when not enabled', () => {
  it('is absent (404)', async () => {
    const closed = await startService({ env: { SIGNUP_ENABLED: 'false' } });
    try {
      const res = await closed.anonymous.post('/public/signup', { account_name: 'a', name: 'b', email: 'c@d.com', password: 'longenough' });
      expect(res.status).toBe(404);
    } finally {
      await closed.stop();
    }
  });
});
