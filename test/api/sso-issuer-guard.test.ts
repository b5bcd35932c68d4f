// Single sign-on issuers as a deployment checks them, without ALLOW_INSECURE_SSO_ISSUER: plain http
// is refused, and so is an issuer whose host is, or resolves to, a loopback, private or link-local
// address (the cloud metadata address among them); each is a 422 naming issuer, and nothing is saved.
// sso.test.ts runs with the flag, against providers on loopback.
import { describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';

let service: TestService;
useService((started) => {
  service = started;
});

const messages = (res: { body: any }) => (res.body?.errors ?? []).map((e: { message: string }) => e.message).join(' | ');
const CLIENT = { client_id: 'oncall', client_secret: 'secret' };

describe('an issuer the service may not call', () => {
  it.each([
    ['plain http', 'http://issuer.example.com', /issuer could not be used: http is not allowed/],
    ['a loopback address', 'https://127.0.0.1:8443', /issuer could not be used: 127\.0\.0\.1 is refused: a loopback address/],
    [
      'a name that resolves to loopback',
      'https://localhost:8443',
      /issuer could not be used: localhost is refused: it resolves to (127\.0\.0\.1|::1), a loopback address/,
    ],
    ['a private address', 'https://10.1.2.3', /a private \(RFC 1918\) address/],
    ['the metadata address', 'https://169.254.169.254', /a link-local address \(cloud metadata\)/],
  ])('is refused: %s', async (_what, issuer, reason) => {
    const res = await service.admin.put('/api/v4/sso', { issuer, ...CLIENT });
    expect(res.status).toBe(422);
    expect(messages(res)).toMatch(reason);
    expect((await service.admin.get('/api/v4/sso')).status).toBe(404);
  });
});
