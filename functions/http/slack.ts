// Entry point: Slack (/api/v4/slack, /public/slack/*). Flow: the account's connection (admin:
// connect by bot token, read, disconnect, "Add to Slack" and its redirect), and what Slack sends
// (button clicks and /oncall, verified by their signature) → lib/slack use case → JSON, a page for
// the browser Slack redirects, or the ephemeral answer Slack shows.
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf, configuredConsoleBase } from '../../lib/http/base-url';
import { noContent, ok } from '../../lib/http/replies';
import type { ApiRequest } from '../../lib/http/request';
import { receiveCommand } from '../../lib/slack/commands';
import { connectSlack, disconnectSlack, readSlackConnection } from '../../lib/slack/connection';
import { completeSlackInstall, slackInstallUrl } from '../../lib/slack/install';
import { INSTALL_PAGE_HEADERS, installPage } from '../../lib/slack/install-page';
import { receiveInteraction } from '../../lib/slack/interactions';
import { slackConnectionToV4 } from '../../lib/slack/represent';
import { slackRoutes } from '../../lib/slack/routes';

/** Where Slack sends the admin's browser back: the console's address (which serves the API), else this request's. */
const serviceBase = (req: ApiRequest) => configuredConsoleBase() ?? baseUrlOf(req);

const slackRequest = (req: ApiRequest) => ({ headers: req.headers, body: req.bodyBytes() });

export const handler = httpHandler(slackRoutes, {
  connect: async (req) => ok(slackConnectionToV4(await connectSlack(req.principal, req.body()))),
  get: async (req) => ok(slackConnectionToV4(await readSlackConnection(req.principal))),
  disconnect: async (req) => {
    await disconnectSlack(req.principal);
    return noContent();
  },
  install: async (req) => ok(await slackInstallUrl(req.principal, serviceBase(req))),
  oauth: async (req) => {
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
    await receiveInteraction(slackRequest(req));
    // Slack reads only the status of a click's answer; what was done follows through response_url.
    return { status: 200 };
  },
  commands: async (req) => ok(await receiveCommand(slackRequest(req))),
});
