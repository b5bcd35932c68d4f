// The time-bound parts of password self-service, on a service with a 1-second link lifetime and
// small request limits (PASSWORD_RESET_TTL_SECONDS, PASSWORD_RESET_PER_EMAIL, PASSWORD_RESET_PER_IP):
// an expired link is a 404; reset requests are limited per address, known or not, and per source
// address; guesses of the current password are limited per person; every refusal is a 429 with
// Retry-After.
import { beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../lib/notify/personal-messages';
import { createMember } from '../support/api-client';
import { useService, type TestService } from '../support/runtime';

let service: TestService;

useService(
  async (started) => {
    service = started;
  },
  { env: { PASSWORD_RESET_TTL_SECONDS: '1', PASSWORD_RESET_PER_EMAIL: '3', PASSWORD_RESET_PER_IP: '9' } },
);

const WINDOW_MS = 15 * 60_000;
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const requestReset = (email: string) => service.anonymous.post('/public/password_reset', { email });
const resetToken = (email: string) => {
  const sent = outboxMessages().filter((m) => m.to === email && m.template === 'password_reset');
  return /reset-password\/([\w-]+)/.exec(sent[sent.length - 1].message)![1];
};

describe('reset links expire', () => {
  it('answers 404 for a link used after its lifetime', async () => {
    const email = unique('late');
    await createMember(service.admin, { email });
    expect((await requestReset(email)).status).toBe(202);
    const sent = outboxMessages().filter((m) => m.to === email && m.template === 'password_reset');
    expect(sent[0].message).toContain('within 1 second');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const res = await service.anonymous.post(`/public/password_reset/${resetToken(email)}`, { password: 'too late for this' });
    expect(res.status).toBe(404);
    expect((await service.anonymous.post('/public/login', { username: email, password: 'too late for this' })).status).toBe(401);
  });
});

describe('limits (15-minute windows)', () => {
  beforeAll(async () => {
    // The counters start afresh with each window: keep the checks inside one.
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  });

  it('limits requests per address, known or unknown alike, with 429 and Retry-After', async () => {
    const known = unique('known');
    await createMember(service.admin, { email: known });
    const unknown = unique('unknown');
    for (const email of [known, unknown]) {
      for (let i = 0; i < 3; i++) expect((await requestReset(email)).status).toBe(202);
      const refused = await requestReset(email);
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].message).toMatch(/for this e-mail address/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(900);
    }
    expect(outboxMessages().filter((m) => m.to === known && m.template === 'password_reset')).toHaveLength(3);
  });

  it('limits requests per source address', async () => {
    // 9 requests so far (the expiry test's, and the two addresses' 4 each): the network's 9 are used up.
    const refused = await requestReset(unique('fresh'));
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toMatch(/from your network/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('limits guesses of the current password per person', async () => {
    const { accountUser, client } = await createMember(service.admin);
    const path = `/api/v4/account_users/${accountUser.id}/password`;
    for (let i = 0; i < 10; i++) {
      expect((await client.post(path, { current_password: `guess number ${i}`, password: 'whatever it is' })).status).toBe(422);
    }
    const refused = await client.post(path, { current_password: 'one more guess', password: 'whatever it is' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
