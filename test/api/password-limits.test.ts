// The time-bound parts of password self-service, on a service with a 1-second link lifetime and
// small request limits (PASSWORD_RESET_TTL_SECONDS, PASSWORD_RESET_PER_EMAIL, PASSWORD_RESET_PER_IP):
// an expired link is a 404; reset requests are limited per address, known or not, and per source
// address; guesses of the current password are limited per person; every refusal is a 429 with
// Retry-After. The service's clock is moved instead of waiting out a lifetime or a window, and each
// test starts at the beginning of a window of its own.
// @moto: attempt counters with a condition and a TTL.
// @module-tag moto
import { beforeEach, describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { useService, type TestService } from '../support/runtime';
import { outboxMessages, testClock } from '../support/dependencies';

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
    testClock.advance(1_000);
    const res = await service.anonymous.post(`/public/password_reset/${resetToken(email)}`, { password: 'too late for this' });
    expect(res.status).toBe(404);
    expect((await service.anonymous.post('/public/login', { username: email, password: 'too late for this' })).status).toBe(401);
  });
});

describe('limits (15-minute windows)', () => {
  // The counters start afresh with each window (windows are aligned on the epoch): each test runs at
  // the start of a later window of its own, the service's time stopped there.
  let windowsAhead = 0;
  beforeEach(() => {
    windowsAhead += 1;
    testClock.advance(windowsAhead * WINDOW_MS - (testClock.now() % WINDOW_MS));
    testClock.freeze();
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
      // The whole window is left: the clock stands at its start.
      expect(refused.headers.get('retry-after')).toBe('900');
    }
    expect(outboxMessages().filter((m) => m.to === known && m.template === 'password_reset')).toHaveLength(3);
  });

  it('limits requests per source address', async () => {
    // Every request comes from 127.0.0.1: 9 for as many addresses use up the network's 9.
    for (let i = 0; i < 9; i++) expect((await requestReset(unique(`address-${i}`))).status).toBe(202);
    const refused = await requestReset(unique('fresh'));
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toMatch(/from your network/);
    expect(refused.headers.get('retry-after')).toBe('900');
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
    expect(refused.headers.get('retry-after')).toBe('900');
    // A window later, guessing may go on.
    testClock.advance(WINDOW_MS);
    expect((await client.post(path, { current_password: 'a guess again', password: 'whatever it is' })).status).toBe(422);
  });
});
