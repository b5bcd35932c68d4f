import { describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { useService, type TestService } from '../support/runtime';
import { outboxMessages } from '../support/dependencies';

let service: TestService;
useService(async (started) => {
  service = started;
});

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function create(body: unknown) {
  return service.admin.post('/api/v4/account_users', body);
}

describe('creating account users', () => {
  it('creates a user with e-mails, phones, roles and defaults, answering 201 with the v4 object', async () => {
    const email = unique('ann');
    const res = await create({
      roles: { broadcaster: true },
      user_attributes: {
        name: 'Ann Example',
        emails_attributes: [{ email: email.toUpperCase() }, { email: unique('ann2'), primary: true }],
        phones_attributes: [{ phone: '+14155552671' }, { phone: '+4915112345678' }],
      },
    });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(body.prefix_id).toBe(`acu_${body.id}`);
    expect(body.roles).toEqual({ admin: false, billing: false, broadcaster: true, communicator: false });
    expect(body.user.prefix_id).toBe(`usr_${body.user.id}`);
    expect(body.user.name).toBe('Ann Example');
    expect(body.user).toMatchObject({ notify_push: true, notify_email: true, notify_sms: false, notify_voice: false });
    expect(body.user.emails.map((e: any) => [e.email, e.primary])).toEqual([
      [email, false],
      [expect.stringMatching(/^ann2-/), true],
    ]);
    expect(body.user.phones.map((p: any) => [p.phone, p.country, p.primary, p.blocked])).toEqual([
      ['+14155552671', 'US', true, false],
      ['+4915112345678', 'DE', false, false],
    ]);
    expect(body.user.phones[0].prefix_id).toMatch(/^phn_/);
    expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(JSON.stringify(body)).not.toContain('password');
  });

  it('accepts form-encoded bodies with bracket nesting', async () => {
    const email = unique('form');
    const form = new URLSearchParams();
    form.append('user_attributes[name]', 'Form User');
    form.append('user_attributes[emails_attributes][][email]', email);
    form.append('user_attributes[notify_sms]', 'true');
    form.append('roles[communicator]', '1');
    const res = await service.admin.post('/api/v4/account_users', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(201);
    expect(res.body.user.emails[0].email).toBe(email);
    expect(res.body.user.notify_sms).toBe(true);
    expect(res.body.roles.communicator).toBe(true);
  });

  it('needs a name and an e-mail (422 naming each)', async () => {
    const res = await create({ user_attributes: {} });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 422,
      errors: [{ message: "user_attributes.name can't be blank" }, { message: "user_attributes.emails_attributes can't be blank" }],
    });
    const noEmail = await create({ user_attributes: { name: 'x', emails_attributes: [{ email: 'not-an-address' }] } });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.errors[0].message).toBe('user_attributes.emails_attributes[0].email is not a valid e-mail address');
    expect((await create({})).body.errors[0].message).toBe("user_attributes can't be blank");
  });

  it('refuses a phone number that is not E.164', async () => {
    for (const phone of ['4155552671', '+1234', '+1 415 555 2671x']) {
      const res = await create({
        user_attributes: { name: 'P', emails_attributes: [{ email: unique('p') }], phones_attributes: [{ phone }] },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].message).toContain('user_attributes.phones_attributes[0].phone');
    }
  });

  it('answers 409 for an e-mail already in the account, and changes nothing', async () => {
    const email = unique('dup');
    expect((await create({ user_attributes: { name: 'One', emails_attributes: [{ email }] } })).status).toBe(201);
    const before = (await service.admin.get('/api/v4/account_users')).body.total_count;
    const again = await create({ user_attributes: { name: 'Two', emails_attributes: [{ email: email.toUpperCase() }] } });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].message).toContain(email);
    expect((await service.admin.get('/api/v4/account_users')).body.total_count).toBe(before);
  });

  it('refuses unknown team and notification rule ids with 422 naming the field', async () => {
    const res = await create({
      member_team_ids: ['tem_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
      notification_rule_id: 'nrl_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      user_attributes: { name: 'T', emails_attributes: [{ email: unique('t') }] },
    });
    expect(res.status).toBe(422);
    const text = res.body.errors.map((e: any) => e.message).join(' | ');
    expect(text).toContain('member_team_ids');
    expect(text).toContain('notification_rule_id');
  });

  it('is admin-only (403 for others)', async () => {
    const member = await createMember(service.admin);
    const res = await member.client.post('/api/v4/account_users', {
      user_attributes: { name: 'x', emails_attributes: [{ email: unique('x') }] },
    });
    expect(res.status).toBe(403);
  });

  it('sends the generated password through the outbox only, and it signs the new user in', async () => {
    const email = unique('signin');
    const res = await create({ user_attributes: { name: 'S', emails_attributes: [{ email }] } });
    expect(res.status).toBe(201);
    const welcome = outboxMessages().find((m) => m.to === email);
    expect(welcome?.template).toBe('welcome');
    const password = /Password: (\S+)/.exec(welcome!.message)![1];
    // The notification object records that it was sent, never the password (docs/api.md#authentication).
    const stored = await service.admin.get('/api/v4/notifications?template=welcome&limit=100');
    const record = stored.body.data.find((n: { to: string }) => n.to === email);
    expect(record).toMatchObject({ channel: 'email', template: 'welcome', status: 'sent', account_user_id: res.body.id });
    expect(JSON.stringify(record)).not.toContain(password);
    expect(JSON.stringify(res.body)).not.toContain(password);
    expect((await service.anonymous.post('/public/login', { username: email, password: 'wrong' })).status).toBe(401);
    const login = await service.anonymous.post('/public/login', { username: email, password });
    expect(login.status).toBe(200);
    const asNewUser = await service.anonymous.get(`/api/v4/account_users/${res.body.id}`, { authorization: `Bearer ${login.body.token}` });
    expect(asNewUser.body.user.emails[0].email).toBe(email);
  });
});

describe('reading, updating and deleting account users', () => {
  it('reads by ULID or prefix id; other ids are 404', async () => {
    const { body } = await create({ user_attributes: { name: 'R', emails_attributes: [{ email: unique('r') }] } });
    expect((await service.admin.get(`/api/v4/account_users/${body.id}`)).body.id).toBe(body.id);
    expect((await service.admin.get(`/api/v4/account_users/${body.prefix_id}`)).body.id).toBe(body.id);
    for (const bad of [`tem_${body.id}`, 'nope', '01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const res = await service.admin.get(`/api/v4/account_users/${bad}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(404);
    }
  });

  it('updates only the fields sent; roles merge; e-mails and phones change by id', async () => {
    const { body } = await create({
      roles: { billing: true },
      user_attributes: {
        name: 'Before',
        emails_attributes: [{ email: unique('u1') }, { email: unique('u2') }],
        phones_attributes: [{ phone: '+14155552671' }],
      },
    });
    const [first, second] = body.user.emails;
    const added = unique('u3');
    const res = await service.admin.put(`/api/v4/account_users/${body.id}`, {
      roles: { broadcaster: true },
      user_attributes: {
        name: 'After',
        notify_voice: true,
        emails_attributes: [{ id: first.id, _destroy: true }, { id: second.prefix_id, primary: true }, { email: added }],
        phones_attributes: [{ id: body.user.phones[0].id, _destroy: '1' }, { phone: '+447911123456' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual({ admin: false, billing: true, broadcaster: true, communicator: false });
    expect(res.body.user.name).toBe('After');
    expect(res.body.user.notify_voice).toBe(true);
    expect(res.body.user.notify_push).toBe(true);
    expect(res.body.user.emails.map((e: any) => [e.email, e.primary])).toEqual([
      [second.email, true],
      [added, false],
    ]);
    expect(res.body.user.phones.map((p: any) => p.phone)).toEqual(['+447911123456']);
    expect(res.body.user.phones[0].primary).toBe(true);
    // the removed address is free again, the added one is taken
    expect((await create({ user_attributes: { name: 'Reuse', emails_attributes: [{ email: first.email }] } })).status).toBe(201);
    expect((await create({ user_attributes: { name: 'Taken', emails_attributes: [{ email: added }] } })).status).toBe(409);
    expect((await service.admin.get(`/api/v4/account_users/${body.id}`)).body.user.name).toBe('After');
  });

  it('refuses removing the last e-mail (422) and an unknown contact id (422)', async () => {
    const { body } = await create({ user_attributes: { name: 'L', emails_attributes: [{ email: unique('l') }] } });
    const last = await service.admin.put(`/api/v4/account_users/${body.id}`, {
      user_attributes: { emails_attributes: [{ id: body.user.emails[0].id, _destroy: true }] },
    });
    expect(last.status).toBe(422);
    const unknown = await service.admin.put(`/api/v4/account_users/${body.id}`, {
      user_attributes: { emails_attributes: [{ id: 'eml_01ARZ3NDEKTSV4RRFFQ69G5FAV', email: 'x@y.com' }] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].message).toContain('user_attributes.emails_attributes[0].id');
  });

  it('lets a non-admin update their own account user but not its roles, nor anyone else', async () => {
    const member = await createMember(service.admin, { name: 'Self' });
    const own = await member.client.put(`/api/v4/account_users/${member.accountUser.id}`, { user_attributes: { name: 'Self Renamed' } });
    expect(own.status).toBe(200);
    expect(own.body.user.name).toBe('Self Renamed');
    const roles = await member.client.put(`/api/v4/account_users/${member.accountUser.id}`, { roles: { admin: true } });
    expect(roles.status).toBe(403);
    expect((await service.admin.get(`/api/v4/account_users/${member.accountUser.id}`)).body.roles.admin).toBe(false);
    const other = await createMember(service.admin, { name: 'Other' });
    expect((await member.client.put(`/api/v4/account_users/${other.accountUser.id}`, { user_attributes: { name: 'x' } })).status).toBe(403);
  });

  it('applies a role change to the user’s credentials at once', async () => {
    const member = await createMember(service.admin, { name: 'Promoted' });
    const attempt = () => member.client.post('/api/v4/api_keys', { name: 'k', account_user_id: member.accountUser.id });
    expect((await member.client.put(`/api/v4/account_users/${member.accountUser.id}`, { roles: { admin: true } })).status).toBe(403);
    expect((await service.admin.put(`/api/v4/account_users/${member.accountUser.id}`, { roles: { admin: true } })).status).toBe(200);
    expect(
      (await member.client.post('/api/v4/account_users', { user_attributes: { name: 'x', emails_attributes: [{ email: unique('p') }] } }))
        .status,
    ).toBe(201);
    expect((await attempt()).status).toBe(201);
  });

  it('deletes (204) and then the object, its keys and its e-mail claim are gone', async () => {
    const member = await createMember(service.admin, { name: 'Leaving' });
    const email = member.accountUser.user.emails[0].email;
    expect((await member.client.get('/api/v4/account_users')).status).toBe(200);
    const res = await service.admin.delete(`/api/v4/account_users/${member.accountUser.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await service.admin.get(`/api/v4/account_users/${member.accountUser.id}`)).status).toBe(404);
    expect((await member.client.get('/api/v4/account_users')).status).toBe(401);
    expect((await service.admin.delete(`/api/v4/account_users/${member.accountUser.id}`)).status).toBe(404);
    expect((await create({ user_attributes: { name: 'Again', emails_attributes: [{ email }] } })).status).toBe(201);
  });
});

describe('listing account users', () => {
  it('pages newest first with exact totals, filters by nested attributes and searches with q', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    for (let i = 0; i < 3; i++) {
      await create({ user_attributes: { name: `Lister ${tag} ${i}`, emails_attributes: [{ email: unique(`list${i}`) }] } });
    }
    const all = await service.admin.get('/api/v4/account_users?limit=100');
    const total = all.body.total_count;
    expect(all.body.data).toHaveLength(total);
    const page = await service.admin.get('/api/v4/account_users?limit=2');
    expect(page.body.data.map((u: any) => u.user.name)).toEqual([`Lister ${tag} 2`, `Lister ${tag} 1`]);
    expect(page.body).toMatchObject({ has_more: true, total_count: total });
    const asc = await service.admin.get('/api/v4/account_users?limit=1&sort=created_at&direction=asc');
    expect(asc.body.data[0].roles.admin).toBe(true);
    const searched = await service.admin.get(`/api/v4/account_users?q=${tag.toUpperCase()}`);
    expect(searched.body.total_count).toBe(3);
    const byName = await service.admin.get(`/api/v4/account_users?user.name=Lister%20${tag}%201`);
    expect(byName.body.total_count).toBe(1);
    const admins = await service.admin.get('/api/v4/account_users?roles.admin=true');
    expect(admins.body.data.every((u: any) => u.roles.admin)).toBe(true);
    expect((await service.admin.get('/api/v4/account_users?nope=1')).status).toBe(422);
    expect((await service.admin.get('/api/v4/account_users?limit=500')).status).toBe(422);
  });
});
