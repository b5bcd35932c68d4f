// The routes of the `slack` function (functions/http/slack.ts), docs/api.md#slack: the account's
// workspace, "Add to Slack", and what Slack sends (signed with the workspace's signing secret: the
// signature is the credential).
import { declareRoutes, BODY_ERRORS, READ_ERRORS } from '../http/route-contract';
import { ADMIN_ONLY } from '../http/standard-routes';
import {
  connectSlackInput,
  slackCommandForm,
  slackInteractionForm,
  SlackCommandAnswer,
  SlackConnectionV4,
  SlackInstallOutcome,
  SlackInstallV4,
} from './schemas';

export const slackRoutes = declareRoutes('slack', {
  connect: {
    method: 'PUT',
    path: '/api/v4/slack',
    summary: 'Connect a Slack workspace',
    description:
      "Body: the bot token (xoxb-…) and the app's Signing Secret. The token is checked with Slack's auth.test (refused: 422 naming bot_token; Slack unreachable: 502); the workspace's team_id, team_name and the bot's user id are kept, the secrets stored encrypted and never shown. One workspace belongs to at most one account (409). Connecting again replaces the connection. " +
      ADMIN_ONLY,
    tag: 'Slack',
    body: connectSlackInput,
    success: [{ status: 200, description: 'Connected', schema: SlackConnectionV4 }],
    errors: [401, 403, 409, 502, ...BODY_ERRORS],
  },
  get: {
    method: 'GET',
    path: '/api/v4/slack',
    summary: 'The connected Slack workspace',
    description: '404 when Slack is not connected. Never the bot token or the signing secret.',
    tag: 'Slack',
    success: [{ status: 200, description: 'The connection', schema: SlackConnectionV4 }],
    errors: READ_ERRORS,
  },
  disconnect: {
    method: 'DELETE',
    path: '/api/v4/slack',
    summary: 'Disconnect Slack',
    description: `Pages on the slack channel then fail ("Slack is not connected"). ${ADMIN_ONLY}`,
    tag: 'Slack',
    success: [{ status: 204, description: 'Disconnected' }],
    errors: [401, 403, 404],
  },
  install: {
    method: 'GET',
    path: '/api/v4/slack/install',
    summary: '"Add to Slack": the authorize URL',
    description: `Slack's authorize URL with the bot scopes and a signed state naming the account, valid 10 minutes; open it in the admin's browser. 404 unless the deployment sets SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET. ${ADMIN_ONLY}`,
    tag: 'Slack',
    success: [{ status: 200, description: 'The URL', schema: SlackInstallV4 }],
    errors: [401, 403, 404],
  },
  oauth: {
    method: 'GET',
    path: '/public/slack/oauth',
    public: true,
    summary: '"Add to Slack": where Slack sends the browser back',
    description:
      "Exchanges Slack's code (oauth.v2.access) and connects the workspace to the account the state names. Browsers get a page; clients that send Accept: application/json get the JSON. 400: Slack sent no code (or the admin cancelled); 404: not a valid state, or Add to Slack is not configured; 410: the state expired (10 minutes); 409: the workspace belongs to another account; 502: Slack refused the code.",
    tag: 'Slack',
    query: [
      { name: 'code', required: false, description: "Slack's temporary code" },
      { name: 'state', required: false, description: 'The state of GET /api/v4/slack/install' },
      { name: 'error', required: false, description: 'Set by Slack when the admin did not allow the app' },
    ],
    success: [
      { status: 200, description: 'Connected', schema: SlackInstallOutcome, html: true },
      { status: 400, description: 'No code, or the admin cancelled', schema: SlackInstallOutcome, html: true },
      { status: 404, description: 'Not a valid state', schema: SlackInstallOutcome, html: true },
      { status: 409, description: 'The workspace is connected to another account', schema: SlackInstallOutcome, html: true },
      { status: 410, description: 'The state expired', schema: SlackInstallOutcome, html: true },
      { status: 502, description: 'Slack refused the code', schema: SlackInstallOutcome, html: true },
    ],
    errors: [],
  },
  interactions: {
    method: 'POST',
    path: '/public/slack/interactions',
    public: true,
    summary: 'Button clicks from Slack',
    description:
      "Slack's interactivity request URL. Verified first: X-Slack-Request-Timestamp within 300 s and X-Slack-Signature (v0= HMAC-SHA256 of v0:<timestamp>:<raw body> with the signing secret of the workspace payload.team.id names); otherwise 401 and nothing changes. The Slack user acts as the account user whose slack_user_id they are: acknowledge, reject and resolve (value: the alert's alt_ id) as the v4 API does, or an answer to a broadcast. Refusals and unlinked users get an ephemeral explanation through response_url. Always answered within 3 s; the same click twice acts once.",
    tag: 'Slack',
    formOnly: true,
    body: slackInteractionForm,
    success: [{ status: 200, description: 'Received (what came of it follows through response_url and the alert’s messages)' }],
    errors: [400, 401],
  },
  commands: {
    method: 'POST',
    path: '/public/slack/commands',
    public: true,
    summary: 'The /oncall slash command',
    description:
      "Slack's slash command request URL, verified as interactions are (team_id names the workspace). /oncall: who is on call now for each of the person's teams, per layer; /oncall ack <tiny id>, /oncall resolve <tiny id>; /oncall page <team> <title…> (the team's \"Name\" in quotes, a name without spaces, or its tem_ id) creates an alert as the person. The answer is ephemeral. A verified form without the sender's user_id is 400.",
    tag: 'Slack',
    formOnly: true,
    body: slackCommandForm,
    success: [{ status: 200, description: 'The answer Slack shows the person', schema: SlackCommandAnswer }],
    errors: [400, 401],
  },
});
