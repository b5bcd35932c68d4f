// Entry point: Slack (/api/v4/slack, /public/slack/*). Flow: the account's connection (admin:
// connect by bot token, read, disconnect, "Add to Slack" and its redirect), and what Slack sends
// (button clicks and /oncall, verified by their signature) → lib/slack use case → JSON, a page for
// the browser Slack redirects, or the ephemeral answer Slack shows.
// Each route loads its use case with its first request (a chunk of its own in the deployed bundle):
// a cold start that answers a click does not load /oncall's rule matching or the install flow, and
// one that answers /oncall does not load the clicks' (issue 21).
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf, configuredConsoleBase } from '../../lib/http/base-url';
import { noContent, ok } from '../../lib/http/replies';
import type { ApiRequest } from '../../lib/http/request';
import { slackRoutes } from '../../lib/slack/routes';
import { loadOnce } from '../../lib/load-once';

const loadSlackInteractions = /* @__PURE__ */ loadOnce(() => import('../../lib/slack/interactions'));
const loadSlackCommands = /* @__PURE__ */ loadOnce(() => import('../../lib/slack/commands'));

const connection = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/slack/connection'), import('../../lib/slack/represent')]));
const install = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/slack/install'), import('../../lib/slack/install-page')]));

/** Where Slack sends the admin's browser back: the console's address (which serves the API), else this request's. */
const serviceBase = (req: ApiRequest) => configuredConsoleBase() ?? baseUrlOf(req);

const slackRequest = (req: ApiRequest) => ({ headers: req.headers, body: req.bodyBytes() });

export const handler = httpHandler(slackRoutes, {
  connect: async (req) => {
    const [{ connectSlack }, { slackConnectionToV4 }] = await connection();
    return ok(slackConnectionToV4(await connectSlack(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ readSlackConnection }, { slackConnectionToV4 }] = await connection();
    return ok(slackConnectionToV4(await readSlackConnection(req.principal)));
  },
  disconnect: async (req) => {
    const [{ disconnectSlack }] = await connection();
    await disconnectSlack(req.principal);
    return noContent();
  },
  install: async (req) => {
    const [{ slackInstallUrl }] = await install();
    return ok(await slackInstallUrl(req.principal, serviceBase(req)));
  },
  oauth: async (req) => {
    const [{ completeSlackInstall }, { INSTALL_PAGE_HEADERS, installPage }] = await install();
    const outcome = await completeSlackInstall(req.query, serviceBase(req));
    const accept = req.headers.accept ?? '';
    if (accept.includes('application/json') && !accept.includes('text/html')) {
      return { status: outcome.status, body: outcome, headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } };
    }
    return {
      status: outcome.status,
      text: { contentType: 'text/html; charset=utf-8', body: installPage(outcome) },
      headers: INSTALL_PAGE_HEADERS,
    };
  },
  interactions: async (req) => {
    const { receiveInteraction } = await loadSlackInteractions();
    await receiveInteraction(slackRequest(req));
    // Slack reads only the status of a click's answer; what was done follows through response_url.
    return { status: 200 };
  },
  commands: async (req) => {
    const { receiveCommand } = await loadSlackCommands();
    return ok(await receiveCommand(slackRequest(req)));
  },
});
