// The configuration's rules as lib/config.ts wrote them with zod/mini until issue 21 (a hand-written
// validator replaced them to spare every cold start zod/mini's builders): the reference
// test/config-reference.test.ts holds the validator to, answer for answer. Not the service's code.
import * as z from 'zod/mini';

/** A blank value (`''`) read as unset. */
const blankIsUnset = () => z.transform((v: unknown) => (v === '' ? undefined : v));

/** A blank or all-whitespace value read as unset. */
const whitespaceIsUnset = () => z.transform((v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v));

const bool = () =>
  z.pipe(
    z.optional(z.enum(['true', 'false', '1', '0', ''], { error: 'true, false, 1, 0 or blank' })),
    z.transform((v) => v === 'true' || v === '1'),
  );

const optionalText = () => z.pipe(whitespaceIsUnset(), z.optional(z.string().check(z.trim())));

const DEFAULT_LIST_READ_BUDGET = 10_000;

const topicArn = () =>
  z.pipe(
    blankIsUnset(),
    z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/, 'an SNS topic ARN'))),
  );

const ulidSetting = () =>
  z.pipe(whitespaceIsUnset(), z.optional(z.string({ error: 'a ULID' }).check(z.trim(), z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a ULID'))));

/** A number read from its text (`Number`), finite, meeting `test`, else refused with `message`. */
const numberWhere = (test: (n: number) => boolean, message: string) => z.coerce.number({ error: message }).check(z.refine(test, message));

/** A whole number from 1 (to `max`, when given). */
const whole = (max?: number) => {
  const message = max === undefined ? 'a whole number above 0' : `a whole number from 1 to ${max}`;
  return numberWhere((n) => Number.isSafeInteger(n) && n > 0 && (max === undefined || n <= max), message);
};

/** A request limit: a whole number from 1 to 10 000 000. */
const limit = () => whole(10_000_000);

/** Text of at least `min` characters. */
const atLeast = (min: number, error = `at least ${min} characters`) => z.string({ error }).check(z.minLength(min, error));

/** A URL whose scheme `protocol` matches. */
const address = (protocol: RegExp, error: string) => z.url({ protocol, error });

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `one of ${values.join(', ')}` });

const shape = () => ({
  TABLE_NAME: atLeast(3, 'a table name of at least 3 characters'),
  INGEST_QUEUE_URL: z.optional(z.string()),
  ROUTING_QUEUE_URL: z.optional(z.string()),
  ESCALATION_QUEUE_URL: z.optional(z.string()),
  JWT_SECRET: z.optional(atLeast(16)),
  JWT_TTL_SECONDS: z._default(whole(), 12 * 3600),
  AUTH_CACHE_SECONDS: z._default(
    numberWhere((n) => n >= 0, 'a number of seconds, 0 or more'),
    10,
  ),
  SIGNUP_ENABLED: bool(),
  /** The local outbox: console, memory and log record every message as sent (nothing leaves the
   * machine); none leaves each channel to its configured provider (else recorded failed). */
  OUTBOX: z._default(oneOf(['console', 'log', 'memory', 'none']), 'none'),
  LOG_LEVEL: z._default(oneOf(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  INGEST_RATE_LIMIT_PER_MINUTE: z._default(whole(10_000_000), 600),
  INGEST_RATE_LIMIT_BURST: z._default(whole(1_000_000), 2000),
  /** Requests each credential (API key, a person's login sessions) may make: the sustained rate and the burst (docs/api.md#request-limits). */
  API_RATE_LIMIT_PER_MINUTE: z._default(limit(), 1200),
  API_RATE_LIMIT_BURST: z._default(limit(), 200),
  /** Requests each account may make, all its credentials together. */
  ACCOUNT_RATE_LIMIT_PER_MINUTE: z._default(limit(), 6000),
  /** Divides relative timers (docs/api.md#escalation-and-notifications): rule delays, aggregate windows, webhook retries; the inbound rate limiter's minute too. */
  TIME_SCALE: z._default(
    numberWhere((n) => n > 0, 'a number above 0'),
    1,
  ),
  /** SNS messages whose signing certificate cannot be fetched (no network path to SNS) are failed
   * instead of accepted as unverified. */
  SNS_SIGNATURE_REQUIRED: bool(),
  /** Base of the inbound addresses shown as integrations' `url` (default: the request's own host). */
  PUBLIC_BASE_URL: z.pipe(blankIsUnset(), z.optional(address(/^https?$/, 'an http or https URL'))),
  /** The console's address, the base of the links e-mailed to people (password reset, one-click
   * responses to pages). */
  CONSOLE_URL: z.pipe(blankIsUnset(), z.optional(address(/^https?$/, 'an http or https URL'))),
  PASSWORD_RESET_TTL_SECONDS: z._default(whole(), 3600),
  /** Password reset requests allowed per e-mail address, and per source address, in 15 minutes. */
  PASSWORD_RESET_PER_EMAIL: z._default(whole(), 8),
  PASSWORD_RESET_PER_IP: z._default(whole(), 100),
  WEBHOOK_QUEUE_URL: z.optional(z.string()),
  /** Lets automations and outgoing webhooks reach loopback, private and link-local addresses (docs/api.md#automations). */
  ALLOW_PRIVATE_AUTOMATION_TARGETS: bool(),
  /** Lets single sign-on issuers be plain http or on loopback and private addresses: local tests and development only (docs/api.md#single-sign-on). */
  ALLOW_INSECURE_SSO_ISSUER: bool(),
  /** Lets the console's imports (POST /api/v4/imports) read a source at plain http or on loopback and private addresses: local tests and development only (docs/api.md#imports). */
  ALLOW_PRIVATE_IMPORT_SOURCES: bool(),
  /** Objects a list reads at most to answer a query outside its indexes; beyond it the query is
   * refused (422/400) naming the filters and sorts that are indexed (docs/api.md#lists). */
  LIST_READ_BUDGET: z._default(whole(), DEFAULT_LIST_READ_BUDGET),
  /** Signs one-click response links; generated once and kept in the table when unset. */
  RESPONSE_TOKEN_SECRET: z.optional(atLeast(32)),
  // Deployed delivery (README "Delivering notifications"): each channel's provider is enabled by its
  // variables; a channel without one goes to the local outbox (OUTBOX), else is recorded failed.
  /** E-mail through Amazon SES (v2 SendEmail): the sender, e.g. `On-call <oncall@example.com>`
   * (an address or domain verified in SES). */
  SES_FROM_ADDRESS: optionalText(),
  /** An SES configuration set for the messages (event destinations, dedicated IPs). */
  SES_CONFIGURATION_SET: optionalText(),
  /** SMS through AWS End User Messaging SMS and Voice v2 (SendTextMessage): the origination identity
   * (a phone number, its ARN or id, a pool's ARN or id, or a sender id). */
  SMS_ORIGINATION_IDENTITY: optionalText(),
  /** Voice calls (SendVoiceMessage, text to speech): a voice-capable origination identity. */
  VOICE_ORIGINATION_IDENTITY: optionalText(),
  /** An End User Messaging configuration set for SMS and voice messages. */
  SMS_CONFIGURATION_SET: optionalText(),
  /** The text-to-speech voice of calls (End User Messaging's VoiceId). */
  VOICE_ID: z._default(z.string().check(z.regex(/^[A-Z_]+$/, 'an End User Messaging VoiceId such as JOANNA')), 'JOANNA'),
  /** Calls you can answer (README "Voice you can answer"): the Amazon Chime SDK SIP media application
   * that places pages by voice (CreateSipMediaApplicationCall) and runs the live call routing, and
   * the number its calls come from (E.164). Both, or voice stays End User Messaging's. */
  VOICE_SIP_MEDIA_APPLICATION_ID: optionalText(),
  VOICE_FROM_NUMBER: optionalText(),
  /** The bucket voicemails of live calls are recorded to (the stack's, with -c voiceProvider=chime). */
  VOICEMAIL_BUCKET: optionalText(),
  /** The SNS topic End User Messaging publishes inbound SMS to: only its messages are read as
   * replies to pages (A / R); unset, the inbound SMS route answers 404. */
  SMS_INBOUND_TOPIC_ARN: topicArn(),
  /** The SNS topic SES and End User Messaging publish delivery events to (the stack's): only its
   * messages are read as delivery receipts; unset, the receipts route answers 404. */
  DELIVERY_TOPIC_ARN: topicArn(),
  /** Web Push: the VAPID subject (a `mailto:` or `https:` URL where push services can reach the
   * operator). Setting it sends push notifications through the browsers' push services. */
  WEB_PUSH_SUBJECT: z.pipe(blankIsUnset(), z.optional(address(/^(https|mailto)$/, 'an https or mailto URL'))),
  /** VAPID keys (base64url, as `web-push generate-vapid-keys` prints them); both or neither. Unset,
   * a pair is generated once and kept in the table, like the JWT secret. */
  VAPID_PUBLIC_KEY: optionalText(),
  VAPID_PRIVATE_KEY: optionalText(),
  /** Encrypts secrets stored in the table (a Slack workspace's bot token and signing secret) with
   * AES-256-GCM: any string of at least 32 characters, from which the key is derived. Unset, a random
   * key is generated once and kept in the table, like the JWT secret. */
  SECRETS_KEY: z.pipe(blankIsUnset(), z.optional(atLeast(32))),
  /** Slack's Web API (docs/api.md#slack): every method is called at this base + the method's name. */
  SLACK_API_URL: z.pipe(blankIsUnset(), z._default(address(/^https?$/, 'an http or https URL'), 'https://slack.com/api/')),
  /** A Slack app of the deployment's own: turns on "Add to Slack" (GET /api/v4/slack/install and the
   * OAuth redirect GET /public/slack/oauth); all three or none. The signing secret checks the requests
   * Slack sends for every workspace that installed the app. */
  SLACK_CLIENT_ID: optionalText(),
  SLACK_CLIENT_SECRET: optionalText(),
  SLACK_SIGNING_SECRET: optionalText(),
  /** The canary (README "Monitoring"): every 15 minutes an alert to this team of that account, checked
   * for a page and resolved by itself; both ids (ULIDs, as GET /api/v4/teams and /api/v4/account show
   * them) or neither. */
  CANARY_TEAM_ID: ulidSetting(),
  CANARY_ACCOUNT_ID: ulidSetting(),
});

const makeSchema = () => z.object(shape());
let schema: ReturnType<typeof makeSchema> | undefined;

/** What the configuration was for `env`: the settings read, or the message of its refusal (the pairs' checks left out: lib/config.ts keeps them as they were). */
export function referenceConfig(env: Record<string, string | undefined>): { read: Record<string, unknown> } | { refused: string } {
  const parsed = (schema ??= makeSchema()).safeParse(env);
  if (parsed.success) return { read: parsed.data };
  return { refused: `Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
}
