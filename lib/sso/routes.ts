// The routes of the `sso` function (functions/http/sso.ts), docs/api.md#single-sign-on: the account's
// OpenID Connect settings (admins write them), and the public steps of a sign-in: which accounts an
// address may use, the start (a redirect to the issuer), the issuer's callback and the console's
// exchange of the one-time code for a login token.
import { LoginResult } from '../accounts/schemas';
import { BODY_ERRORS, declareRoutes, READ_ERRORS } from '../http/route-contract';
import { ADMIN_ONLY } from '../http/standard-routes';
import { configureSsoInput, exchangeCodeInput, SsoAccountChoices, SsoSettingsV4 } from './schemas';

const WHO = [
  { name: 'email', required: false, description: 'The address of the person signing in' },
  { name: 'account_id', required: false, description: 'The account, when the address belongs to several with single sign-on' },
] as const;

export const ssoRoutes = declareRoutes('sso', {
  configure: {
    method: 'PUT',
    path: '/api/v4/sso',
    summary: 'Set up single sign-on (OpenID Connect)',
    description:
      "The issuer's discovery document (<issuer>/.well-known/openid-configuration) is read and checked on every save: it must name the same issuer, offer the code flow with PKCE S256 and sign ID tokens with an asymmetric algorithm; otherwise 422 naming issuer and nothing changes. The issuer must be https on a public address (unless the deployment sets ALLOW_INSECURE_SSO_ISSUER=true). The first save needs issuer, client_id and client_secret; later ones change only the fields sent. The client secret is stored encrypted and never shown. enforce: password sign-in of the account's non-admins is refused (403). create_users: a person the issuer vouches for who is not yet in the account is added with default_roles. " +
      ADMIN_ONLY,
    tag: 'Single sign-on',
    body: configureSsoInput,
    success: [{ status: 200, description: 'The settings (never the client secret)', schema: SsoSettingsV4 }],
    errors: [401, 403, 409, ...BODY_ERRORS],
  },
  get: {
    method: 'GET',
    path: '/api/v4/sso',
    summary: "The account's single sign-on settings",
    description:
      '404 while single sign-on is not set up. Never the client secret. redirect_uri is what to register at the identity provider.',
    tag: 'Single sign-on',
    success: [{ status: 200, description: 'The settings', schema: SsoSettingsV4 }],
    errors: READ_ERRORS,
  },
  remove: {
    method: 'DELETE',
    path: '/api/v4/sso',
    summary: 'Turn single sign-on off',
    description: `Everyone signs in with a password again. ${ADMIN_ONLY}`,
    tag: 'Single sign-on',
    success: [{ status: 204, description: 'Single sign-on is off' }],
    errors: [401, 403, 404],
  },
  accounts: {
    method: 'GET',
    path: '/public/sso/accounts',
    public: true,
    summary: 'The accounts an address signs in to with single sign-on',
    description:
      'No credentials. The accounts of the person with this address that have single sign-on (none for an unknown address), so the console can ask which one when there are several. Limited per source address (429).',
    tag: 'Single sign-on',
    query: [WHO[0]],
    success: [{ status: 200, description: 'The accounts', schema: SsoAccountChoices }],
    errors: [400, 429],
  },
  start: {
    method: 'GET',
    path: '/public/sso/start',
    public: true,
    summary: 'Start a single sign-on',
    description:
      "No credentials; open it in the browser. Redirects (302) to the account's issuer: authorization code flow with PKCE S256, state and nonce, scopes openid email profile, the address as login_hint. account_id picks the account; else the address's person must belong to exactly one account with single sign-on (several: 409). 404: no single sign-on for that address or account. The sign-in must finish within 10 minutes. Limited per source address (429).",
    tag: 'Single sign-on',
    query: WHO,
    success: [{ status: 302, description: "To the issuer's authorization endpoint (Location)" }],
    errors: [400, 404, 409, 429],
  },
  callback: {
    method: 'GET',
    path: '/public/sso/callback',
    public: true,
    summary: 'Where the issuer sends the browser back',
    description:
      "Checks the state (known, unexpired, unused), exchanges the code (with the PKCE verifier and the client secret), verifies the ID token (signature against the issuer's JWKS, iss, aud, exp, nonce) and signs in the account user whose e-mail is the token's verified email (email_verified true), creating one with the default roles when create_users is on. Then 302 to <console>/#/sso/<one-time code>. Any failed check: 403 with a short page naming the reason, and nobody is signed in.",
    tag: 'Single sign-on',
    query: [
      { name: 'state', required: false, description: 'The state sent to the issuer' },
      { name: 'code', required: false, description: "The issuer's authorization code" },
      { name: 'error', required: false, description: 'Set by the issuer when it refused' },
    ],
    success: [
      { status: 302, description: 'Signed in: to the console with a one-time code (Location)' },
      { status: 403, description: 'A check failed: a page naming the reason', text: 'text/html' },
    ],
    errors: [],
  },
  exchange: {
    method: 'POST',
    path: '/public/sso/exchange',
    public: true,
    summary: 'Trade a sign-in code for a login token',
    description:
      'No credentials. The one-time code of a finished single sign-on (valid 60 seconds, once) for the same login token POST /public/login answers. An unknown, expired or used code: 401.',
    tag: 'Single sign-on',
    body: exchangeCodeInput,
    success: [{ status: 200, description: 'A login token', schema: LoginResult }],
    errors: [400, 401, 413],
  },
});
