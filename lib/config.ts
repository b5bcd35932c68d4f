// Configuration is read from the environment once (at cold start) and validated with zod,
// so a missing or malformed variable fails loudly before any request is served.
import * as z from 'zod';
import { lazyObject, lazySchema } from './lazy-schema';
import { onEnvironmentChange } from './dependencies';

const bool = lazySchema(() =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
);

const optionalText = lazySchema(() =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional()),
);
export const DEFAULT_LIST_READ_BUDGET = 10_000;

const topicArn = lazySchema(() =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/, 'an SNS topic ARN')
      .optional(),
  ),
);

const ulidSetting = lazySchema(() =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a ULID')
      .optional(),
  ),
);

/** A request limit: a whole number from 1 to 10 000 000. */
const limit = lazySchema(() =>
  z.coerce
    .number({ error: 'a whole number from 1 to 10000000' })
    .int('a whole number from 1 to 10000000')
    .min(1, 'a whole number from 1 to 10000000')
    .max(10_000_000, 'a whole number from 1 to 10000000'),
);

const schema = lazyObject(() => ({
  TABLE_NAME: z.string().min(3),
  INGEST_QUEUE_URL: z.string().optional(),
  ROUTING_QUEUE_URL: z.string().optional(),
  ESCALATION_QUEUE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(16).optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 3600),
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).default(10),
  SIGNUP_ENABLED: bool,
  /** The local outbox: console, memory and log record every message as sent (nothing leaves the
   * machine); none leaves each channel to its configured provider (else recorded failed). */
  OUTBOX: z.enum(['console', 'log', 'memory', 'none']).default('none'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  INGEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().max(10_000_000).default(600),
  INGEST_RATE_LIMIT_BURST: z.coerce.number().int().positive().max(1_000_000).default(2000),
  /** Requests each credential (API key, a person's login sessions) may make: the sustained rate and the burst (docs/api.md#request-limits). */
  API_RATE_LIMIT_PER_MINUTE: limit.default(1200),
  API_RATE_LIMIT_BURST: limit.default(200),
  /** Requests each account may make, all its credentials together. */
  ACCOUNT_RATE_LIMIT_PER_MINUTE: limit.default(6000),
  /** Divides relative timers (docs/api.md#escalation-and-notifications): rule delays, aggregate windows, webhook retries; the inbound rate limiter's minute too. */
  TIME_SCALE: z.coerce.number().positive().default(1),
  /** SNS messages whose signing certificate cannot be fetched (no network path to SNS) are failed
   * instead of accepted as unverified. */
  SNS_SIGNATURE_REQUIRED: bool,
  /** Base of the inbound addresses shown as integrations' `url` (default: the request's own host). */
  PUBLIC_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  /** The console's address, the base of the links e-mailed to people (password reset, one-click
   * responses to pages). */
  CONSOLE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  PASSWORD_RESET_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  /** Password reset requests allowed per e-mail address, and per source address, in 15 minutes. */
  PASSWORD_RESET_PER_EMAIL: z.coerce.number().int().positive().default(8),
  PASSWORD_RESET_PER_IP: z.coerce.number().int().positive().default(100),
  WEBHOOK_QUEUE_URL: z.string().optional(),
  /** Lets automations and outgoing webhooks reach loopback, private and link-local addresses (docs/api.md#automations). */
  ALLOW_PRIVATE_AUTOMATION_TARGETS: bool,
  /** Lets single sign-on issuers be plain http or on loopback and private addresses: local tests and development only (docs/api.md#single-sign-on). */
  ALLOW_INSECURE_SSO_ISSUER: bool,
  /** Lets the console's imports (POST /api/v4/imports) read a source at plain http or on loopback and private addresses: local tests and development only (docs/api.md#imports). */
  ALLOW_PRIVATE_IMPORT_SOURCES: bool,
  /** Objects a list reads at most to answer a query outside its indexes; beyond it the query is
   * refused (422/400) naming the filters and sorts that are indexed (docs/api.md#lists). */
  LIST_READ_BUDGET: z.coerce.number().int().positive().default(DEFAULT_LIST_READ_BUDGET),
  /** Signs one-click response links; generated once and kept in the table when unset. */
  RESPONSE_TOKEN_SECRET: z.string().min(32).optional(),
  // Deployed delivery (README "Delivering notifications"): each channel's provider is enabled by its
  // variables; a channel without one goes to the local outbox (OUTBOX), else is recorded failed.
  /** E-mail through Amazon SES (v2 SendEmail): the sender, e.g. `On-call <oncall@example.com>`
   * (an address or domain verified in SES). */
  SES_FROM_ADDRESS: optionalText,
  /** An SES configuration set for the messages (event destinations, dedicated IPs). */
  SES_CONFIGURATION_SET: optionalText,
  /** SMS through AWS End User Messaging SMS and Voice v2 (SendTextMessage): the origination identity
   * (a phone number, its ARN or id, a pool's ARN or id, or a sender id). */
  SMS_ORIGINATION_IDENTITY: optionalText,
  /** Voice calls (SendVoiceMessage, text to speech): a voice-capable origination identity. */
  VOICE_ORIGINATION_IDENTITY: optionalText,
  /** An End User Messaging configuration set for SMS and voice messages. */
  SMS_CONFIGURATION_SET: optionalText,
  /** The text-to-speech voice of calls (End User Messaging's VoiceId). */
  VOICE_ID: z
    .string()
    .regex(/^[A-Z_]+$/, 'an End User Messaging VoiceId such as JOANNA')
    .default('JOANNA'),
  /** Calls you can answer (README "Voice you can answer"): the Amazon Chime SDK SIP media application
   * that places pages by voice (CreateSipMediaApplicationCall) and runs the live call routing, and
   * the number its calls come from (E.164). Both, or voice stays End User Messaging's. */
  VOICE_SIP_MEDIA_APPLICATION_ID: optionalText,
  VOICE_FROM_NUMBER: optionalText,
  /** The bucket voicemails of live calls are recorded to (the stack's, with -c voiceProvider=chime). */
  VOICEMAIL_BUCKET: optionalText,
  /** The SNS topic End User Messaging publishes inbound SMS to: only its messages are read as
   * replies to pages (A / R); unset, the inbound SMS route answers 404. */
  SMS_INBOUND_TOPIC_ARN: topicArn,
  /** The SNS topic SES and End User Messaging publish delivery events to (the stack's): only its
   * messages are read as delivery receipts; unset, the receipts route answers 404. */
  DELIVERY_TOPIC_ARN: topicArn,
  /** Web Push: the VAPID subject (a `mailto:` or `https:` URL where push services can reach the
   * operator). Setting it sends push notifications through the browsers' push services. */
  WEB_PUSH_SUBJECT: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^(https|mailto)$/ }).optional()),
  /** VAPID keys (base64url, as `web-push generate-vapid-keys` prints them); both or neither. Unset,
   * a pair is generated once and kept in the table, like the JWT secret. */
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  /** Encrypts secrets stored in the table (a Slack workspace's bot token and signing secret) with
   * AES-256-GCM: any string of at least 32 characters, from which the key is derived. Unset, a random
   * key is generated once and kept in the table, like the JWT secret. */
  SECRETS_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32, 'at least 32 characters').optional()),
  /** Slack's Web API (docs/api.md#slack): every method is called at this base + the method's name. */
  SLACK_API_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/ }).default('https://slack.com/api/')),
  /** A Slack app of the deployment's own: turns on "Add to Slack" (GET /api/v4/slack/install and the
   * OAuth redirect GET /public/slack/oauth); all three or none. The signing secret checks the requests
   * Slack sends for every workspace that installed the app. */
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  /** The canary (README "Monitoring"): every 15 minutes an alert to this team of that account, checked
   * for a page and resolved by itself; both ids (ULIDs, as GET /api/v4/teams and /api/v4/account show
   * them) or neither. */
  CANARY_TEAM_ID: ulidSetting,
  CANARY_ACCOUNT_ID: ulidSetting,
}));

export type Config = z.infer<typeof schema>;

function checkPairs(config: Config): string | null {
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    return 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: give both or neither';
  }
  const slackApp = [config.SLACK_CLIENT_ID, config.SLACK_CLIENT_SECRET, config.SLACK_SIGNING_SECRET].filter(Boolean).length;
  if (slackApp !== 0 && slackApp !== 3) return 'SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET: give all three or none';
  if (Boolean(config.CANARY_TEAM_ID) !== Boolean(config.CANARY_ACCOUNT_ID))
    return 'CANARY_TEAM_ID and CANARY_ACCOUNT_ID: give both or neither';
  return null;
}

let cached: Config | undefined;
// The local runtime and tests set the environment before first use, and point the process elsewhere.
onEnvironmentChange(() => {
  cached = undefined;
});

export function config(): Config {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid configuration: ${fields}`);
    }
    const problem = checkPairs(parsed.data);
    if (problem) throw new Error(`Invalid configuration: ${problem}`);
    cached = parsed.data;
  }
  return cached;
}
