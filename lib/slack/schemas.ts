// Input schemas of the Slack connection, what Slack posts us, and the Slack routes' answers
// (docs/api.md#slack).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';
import { instant } from '../http/response-fields';

/** A bot token (`xoxb-…`, or a rotating one `xoxe.xoxb-…`); a user token cannot post as the bot. */
const botToken = lazySchema(() =>
  z
    .string()
    .trim()
    .max(512)
    .refine((value) => /^(xoxe\.)?xoxb-[A-Za-z0-9-]+$/.test(value), { message: 'must be a Slack bot token (xoxb-…)' }),
);

/** The app's Signing Secret (Basic Information → App Credentials). */
const signingSecret = lazySchema(() =>
  z
    .string()
    .trim()
    .refine((value) => /^[A-Za-z0-9]{16,128}$/.test(value), {
      message: "must be the Slack app's Signing Secret (Basic Information, App Credentials: letters and digits)",
    }),
);

export const connectSlackInput = lazyObject(() => ({
  bot_token: botToken,
  signing_secret: signingSecret,
}));

export type ConnectSlackInput = z.infer<typeof connectSlackInput>;

// ---- what Slack posts (form-encoded, verified by its X-Slack-Signature over the raw body) ----
// The use cases read these bodies from the raw bytes the signature covers; the schemas say, in the
// document, what Slack sends.

/** A click on a message's button. */
export const slackInteractionForm = lazyObject(() => ({
  payload: z
    .string()
    .describe('The interaction as JSON: type block_actions, team.id, user.id, actions[0] (action_id, value, action_ts), response_url'),
}));

/** The /oncall slash command. */
export const slackCommandForm = lazyObject(() => ({
  team_id: z.string(),
  user_id: z.string(),
  command: z.string().describe('/oncall'),
  text: z.string().describe('"", "ack <tiny id>", "resolve <tiny id>", or "page <team> <title…>"'),
  response_url: z.string().optional(),
  trigger_id: z.string().optional(),
}));

// ---- representations: what represent.ts and the use cases return, and the document shows ----

/** GET /api/v4/slack: the connected workspace (never its bot token or signing secret). */
export const SlackConnectionV4 = lazyStrictObject(() => ({
  connected: z.literal(true),
  team_id: z.string(),
  team_name: z.string(),
  bot_user_id: z.string(),
  connected_at: instant,
}));

/** GET /api/v4/slack/install: Slack's authorize URL for "Add to Slack". */
export const SlackInstallV4 = lazyStrictObject(() => ({ url: z.string() }));

/** GET /public/slack/oauth with Accept: application/json (browsers get a page). */
export const SlackInstallOutcome = lazyStrictObject(() => ({
  status: z.union([z.literal(200), z.literal(400), z.literal(404), z.literal(409), z.literal(410), z.literal(502)]),
  title: z.string(),
  detail: z.string(),
  team_id: z.string().nullable(),
  team_name: z.string().nullable(),
}));

/** POST /public/slack/commands: the ephemeral answer Slack shows the person. */
export const SlackCommandAnswer = lazyStrictObject(() => ({ response_type: z.literal('ephemeral'), text: z.string() }));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(connectSlackInput, { id: 'SlackConnectInput' });
documentNames.add(slackInteractionForm, { id: 'SlackInteractionForm' });
documentNames.add(slackCommandForm, { id: 'SlackCommandForm' });
documentNames.add(SlackConnectionV4, { id: 'SlackConnectionV4' });
documentNames.add(SlackInstallV4, { id: 'SlackInstallV4' });
documentNames.add(SlackInstallOutcome, { id: 'SlackInstallOutcome' });
documentNames.add(SlackCommandAnswer, { id: 'SlackCommandAnswer' });
