// A stand-in OpenID provider on loopback for the checks a real provider never fails: it speaks the
// wire format (discovery document, JWKS, authorization redirect, token endpoint with Basic client
// authentication and PKCE S256) and issues the ID token the test asks for: another audience, an
// expiry in the past, another nonce, or a signature by a key it does not publish.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

export interface TokenTwist {
  /** Claims laid over the ones the sign-in would carry (undefined removes one). */
  claims?: JWTPayload;
  /** Signs with a key the JWKS does not hold (same kid). */
  foreignKey?: boolean;
}

interface Authorization {
  clientId: string;
  redirectUri: string;
  nonce: string;
  challenge: string;
  email: string;
}

export class OidcStandIn {
  /** What the next ID token is made of; reset after each token. */
  twist: TokenTwist = {};
  /** Every token request's form, for the tests to read. */
  readonly tokenRequests: URLSearchParams[] = [];
  private readonly codes = new Map<string, Authorization>();

  private constructor(
    readonly issuer: string,
    private readonly server: http.Server,
    private readonly clients: Map<string, string>,
    private readonly key: CryptoKey,
    private readonly foreign: CryptoKey,
  ) {}

  static async start(clients: Record<string, string>): Promise<OidcStandIn> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const published = await generateKeyPair('ES256', { extractable: true });
    const foreign = await generateKeyPair('ES256');
    const standIn = new OidcStandIn(issuer, server, new Map(Object.entries(clients)), published.privateKey, foreign.privateKey);
    const jwk = { ...(await exportJWK(published.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server.on('request', (req, res) => {
      standIn.answer(req, res, jwk).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    return standIn;
  }

  /** Where the stand-in sends the browser for `authorizationUrl`, signing in as `email`. */
  async signInAt(authorizationUrl: string, email: string): Promise<URL> {
    const res = await fetch(`${authorizationUrl}&test_login=${encodeURIComponent(email)}`, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`the stand-in answered ${res.status}: ${await res.text()}`);
    return new URL(location);
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse, jwk: object): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, {
        clientId: q.get('client_id') ?? '',
        redirectUri: q.get('redirect_uri') ?? '',
        nonce: q.get('nonce') ?? '',
        challenge: q.get('code_challenge') ?? '',
        email: q.get('test_login') ?? '',
      });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      const form = new URLSearchParams(raw);
      this.tokenRequests.push(form);
      const [clientId, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      if (this.clients.get(clientId) !== secret) return json(401, { error: 'invalid_client' });
      const granted = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (
        !granted ||
        granted.clientId !== clientId ||
        granted.redirectUri !== form.get('redirect_uri') ||
        granted.challenge !== challenge
      ) {
        return json(400, { error: 'invalid_grant', error_description: 'code, redirect_uri or code_verifier does not match' });
      }
      const twist = this.twist;
      this.twist = {};
      const nowSeconds = Math.floor(Date.now() / 1000);
      const claims: JWTPayload = {
        iss: this.issuer,
        sub: `sub-${granted.email}`,
        aud: clientId,
        iat: nowSeconds,
        exp: nowSeconds + 300,
        nonce: granted.nonce,
        email: granted.email,
        email_verified: true,
        name: 'Stand-in Person',
        ...twist.claims,
      };
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .sign(twist.foreignKey ? this.foreign : this.key);
      return json(200, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: token });
    }
    json(404, { error: 'not_found' });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
