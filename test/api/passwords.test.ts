// Password self-service through the real local server (docs/api.md#authentication): the reset link by e-mail
// (no enumeration, one-time token, hash only at rest), the change with the current password, and
// login tokens issued before either change refused while API keys keep working.
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { ANSWER_FLOOR_MS } from '../../lib/accounts/request-password-reset';
import { jwtSecret } from '../../lib/auth/jwt';
import { sha256 } from '../../lib/auth/passwords';
import { ApiClient, createMember } from '../support/api-client';
import { signupAccount, useService, type TestService } from '../support/runtime';
import { outputOf, scanTable } from '../support/service-output';
import { outboxMessages } from '../support/dependencies';

let service: TestService;

useService(async (started) => {
  service = started;
});

const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** A member with a known password (set through a reset), a client for its API key, and its address. */
async function person(name = 'Pat') {
  const email = unique(name.toLowerCase());
  const { accountUser, client } = await createMember(service.admin, { name, email });
  const password = /Password: (\S+)/.exec(outboxMessages().find((m) => m.to === email)!.message)![1];
  return { accountUser, keyClient: client, email, password };
}

const resetMessages = (email: string) => outboxMessages().filter((m) => m.to === email && m.template === 'password_reset');

async function requestReset(email: string) {
  return service.anonymous.post('/public/password_reset', { email });
}

/** The token of the newest reset link sent to `email`. */
function tokenSentTo(email: string): string {
  const messages = resetMessages(email);
  const link = /(\S+\/#\/reset-password\/([\w-]+))/.exec(messages[messages.length - 1].message)!;
  return link[2];
}

async function login(username: string, password: string) {
  return service.anonymous.post('/public/login', { username, password });
}

const asToken = (token: string) => new ApiClient(service.url, { authorization: `Bearer ${token}` });

describe('asking for a reset link', () => {
  it('answers a known and an unknown address alike, and e-mails only the known one a link to the console', async () => {
    const { email } = await person();
    const unknown = unique('nobody');
    const sentBefore = outboxMessages().length;

    const known = await requestReset(email);
    const stranger = await requestReset(unknown);

    expect(known.status).toBe(202);
    expect(stranger.status).toBe(202);
    expect(stranger.text).toBe(known.text);
    expect(known.body.message).toMatch(/If the address belongs to a user/);
    expect([...stranger.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    expect(outboxMessages().length).toBe(sentBefore + 1);
    expect(resetMessages(unknown)).toEqual([]);
    const [message] = resetMessages(email);
    expect(message.channel).toBe('email');
    expect(message.message).toContain(`${service.url}/#/reset-password/`);
    expect(message.message).toContain('within 1 hour');
    expect(tokenSentTo(email)).toMatch(/^[\w-]{43}$/);
  });

  it('takes at least the answer floor for an unknown address too', async () => {
    const started = Date.now();
    expect((await requestReset(unique('slow'))).status).toBe(202);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ANSWER_FLOOR_MS - 5);
  });

  it('matches the address in any case and with spaces around it', async () => {
    const { email } = await person();
    expect((await requestReset(`  ${email.toUpperCase()} `)).status).toBe(202);
    expect(resetMessages(email)).toHaveLength(1);
  });

  it('refuses a missing or malformed address with 422 naming email, and sends nothing', async () => {
    const sentBefore = outboxMessages().length;
    const missing = await service.anonymous.post('/public/password_reset', {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ errors: [{ message: "email can't be blank" }] });
    const malformed = await requestReset('not an address');
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].message).toBe('email is not a valid e-mail address');
    expect(outboxMessages().length).toBe(sentBefore);
  });

  it('keeps only the hash of the token, and records that a link was sent without the link', async () => {
    const { email } = await person();
    await requestReset(email);
    const token = tokenSentTo(email);

    const items = await scanTable(service.runtime.tableName);
    const everything = JSON.stringify(items);
    expect(everything).not.toContain(token);
    expect(items.some((item) => item.pk === `PWRESET#${sha256(token)}`)).toBe(true);
    const notification = items.find((item) => item.template === 'password_reset' && item.to === email);
    expect(notification).toMatchObject({ channel: 'email', message: `Password reset link sent to ${email}`, status: 'sent' });
  });
});

describe('choosing a new password with the link', () => {
  it('sets the password, spends the token (a second use is 404) and the new password signs in', async () => {
    const { email, password } = await person();
    await requestReset(email);
    const token = tokenSentTo(email);

    const reset = await service.anonymous.post(`/public/password_reset/${token}`, { password: 'a brand new password' });
    expect(reset.status).toBe(204);
    expect(reset.text).toBe('');

    const again = await service.anonymous.post(`/public/password_reset/${token}`, { password: 'yet another password' });
    expect(again.status).toBe(404);
    expect(again.body.errors[0].message).toMatch(/invalid, expired or already used/);
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'yet another password')).status).toBe(401);
    expect((await login(email, 'a brand new password')).status).toBe(200);
  });

  it('refuses a password under 8 characters with 422 naming password, and the link still works', async () => {
    const { email } = await person();
    await requestReset(email);
    const token = tokenSentTo(email);

    const short = await service.anonymous.post(`/public/password_reset/${token}`, { password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({ errors: [{ message: 'password is too short (at least 8 characters)' }] });
    const missing = await service.anonymous.post(`/public/password_reset/${token}`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].message).toBe("password can't be blank");

    expect((await service.anonymous.post(`/public/password_reset/${token}`, { password: '12345678' })).status).toBe(204);
    expect((await login(email, '12345678')).status).toBe(200);
  });

  it('answers an unknown token with 404, whatever the body', async () => {
    for (const [token, body] of [
      ['x'.repeat(43), { password: 'long enough password' }],
      ['nope', { password: 'short' }],
      ['%20', {}],
    ] as const) {
      const res = await service.anonymous.post(`/public/password_reset/${token}`, body);
      expect(res.status, token).toBe(404);
    }
  });

  it('voids an older link once the password changed by a newer one', async () => {
    const { email } = await person();
    await requestReset(email);
    const first = tokenSentTo(email);
    await requestReset(email);
    const second = tokenSentTo(email);
    expect(second).not.toBe(first);

    expect((await service.anonymous.post(`/public/password_reset/${second}`, { password: 'second link password' })).status).toBe(204);
    expect((await service.anonymous.post(`/public/password_reset/${first}`, { password: 'first link password' })).status).toBe(404);
    expect((await login(email, 'second link password')).status).toBe(200);
  });

  it('refuses login tokens issued before the reset (401), at once; new ones and API keys work', async () => {
    const { email, password, keyClient, accountUser } = await person();
    const before = (await login(email, password)).body.token;
    // Used once, so this instance holds the principal in its cache.
    expect((await asToken(before).get(`/api/v4/account_users/${accountUser.id}`)).status).toBe(200);

    await requestReset(email);
    expect((await service.anonymous.post(`/public/password_reset/${tokenSentTo(email)}`, { password: 'after the reset' })).status).toBe(
      204,
    );

    const refused = await asToken(before).get(`/api/v4/account_users/${accountUser.id}`);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].message).toMatch(/password changed/);
    const after = (await login(email, 'after the reset')).body.token;
    expect((jwt.decode(after) as { gen: number }).gen).toBe((jwt.decode(before) as { gen: number }).gen + 1);
    expect((await asToken(after).get(`/api/v4/account_users/${accountUser.id}`)).status).toBe(200);
    expect((await keyClient.get(`/api/v4/account_users/${accountUser.id}`)).status).toBe(200);
  });

  it('logs that a link was sent and that the password changed, never the token', async () => {
    const { email } = await person();
    let token = '';
    const output = await outputOf(async () => {
      await requestReset(email);
      token = tokenSentTo(email);
      await service.anonymous.post(`/public/password_reset/${token}`, { password: 'short' });
      await service.anonymous.post(`/public/password_reset/${token}`, { password: 'logged nowhere' });
      await service.anonymous.post(`/public/password_reset/${token}`, { password: 'logged nowhere' });
    });
    expect(output).toContain('password reset link sent');
    expect(output).toContain('password changed');
    expect(output).not.toContain(token);
    expect(output).not.toContain('logged nowhere');
  });
});

describe('changing one’s own password', () => {
  it('changes it with the current password (204); older login tokens are refused, the caller’s too', async () => {
    const { email, password, accountUser, keyClient } = await person();
    const token = (await login(email, password)).body.token;
    const other = (await login(email, password)).body.token;
    const me = asToken(token);
    expect((await asToken(other).get('/api/v4/alerts')).status).toBe(200);

    const res = await me.post(`/api/v4/account_users/${accountUser.prefix_id}/password`, {
      current_password: password,
      password: 'changed it myself',
    });
    expect(res.status).toBe(204);

    expect((await me.get('/api/v4/alerts')).status).toBe(401);
    expect((await asToken(other).get('/api/v4/alerts')).status).toBe(401);
    expect((await login(email, password)).status).toBe(401);
    const fresh = await login(email, 'changed it myself');
    expect(fresh.status).toBe(200);
    expect((await asToken(fresh.body.token).get('/api/v4/alerts')).status).toBe(200);
    expect((await keyClient.get('/api/v4/alerts')).status).toBe(200);
    const notice = outboxMessages().filter((m) => m.to === email && m.template === 'password_changed');
    expect(notice).toHaveLength(1);
    expect(notice[0].message).not.toContain('changed it myself');
  });

  it('refuses a wrong current password with 422 naming current_password, and changes nothing', async () => {
    const { email, password, accountUser, keyClient } = await person();
    const res = await keyClient.post(`/api/v4/account_users/${accountUser.id}/password`, {
      current_password: 'not it at all',
      password: 'would be new',
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 422, errors: [{ message: 'current_password is incorrect' }] });
    expect((await login(email, password)).status).toBe(200);
    expect((await login(email, 'would be new')).status).toBe(401);
  });

  it('refuses a short or missing password with 422 naming the field', async () => {
    const { password, accountUser, keyClient } = await person();
    const path = `/api/v4/account_users/${accountUser.id}/password`;
    const short = await keyClient.post(path, { current_password: password, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([{ message: 'password is too short (at least 8 characters)' }]);
    const missing = await keyClient.post(path, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { message: string }) => e.message)).toEqual([
      "current_password can't be blank",
      "password can't be blank",
    ]);
  });

  it('is for the account user only: another caller, an admin included, gets 403', async () => {
    const { email, password, accountUser } = await person();
    const body = { current_password: password, password: 'taken over' };
    const admin = await service.admin.post(`/api/v4/account_users/${accountUser.id}/password`, body);
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe(403);
    const colleague = await person('Colleague');
    expect((await colleague.keyClient.post(`/api/v4/account_users/${accountUser.id}/password`, body)).status).toBe(403);
    expect((await login(email, password)).status).toBe(200);
  });

  it('answers 404 for an account user of another account, and 401 without credentials', async () => {
    const { accountUser } = await person();
    const other = await signupAccount(service);
    expect(
      (await other.client.post(`/api/v4/account_users/${accountUser.id}/password`, { current_password: 'x', password: 'long enough' }))
        .status,
    ).toBe(404);
    expect((await service.anonymous.post(`/api/v4/account_users/${accountUser.id}/password`, {})).status).toBe(401);
  });

  it('refuses older login tokens in every account of the person', async () => {
    const other = await signupAccount(service, 'Second');
    const { email, password, accountUser } = await person();
    const joined = await other.client.post('/api/v4/account_users', { user_attributes: { name: 'Pat', emails_attributes: [{ email }] } });
    expect(joined.status).toBe(201);
    const inOther = (await service.anonymous.post('/public/login', { username: email, password, account_id: other.accountId })).body.token;
    expect((await asToken(inOther).get('/api/v4/alerts')).status).toBe(200);

    const mine = (await login(email, password)).body.token;
    expect(
      (
        await asToken(mine).post(`/api/v4/account_users/${accountUser.id}/password`, {
          current_password: password,
          password: 'one change for all',
        })
      ).status,
    ).toBe(204);
    expect((await asToken(inOther).get('/api/v4/alerts')).status).toBe(401);
  });
});

describe('tokens issued before this feature', () => {
  it('accepts a login token without a generation claim until the first change', async () => {
    const { email, password, accountUser } = await person();
    const current = jwt.decode((await login(email, password)).body.token) as Record<string, unknown>;
    expect(current.gen).toBe(0);
    const legacy = jwt.sign({ sub: current.sub, acc: current.acc, acu: current.acu }, await jwtSecret(), {
      algorithm: 'HS256',
      expiresIn: 600,
    });
    expect((await asToken(legacy).get(`/api/v4/account_users/${accountUser.id}`)).status).toBe(200);
    await asToken(legacy).post(`/api/v4/account_users/${accountUser.id}/password`, {
      current_password: password,
      password: 'legacy no more',
    });
    expect((await asToken(legacy).get(`/api/v4/account_users/${accountUser.id}`)).status).toBe(401);
  });
});
