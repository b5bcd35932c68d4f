import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { ApiClient, createMember } from '../support/api-client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, useService, type TestService } from '../support/runtime';

let service: TestService;

useService(async (started) => {
  service = started;
});

async function login(username = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  return service.anonymous.post('/public/login', { username, password });
}

describe('login', () => {
  it('returns a JWT for the right password', async () => {
    const res = await login();
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    const claims = jwt.decode(res.body.token) as Record<string, unknown>;
    expect(claims.sub).toMatch(/^[0-9A-Z]{26}$/);
    expect(claims.acc).toMatch(/^[0-9A-Z]{26}$/);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(12 * 3600);
  });

  it('accepts the e-mail in any case', async () => {
    expect((await login(ADMIN_EMAIL.toUpperCase())).status).toBe(200);
  });

  it('refuses a wrong password and an unknown user with 401', async () => {
    const wrong = await login(ADMIN_EMAIL, 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ errors: [{ message: expect.any(String) }] });
    expect((await login('nobody@example.com', 'x')).status).toBe(401);
  });

  it('needs a username and a password (400 naming the field)', async () => {
    const res = await service.anonymous.post('/public/login', { password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe("username can't be blank");
  });

  it('answers malformed JSON with 400', async () => {
    const res = await service.anonymous.post('/public/login', '{"username":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
  });

  it('accepts a form-encoded body', async () => {
    const body = new URLSearchParams({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }).toString();
    const res = await service.anonymous.post('/public/login', body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(200);
  });
});

describe('credential forms', () => {
  it('accepts a login JWT as Bearer and as the raw Authorization value', async () => {
    const { token } = (await login()).body;
    for (const value of [`Bearer ${token}`, token]) {
      const res = await new ApiClient(service.url, { authorization: value }).get('/api/v4/account_users');
      expect(res.status).toBe(200);
    }
  });

  it('accepts an API key token as Bearer and raw, and as x-api-key + x-api-secret', async () => {
    const created = await service.admin.post('/api/v4/api_keys', { name: 'ci' });
    expect(created.status).toBe(201);
    expect(created.body.prefix_id).toMatch(/^tkn_/);
    const { token, id, prefix_id } = created.body;
    const forms: Record<string, string>[] = [
      { authorization: `Bearer ${token}` },
      { authorization: token },
      { 'x-api-key': prefix_id, 'x-api-secret': token },
      { 'x-api-key': id, 'x-api-secret': token },
    ];
    for (const headers of forms) {
      expect((await new ApiClient(service.url, headers).get('/api/v4/account_users')).status).toBe(200);
    }
  });

  it('refuses x-api-key with another key’s secret', async () => {
    const a = (await service.admin.post('/api/v4/api_keys', { name: 'a' })).body;
    const b = (await service.admin.post('/api/v4/api_keys', { name: 'b' })).body;
    const res = await new ApiClient(service.url, { 'x-api-key': a.prefix_id, 'x-api-secret': b.token }).get('/api/v4/account_users');
    expect(res.status).toBe(401);
  });

  it.each([
    ['no credentials', {}],
    ['a garbage token', { authorization: 'Bearer nonsense' }],
    ['x-api-key without a secret', { 'x-api-key': 'tkn_01ARZ3NDEKTSV4RRFFQ69G5FAV' }],
  ])('refuses %s with 401 and the v4 error body', async (_name, headers) => {
    const res = await new ApiClient(service.url, headers as Record<string, string>).get('/api/v4/account_users');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [{ message: expect.any(String) }], code: 401 });
  });

  it('refuses an expired token, a tampered token and alg none', async () => {
    const { token } = (await login()).body;
    const claims = jwt.decode(token) as Record<string, unknown>;
    const expired = jwt.sign({ sub: claims.sub, acc: claims.acc, acu: claims.acu, exp: Math.floor(Date.now() / 1000) - 10 }, 'whatever');
    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, acu: 'X'.repeat(26) })).toString('base64url');
    const tampered = `${header}.${forgedPayload}.${signature}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const bad of [expired, tampered, none, `${header}.${payload}.${signature.slice(0, -2)}xx`]) {
      const res = await new ApiClient(service.url, { authorization: `Bearer ${bad}` }).get('/api/v4/account_users');
      expect(res.status).toBe(401);
    }
  });

  it('refuses a revoked key at once', async () => {
    const { token, id } = (await service.admin.post('/api/v4/api_keys', { name: 'temp' })).body;
    const client = new ApiClient(service.url, { authorization: `Bearer ${token}` });
    expect((await client.get('/api/v4/account_users')).status).toBe(200);
    expect((await service.admin.delete(`/api/v4/api_keys/${id}`)).status).toBe(204);
    expect((await client.get('/api/v4/account_users')).status).toBe(401);
  });

  it('lets the health check through without credentials', async () => {
    const res = await service.anonymous.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', queues: { ingest: { dead_letters: 0 }, routing: { dead_letters: 0 } } });
  });
});

describe('API keys', () => {
  it('shows the token only on creation and lists the caller’s keys without secrets', async () => {
    await service.admin.post('/api/v4/api_keys', { name: 'listed' });
    const list = await service.admin.get('/api/v4/api_keys?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    for (const key of list.body.data) {
      expect(key.token).toBeUndefined();
      expect(key.token_hash).toBeUndefined();
    }
  });

  it('lets an admin issue a key acting as another account user, and refuses that to a non-admin (403)', async () => {
    // createMember issues the member's key as the admin, naming the member's account user.
    const member = await createMember(service.admin, { name: 'Mia' });
    const asMember = await member.client.post('/api/v4/account_users', {
      user_attributes: { name: 'X', emails_attributes: [{ email: 'x-by-member@example.com' }] },
    });
    expect(asMember.status).toBe(403);
    const admins = (await service.admin.get('/api/v4/account_users?limit=100')).body.data.filter((u: any) => u.roles.admin);
    const res = await member.client.post('/api/v4/api_keys', { name: 'x', account_user_id: admins[0].id });
    expect(res.status).toBe(403);
  });

  it('needs a name (422)', async () => {
    const res = await service.admin.post('/api/v4/api_keys', {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: [{ message: "name can't be blank" }], code: 422 });
  });
});
