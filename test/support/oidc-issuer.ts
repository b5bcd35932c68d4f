// A real OpenID provider on loopback for the single sign-on tests: the `oidc-provider` package (a
// certified implementation) with its development login and consent pages, one confidential client
// per test account, and people given by the test (their e-mail, whether it is verified, their name).
// `signInAt` plays the browser: it follows the authorization URL through the provider's login and
// consent forms (cookies kept, as a browser would) up to the redirect to our callback, and returns
// that address without opening it, so a test can open it, open it twice, or change it first.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface IssuerPerson {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface IssuerClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export class OidcIssuer {
  private constructor(
    readonly issuer: string,
    private readonly server: http.Server,
    readonly people: Map<string, IssuerPerson>,
  ) {}

  /** `idTokenSeconds`: how long the ID tokens it issues are valid. */
  static async start(clients: IssuerClient[], options: { idTokenSeconds?: number } = {}): Promise<OidcIssuer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const people = new Map<string, IssuerPerson>();
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const provider = new Provider(issuer, {
      clients: clients.map((client) => ({
        ...client,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }] },
      cookies: { keys: ['oidc-issuer-test-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Real providers (Okta, Entra, Google) put the scopes' claims in the ID token itself.
      conformIdTokenClaims: false,
      pkce: { required: () => true, methods: ['S256'] },
      ttl: { IdToken: options.idTokenSeconds ?? 3600 },
      features: { devInteractions: { enabled: true } },
      findAccount: (_ctx, id) => {
        const person = people.get(id);
        if (!person) return undefined;
        return { accountId: id, claims: () => ({ sub: id, ...person }) };
      },
    });
    // An error inside the provider would otherwise show only as a 500 page in a failing test.
    provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
    const answer = provider.callback();
    server.on('request', (req, res) => {
      void answer(req, res);
    });
    return new OidcIssuer(issuer, server, people);
  }

  /** A person who can sign in with their e-mail as the login (any password). */
  addPerson(person: IssuerPerson): void {
    this.people.set(person.email, person);
  }

  /**
   * Follows an authorization URL as a browser would, signing in as `login` and consenting, and
   * returns the address the provider sends the browser back to (our callback, with code and state).
   */
  async signInAt(authorizationUrl: string, login: string): Promise<URL> {
    const cookies = new Map<string, string>();
    const keep = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
    };
    const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let url = new URL(authorizationUrl);
    let form: URLSearchParams | null = null;
    for (let step = 0; step < 12; step++) {
      const res = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { cookie: cookieHeader(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body: form?.toString(),
      });
      keep(res);
      form = null;
      const location = res.headers.get('location');
      if (location) {
        const next = new URL(location, url);
        if (next.origin !== new URL(this.issuer).origin) return next;
        url = next;
        continue;
      }
      const page = await res.text();
      if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      if (!action) throw new Error(`no form on the provider's page: ${page.slice(0, 300)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url);
      form = page.includes('name="login"')
        ? new URLSearchParams({ prompt: 'login', login, password: 'any password' })
        : new URLSearchParams({ prompt: 'consent' });
    }
    throw new Error('the provider did not send the browser back within 12 steps');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
