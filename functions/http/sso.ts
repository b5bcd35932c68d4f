// Entry point: single sign-on (/api/v4/sso, /public/sso/*). Flow: the account's settings (admins
// write them) and the steps of a sign-in (the accounts of an address, the start, the issuer's
// callback, the console's code exchange) → lib/sso use case → JSON, a redirect, or a page.
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf, configuredConsoleBase } from '../../lib/http/base-url';
import { noContent, ok } from '../../lib/http/replies';
import type { ApiRequest } from '../../lib/http/request';
import { loadOnce } from '../../lib/load-once';
import { deleteSso } from '../../lib/sso/delete-sso';
import { exchangeSignInCode } from '../../lib/sso/exchange-sign-in-code';
import { readSso } from '../../lib/sso/read-sso';
import { ssoSettingsToV4 } from '../../lib/sso/represent';
import { ssoRoutes } from '../../lib/sso/routes';
import { SIGN_IN_PAGE_HEADERS, signInRefusedPage } from '../../lib/sso/sign-in-page';
import { listSsoAccounts, ssoRedirectUri, startSignIn } from '../../lib/sso/start-sign-in';

// The two steps that call the issuer (the settings' discovery, the callback's token exchange: the
// outbound client and its address guard, ipaddr.js) load with their first request (issue 21).
const loadConfigure = /* @__PURE__ */ loadOnce(() => import('../../lib/sso/configure-sso'));
const loadComplete = /* @__PURE__ */ loadOnce(() => import('../../lib/sso/complete-sign-in'));

/** The console's address, which serves the API too (CONSOLE_URL), else this request's. */
const serviceBase = (req: ApiRequest) => configuredConsoleBase() ?? baseUrlOf(req);

/** A redirect that leaves nothing behind: the addresses carry a state, a code or a sign-in code. */
const redirect = (location: string) => ({
  status: 302 as const,
  headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
});

export const handler = httpHandler(ssoRoutes, {
  configure: async (req) => {
    const { configureSso } = await loadConfigure();
    return ok(ssoSettingsToV4(await configureSso(req.principal, req.body()), ssoRedirectUri(serviceBase(req))));
  },
  get: async (req) => ok(ssoSettingsToV4(await readSso(req.principal), ssoRedirectUri(serviceBase(req)))),
  remove: async (req) => {
    await deleteSso(req.principal);
    return noContent();
  },
  accounts: async (req) => ok(await listSsoAccounts(req.query, req.sourceIp)),
  start: async (req) => redirect(await startSignIn(req.query, serviceBase(req), req.sourceIp)),
  callback: async (req) => {
    const { completeSignIn } = await loadComplete();
    const outcome = await completeSignIn(req.query);
    if (outcome.ok) return redirect(`${serviceBase(req)}/#/sso/${outcome.code}`);
    return {
      status: 403 as const,
      text: { contentType: 'text/html; charset=utf-8', body: signInRefusedPage(outcome.reason, serviceBase(req)) },
      headers: SIGN_IN_PAGE_HEADERS,
    };
  },
  exchange: async (req) => ok(await exchangeSignInCode(req.body())),
});
