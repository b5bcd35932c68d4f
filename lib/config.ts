// Configuration is read from the environment once (at cold start) and validated, so a missing or
// malformed variable fails loudly before any request is served: every malformed one named, in the
// order below, with what it must be.
//
// Validated by hand, not with zod: every function reads its configuration at start, and zod/mini's
// builders were ~23 KiB and ~2 ms of every cold start for it (issue 21). The rules are zod's as the
// configuration used them (test/config-reference.test.ts compares the two over 10 000
// environments): a number is read with `Number` and must be finite, a URL is trimmed, parsed by
// WHATWG's parser and its scheme checked (an http one must be written with `://`), and so on.
import { onEnvironmentChange } from './dependencies';

/** A variable's value refused: the message says what it must be. */
class Refused {
  constructor(readonly message: string) {}
}

/** Reads one variable, set or unset: its value, or a Refused. */
type Setting<T> = (raw: string | undefined) => T | Refused;

/** Reads a variable's value once it is known to be set. */
type Reader<T> = (raw: string) => T | Refused;

const refused = (value: unknown): value is Refused => value instanceof Refused;

/** A required text of at least `min` characters. */
const atLeast =
  (min: number, error = `at least ${min} characters`): Setting<string> =>
  (raw) =>
    raw !== undefined && raw.length >= min ? raw : new Refused(error);

/** Unset stays unset (undefined); a value is read by `setting`. */
const optional =
  <T>(setting: Reader<T>): Setting<T | undefined> =>
  (raw) =>
    raw === undefined ? undefined : setting(raw);

/** Unset is `value`; a value is read by `setting`. */
const withDefault =
  <T>(setting: Reader<T>, value: T): Setting<T> =>
  (raw) =>
    raw === undefined ? value : setting(raw);

/** A blank value (`''`) read as unset. */
const blankIsUnset =
  <T>(setting: Setting<T>): Setting<T> =>
  (raw) =>
    setting(raw === '' ? undefined : raw);

/** A blank or all-whitespace value read as unset. */
const whitespaceIsUnset =
  <T>(setting: Setting<T>): Setting<T> =>
  (raw) =>
    setting(raw !== undefined && raw.trim() === '' ? undefined : raw);

/** Any text, as it is. */
const text: Setting<string | undefined> = (raw) => raw;

/** A switch: true or 1 on; false, 0, blank or unset off. */
const bool = (): Setting<boolean> => (raw) => {
  if (raw === undefined || raw === 'true' || raw === '1') return raw !== undefined;
  return ['false', '0', ''].includes(raw) ? false : new Refused('true, false, 1, 0 or blank');
};

/** Text trimmed, blank or all-whitespace read as unset. */
const optionalText = (): Setting<string | undefined> => whitespaceIsUnset(optional((raw) => raw.trim()));

/** Text matching `pattern`, else refused with `error`. */
const matching =
  (pattern: RegExp, error: string): Setting<string> =>
  (raw) =>
    raw !== undefined && pattern.test(raw) ? raw : new Refused(error);

export const DEFAULT_LIST_READ_BUDGET = 10_000;

const topicArn = () => blankIsUnset(optional(matching(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/, 'an SNS topic ARN')));

const ulidSetting = () => whitespaceIsUnset(optional((raw) => matching(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a ULID')(raw.trim())));

/** A number read from its text (`Number`), finite, meeting `test`, else refused with `message`. */
const numberWhere =
  (test: (n: number) => boolean, message: string): Setting<number> =>
  (raw) => {
    const n = Number(raw);
    return Number.isFinite(n) && test(n) ? n : new Refused(message);
  };

/** A whole number from 1 (to `max`, when given). */
const whole = (max?: number) => {
  const message = max === undefined ? 'a whole number above 0' : `a whole number from 1 to ${max}`;
  return numberWhere((n) => Number.isSafeInteger(n) && n > 0 && (max === undefined || n <= max), message);
};

/** A request limit: a whole number from 1 to 10 000 000. */
const limit = () => whole(10_000_000);

/**
 * A URL whose scheme `protocol` matches: trimmed, parsed by WHATWG's URL parser, kept as written
 * (less tabs and line breaks, which the parser skips too). `written` is what its text must begin
 * with besides: an http(s) URL must name its scheme with `://` (`http:example.com` parses, and is
 * refused), as zod asked of them.
 */
const address =
  (protocol: RegExp, error: string, written?: RegExp): Setting<string> =>
  (raw) => {
    const trimmed = (raw ?? '').trim();
    if (written && !written.test(trimmed)) return new Refused(error);
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      return new Refused(error);
    }
    return protocol.test(url.protocol.slice(0, -1)) ? trimmed.replace(/[\t\n\r]/g, '') : new Refused(error);
  };

/** An http or https URL, its scheme written with `://`. */
const httpAddress = () => address(/^https?$/, 'an http or https URL', /^https?:\/\//i);

const oneOf =
  <const T extends readonly [string, ...string[]]>(values: T): Setting<T[number]> =>
  (raw) =>
    values.includes(raw as T[number]) ? (raw as T[number]) : new Refused(`one of ${values.join(', ')}`);

const SETTINGS = {
  TABLE_NAME: atLeast(3, 'a table name of at least 3 characters'),
  INGEST_QUEUE_URL: text,
  ROUTING_QUEUE_URL: text,
  ESCALATION_QUEUE_URL: text,
  JWT_SECRET: optional(atLeast(16)),
  JWT_TTL_SECONDS: withDefault(whole(), 12 * 3600),
  AUTH_CACHE_SECONDS: withDefault(
    numberWhere((n) => n >= 0, 'a number of seconds, 0 or more'),
    10,
  ),
  SIGNUP_ENABLED: bool(),
  /** The local outbox: console, memory and log record every message as sent (nothing leaves the
   * machine); none leaves each channel to its configured provider (else recorded failed). */
  OUTBOX: withDefault(oneOf(['console', 'log', 'memory', 'none']), 'none'),
  LOG_LEVEL: withDefault(oneOf(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  INGEST_RATE_LIMIT_PER_MINUTE: withDefault(whole(10_000_000), 600),
  INGEST_RATE_LIMIT_BURST: withDefault(whole(1_000_000), 2000),
  /** Requests each credential (API key, a person's login sessions) may make: the sustained rate and the burst (docs/api.md#request-limits). */
  API_RATE_LIMIT_PER_MINUTE: withDefault(limit(), 1200),
  API_RATE_LIMIT_BURST: withDefault(limit(), 200),
  /** Requests each account may make, all its credentials together. */
  ACCOUNT_RATE_LIMIT_PER_MINUTE: withDefault(limit(), 6000),
  /** Divides relative timers (docs/api.md#escalation-and-notifications): rule delays, aggregate windows, webhook retries; the inbound rate limiter's minute too. */
  TIME_SCALE: withDefault(
    numberWhere((n) => n > 0, 'a number above 0'),
    1,
  ),
  /** SNS messages whose signing certificate cannot be fetched (no network path to SNS) are failed
   * instead of accepted as unverified. */
  SNS_SIGNATURE_REQUIRED: bool(),
  /** Base of the inbound addresses shown as integrations' `url` (default: the request's own host). */
  PUBLIC_BASE_URL: blankIsUnset(optional(httpAddress())),
  /** The console's address, the base of the links e-mailed to people (password reset, one-click
   * responses to pages). */
  CONSOLE_URL: blankIsUnset(optional(httpAddress())),
  PASSWORD_RESET_TTL_SECONDS: withDefault(whole(), 3600),
  /** Password reset requests allowed per e-mail address, and per source address, in 15 minutes. */
  PASSWORD_RESET_PER_EMAIL: withDefault(whole(), 8),
  PASSWORD_RESET_PER_IP: withDefault(whole(), 100),
  WEBHOOK_QUEUE_URL: text,
  /** Lets automations and outgoing webhooks reach loopback, private and link-local addresses (docs/api.md#automations). */
  ALLOW_PRIVATE_AUTOMATION_TARGETS: bool(),
  /** Lets single sign-on issuers be plain http or on loopback and private addresses: local tests and development only (docs/api.md#single-sign-on). */
  ALLOW_INSECURE_SSO_ISSUER: bool(),
  /** Lets the console's imports (POST /api/v4/imports) read a source at plain http or on loopback and private addresses: local tests and development only (docs/api.md#imports). */
  ALLOW_PRIVATE_IMPORT_SOURCES: bool(),
  /** Objects a list reads at most to answer a query outside its indexes; beyond it the query is
   * refused (422/400) naming the filters and sorts that are indexed (docs/api.md#lists). */
  LIST_READ_BUDGET: withDefault(whole(), DEFAULT_LIST_READ_BUDGET),
  /** Signs one-click response links; generated once and kept in the table when unset. */
  RESPONSE_TOKEN_SECRET: optional(atLeast(32)),
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
  VOICE_ID: withDefault(matching(/^[A-Z_]+$/, 'an End User Messaging VoiceId such as JOANNA'), 'JOANNA'),
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
  WEB_PUSH_SUBJECT: blankIsUnset(optional(address(/^(https|mailto)$/, 'an https or mailto URL'))),
  /** VAPID keys (base64url, as `web-push generate-vapid-keys` prints them); both or neither. Unset,
   * a pair is generated once and kept in the table, like the JWT secret. */
  VAPID_PUBLIC_KEY: optionalText(),
  VAPID_PRIVATE_KEY: optionalText(),
  /** Encrypts secrets stored in the table (a Slack workspace's bot token and signing secret) with
   * AES-256-GCM: any string of at least 32 characters, from which the key is derived. Unset, a random
   * key is generated once and kept in the table, like the JWT secret. */
  SECRETS_KEY: blankIsUnset(optional(atLeast(32))),
  /** Slack's Web API (docs/api.md#slack): every method is called at this base + the method's name. */
  SLACK_API_URL: blankIsUnset(withDefault(httpAddress(), 'https://slack.com/api/')),
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
} satisfies Record<string, Setting<unknown>>;

type Settings = typeof SETTINGS;

export type Config = { [Name in keyof Settings]: Exclude<ReturnType<Settings[Name]>, Refused> };

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

/** The configuration `env` gives, or an Error naming every variable it refuses (config() reads the process's). */
export function readConfig(env: Record<string, string | undefined>): Config {
  const read: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const value = setting(env[name]);
    if (refused(value)) problems.push(`${name}: ${value.message}`);
    else read[name] = value;
  }
  if (problems.length) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  const problem = checkPairs(read as Config);
  if (problem) throw new Error(`Invalid configuration: ${problem}`);
  return read as Config;
}

export function config(): Config {
  cached ??= readConfig(process.env);
  return cached;
}
