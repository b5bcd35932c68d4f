// "Add to Slack" (docs/api.md#slack), when the deployment has a Slack app of its own
// (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET): GET /api/v4/slack/install answers Slack's authorize URL
// with the bot scopes and a signed state naming the account (valid 10 minutes); Slack sends the
// admin's browser back to GET /public/slack/oauth?code=…&state=…, which exchanges the code with
// oauth.v2.access and connects the workspace. Its answer is a short page for that browser.
import type * as z from 'zod';
import { requireAdmin } from '../auth/permissions';
import { config } from '../config';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { exchangeInstallCode } from '../slack-client/methods';
import { SlackCallFailed } from '../slack-client/web-api';
import { saveConnection } from './connection';
import { signInstallState, verifyInstallState } from './oauth-state';
import type { SlackInstallOutcome, SlackInstallV4 } from './schemas';

/** What the bot needs: post pages and team messages (also in public channels it was not invited to),
 * answer /oncall, and find people by e-mail. */
export const BOT_SCOPES = ['chat:write', 'chat:write.public', 'commands', 'users:read', 'users:read.email'] as const;

export const OAUTH_CALLBACK_PATH = '/public/slack/oauth';

/** The deployment's own Slack app: every workspace that installs it signs with the app's signing secret. */
function installConfigured(): { clientId: string; signingSecret: string } | null {
  const { SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET } = config();
  return SLACK_CLIENT_ID && SLACK_CLIENT_SECRET && SLACK_SIGNING_SECRET
    ? { clientId: SLACK_CLIENT_ID, signingSecret: SLACK_SIGNING_SECRET }
    : null;
}

/** Slack's pages live beside its API (https://slack.com/oauth/v2/authorize for https://slack.com/api/). */
function authorizeUrl(): URL {
  return new URL('/oauth/v2/authorize', config().SLACK_API_URL);
}

/** `baseUrl`: where this service is reached (the console's address, which serves the API too). */
export async function slackInstallUrl(principal: Principal, baseUrl: string): Promise<z.input<typeof SlackInstallV4>> {
  requireAdmin(principal, 'connect Slack');
  const app = installConfigured();
  if (!app)
    throw new NotFound(
      '"Add to Slack" is not configured: the deployment sets SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET',
    );
  const url = authorizeUrl();
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('scope', BOT_SCOPES.join(','));
  url.searchParams.set('redirect_uri', `${baseUrl}${OAUTH_CALLBACK_PATH}`);
  url.searchParams.set('state', await signInstallState(principal.accountId, principal.accountUserId));
  return { url: url.toString() };
}

export type InstallOutcome = z.input<typeof SlackInstallOutcome>;

const outcome = (status: InstallOutcome['status'], title: string, detail: string): InstallOutcome => ({
  status,
  title,
  detail,
  team_id: null,
  team_name: null,
});

/** Slack's redirect: exchanges the code and connects; every outcome is a page, none an exception. */
export async function completeSlackInstall(query: URLSearchParams, baseUrl: string): Promise<InstallOutcome> {
  const app = installConfigured();
  if (!app) return outcome(404, 'Not found', '"Add to Slack" is not configured on this deployment.');
  const denied = query.get('error');
  if (denied) return outcome(400, 'Slack was not connected', `Slack answered: ${denied.slice(0, 100)}. Start again from the console.`);
  const code = query.get('code');
  const state = query.get('state');
  if (!code || !state || code.length > 500)
    return outcome(400, 'Slack was not connected', 'The address lacks the code or the state Slack sends.');
  const checked = await verifyInstallState(state);
  if (!checked.ok) {
    return checked.reason === 'expired'
      ? outcome(410, 'This link has expired', 'An installation must finish within 10 minutes. Start again from the console.')
      : outcome(404, 'This link is not valid', 'Start the installation again from the console.');
  }
  let installed;
  try {
    installed = await exchangeInstallCode(code, `${baseUrl}${OAUTH_CALLBACK_PATH}`);
  } catch (error) {
    if (!(error instanceof SlackCallFailed)) throw error;
    return outcome(502, 'Slack was not connected', `Slack did not give a bot token: ${error.code}. Start again from the console.`);
  }
  try {
    const record = await saveConnection(checked.state.accountId, {
      ...installed,
      signingSecret: app.signingSecret,
      via: 'oauth',
      by: checked.state.accountUserId,
    });
    return {
      status: 200,
      title: 'Slack is connected',
      detail: `The workspace ${record.team_name} now receives pages and team messages. You can close this page.`,
      team_id: record.team_id,
      team_name: record.team_name,
    };
  } catch (error) {
    if ((error as { status?: number }).status === 409) return outcome(409, 'Slack was not connected', (error as Error).message);
    throw error;
  }
}
