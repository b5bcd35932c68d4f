// The response bodies of both interfaces as zod schemas, for the OpenAPI document (docs/api.md).
// The areas' serializers (`represent.ts`: toV4, toEarlier) have no schema of their own, so each one
// is described here field by field. Objects are strict: a field a serializer adds without a line
// here fails test/openapi (real responses are validated against the document), and the types are
// pinned to the serializers' return types there too, so this file cannot drift from the code.
import * as z from 'zod';
import { URGENCIES, type AlertStatus } from '../alerts/records';
import { TIMEOUT_UNITS } from '../escalation-policies/records';
import { FREQUENCY_UNITS } from '../events/records';
import { PREFIXES, type EntityKind } from '../ids';
import { CHANNELS } from '../notify/records';
import { NOTIFICATION_TARGETS } from '../teams/records';

const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

// ---- building blocks --------------------------------------------------------------------------

export const ulid = z.string().regex(new RegExp(`^${ULID_PATTERN}$`));

/** `<prefix>_<ULID>` of one kind, or of any of several kinds (mixed reference lists). */
export function prefixIdOf(...kinds: EntityKind[]) {
  const prefixes = kinds.map((kind) => PREFIXES[kind]);
  const alternatives = prefixes.length === 1 ? prefixes[0] : `(?:${prefixes.join('|')})`;
  return z.string().regex(new RegExp(`^${alternatives}_${ULID_PATTERN}$`));
}

/** v4 datetimes: ISO 8601 in UTC with milliseconds (`2026-11-22T09:00:00.000Z`). */
export const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** The earlier interface's timestamps other than createdAt/updatedAt: Unix seconds. */
export const unixSeconds = z.number().int();

const json = z.record(z.string(), z.unknown());
const count = z.number().int().min(0);
const tinyId = z.number().int().min(1);

export const ALERT_STATUSES = ['queued', 'open', 'acknowledged', 'resolved', 'dropped', 'suppressed', 'archived'] as const;
// Every status the record can hold is listed (a new one breaks the build here until it is).
type MissingStatus = Exclude<AlertStatus, (typeof ALERT_STATUSES)[number]>;
const _everyStatus: [MissingStatus] extends [never] ? true : never = true;
void _everyStatus;

const urgency = z.enum(URGENCIES);

/** What a sender said beyond title and description (adapters keep it, capped in size): labelled values. */
const additionalData = z.array(z.strictObject({ type: z.string(), label: z.string(), value: z.unknown() }));
const alertStatus = z.enum(ALERT_STATUSES);

// ---- errors and envelopes ---------------------------------------------------------------------

const errorMessages = z.array(z.strictObject({ message: z.string() })).min(1);

/** Every error under /api/v4: the messages plus the status as `code`. */
export const ErrorV4 = z.strictObject({ code: z.number().int().min(400).max(599), errors: errorMessages });

/** Every error of the earlier interface (and of the public and inbound routes). */
export const ErrorEarlier = z.strictObject({ errors: errorMessages });

/** The list envelope of both interfaces. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), has_more: z.boolean(), total_count: count });
}

// ---- platform ---------------------------------------------------------------------------------

const QueueDepth = z.union([
  z.strictObject({ waiting: z.number().int(), in_flight: z.number().int(), dead_letters: z.number().int() }),
  z.strictObject({ error: z.string() }),
]);
/** `ok` while every queue can be read (`degraded` otherwise), and each queue's depth beside it. */
export const Health = z.strictObject({ status: z.enum(['ok', 'degraded']), queues: z.record(z.string(), QueueDepth) });
export const LoginResult = z.strictObject({ token: z.string().min(1) });
export const SignupResult = z.strictObject({ token: z.string().min(1), account_id: ulid });
export const PasswordResetRequested = z.strictObject({ message: z.string().min(1) });

export const AccountEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('account'),
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  name: z.string(),
  token_id: z.string(),
  sso: json,
  notification_templates: json,
});

export const ApiKeyV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('apiKey'),
  name: z.string(),
  account_id: ulid,
  account_user_id: ulid,
  created_at: instant,
  updated_at: instant,
});

/** The answer to a create: the only time the token (the secret) is shown. */
export const ApiKeyCreatedV4 = ApiKeyV4.extend({ token: z.string().min(1) });

/** The OpenAPI document itself (GET /api/v4/openapi.json). */
export const OpenApiDocument = z.looseObject({ openapi: z.string(), info: json, paths: json });

// ---- account users ----------------------------------------------------------------------------

export const UserV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('user'),
  name: z.string(),
  time_zone: z.string(),
  notify_push: z.boolean(),
  notify_email: z.boolean(),
  notify_sms: z.boolean(),
  notify_voice: z.boolean(),
  notify_slack: z.boolean(),
  emails: z.array(z.strictObject({ id: ulid, prefix_id: prefixIdOf('email'), email: z.string(), primary: z.boolean() })),
  phones: z.array(
    z.strictObject({
      id: ulid,
      prefix_id: prefixIdOf('phone'),
      phone: z.string(),
      primary: z.boolean(),
      country: z.string().nullable(),
      blocked: z.boolean(),
    }),
  ),
  created_at: instant,
  updated_at: instant,
});

export const AccountUserV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('accountUser'),
  account_id: ulid,
  user_id: ulid,
  roles: z.strictObject({ admin: z.boolean(), billing: z.boolean(), broadcaster: z.boolean(), communicator: z.boolean() }),
  notification_rule_id: z.string().nullable(),
  slack_user_id: z.string().nullable(),
  user: UserV4,
  created_at: instant,
  updated_at: instant,
});

// ---- alerts -----------------------------------------------------------------------------------

export const AlertV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('alert'),
  account_id: ulid,
  tiny_id: tinyId,
  title: z.string(),
  description: z.string(),
  urgency,
  status: alertStatus,
  tag_list: z.array(z.string()),
  source_type: z.enum(['AccountUser', 'Integration']),
  source_id: ulid,
  source_log_id: ulid.nullable(),
  thirdparty_id: z.string().nullable(),
  dedup_count: tinyId,
  dedup_keys: z.array(z.string()),
  meta: json,
  additional_data: additionalData,
  destination_team_ids: z.array(ulid),
  destination_router_ids: z.array(ulid),
  destination_account_user_ids: z.array(ulid),
  acknowledged_at: instant.nullable(),
  resolved_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

export const AlertEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('alert'),
  tinyId,
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  parent_id: prefixIdOf('alert').nullable(),
  thirdparty_id: z.string().nullable(),
  destination_ids: z.array(prefixIdOf('team', 'user', 'accountUser', 'router', 'schedule')),
  title: z.string(),
  description: z.string(),
  type: z.string().nullable(),
  subtype: z.string(),
  status: alertStatus,
  urgency,
  d_team_id: prefixIdOf('team').nullable(),
  d_user_id: prefixIdOf('user').nullable(),
  s_log_id: prefixIdOf('log').nullable(),
  created: unixSeconds,
  acknowledged: unixSeconds.nullable(),
  acknowledgedby: z.string().nullable(),
  resolved: unixSeconds.nullable(),
  resolvedby: z.string().nullable(),
  archived: unixSeconds.nullable(),
  archivedby: z.string().nullable(),
  livecall: z.null(),
  source_id: prefixIdOf('user', 'accountUser', 'integration'),
  response_requested: z.boolean(),
  responses: z.array(z.string()),
  responses_recorded: json,
  tags: z.array(z.string()),
  additional_data: additionalData,
  stakeholder_ids: z.array(prefixIdOf('stakeholder', 'user', 'accountUser')),
  handoffs: z.array(
    z.strictObject({
      to: prefixIdOf('user', 'team'),
      from: prefixIdOf('user', 'team'),
      time: unixSeconds,
      acknowledged: z.boolean(),
    }),
  ),
});

export const CommentV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('comment'),
  account_id: ulid,
  alert_id: ulid,
  account_user_id: ulid,
  text: z.string(),
  created_at: instant,
  updated_at: instant,
});

// ---- logs -------------------------------------------------------------------------------------

export const LogEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('log'),
  tinyId: tinyId.nullable(),
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  content: z.string(),
  type: z.string(),
  subtype: z.enum(['INCOMING', 'OUTGOING']).nullable(),
  owner_id: z.string(),
  source_id: z.string(),
  level: z.number(),
  data: json,
  status: z.enum(['pending', 'processed', 'ignored', 'failed']).optional(),
  reason: z.string().optional(),
});

// ---- teams, schedules, events, escalation policies --------------------------------------------

const attachment = z.strictObject({ filename: z.string(), url: z.string() });
const notificationTarget = z.enum(NOTIFICATION_TARGETS);

export const TeamV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('team'),
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  schedule_id: ulid.nullable(),
  escalation_policy_id: ulid.nullable(),
  member_account_user_ids: z.array(ulid),
  admin_account_user_ids: z.array(ulid),
  drop_notifications: notificationTarget,
  handoff_notifications: notificationTarget,
  drop_notification_account_user_ids: z.array(ulid),
  handoff_notification_account_user_ids: z.array(ulid),
  notes: z.string(),
  attachments: z.union([z.record(z.string(), attachment), z.array(attachment)]),
  meta: json,
  slack_channel_id: z.string().nullable(),
  created_at: instant,
  updated_at: instant,
});

export const ScheduleV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('schedule'),
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  meta: json,
  created_at: instant,
  updated_at: instant,
});

const frequencyUnit = z.enum(FREQUENCY_UNITS as ['hourly', 'daily', 'weekly', 'monthly', 'yearly']);
const weekday = z.number().int().min(0).max(6);

export const EventV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('event'),
  account_id: ulid,
  tiny_id: tinyId,
  start_datetime: instant,
  end_datetime: instant,
  layer: z.number().int(),
  time_zone: z.string(),
  repeat: z.boolean(),
  frequency: z.number().int().nullable(),
  frequency_unit: frequencyUnit.nullable(),
  days_of_week: z.array(weekday),
  repeat_end_datetime: instant.nullable(),
  rotation: z.boolean(),
  parent_id: ulid.nullable(),
  schedule_ids: z.array(ulid),
  event_attendees: z.array(
    z.strictObject({ id: ulid, attendee_id: ulid, attendee_type: z.literal('AccountUser'), position: z.number().int() }),
  ),
  exceptions: z.array(z.strictObject({ id: ulid, start_datetime: instant })),
  meta: json,
  created_at: instant,
  updated_at: instant,
});

export const EventEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('event'),
  tinyId,
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  schedule_id: z.array(prefixIdOf('schedule')),
  attendees: z.array(prefixIdOf('user')),
  layer: z.number().int(),
  start: unixSeconds,
  end: unixSeconds,
  repeat: z.boolean(),
  timezone: z.string(),
  dow: z.array(weekday),
  frequency: z.number().int().nullable(),
  frequency_unit: frequencyUnit.nullable(),
  repeatend: unixSeconds.nullable(),
  rotation: z.boolean(),
  parent_id: prefixIdOf('event').nullable(),
  exceptions: z.array(z.strictObject({ start: unixSeconds, event_id: prefixIdOf('event') })),
});

/** One on-call span (current_oncall, window_events): its real bounds, not clipped to the window. */
export const OncallEntry = z.strictObject({
  event_id: ulid,
  layer: z.number().int(),
  start_time: instant,
  end_time: instant,
  attendees: z.array(
    z.strictObject({
      attendee_id: ulid,
      attendee_type: z.literal('AccountUser'),
      position: z.number().int(),
      /** The account user's name and primary e-mail (null when the account user is gone). */
      name: z.string().nullable(),
      email: z.string().nullable(),
    }),
  ),
});

export const OncallEntries = z.array(OncallEntry);

export const TimeZoneNames = z.array(z.string());

export const EscalationPolicyV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('escalationPolicy'),
  account_id: ulid,
  name: z.string(),
  repeat: z.number().int().min(0).max(3),
  reassign_team_ids: z.array(ulid),
  reassign_account_user_ids: z.array(ulid),
  escalation_layers: z.array(
    z.strictObject({ id: ulid, layer: z.number().int().min(1), timeout: z.number().int().min(1), timeout_unit: z.enum(TIMEOUT_UNITS) }),
  ),
  meta: json,
  created_at: instant,
  updated_at: instant,
});

// ---- integrations, maintenance windows, inbound -----------------------------------------------

export const IntegrationTypeV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('integrationType'),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  options: z.array(
    z.strictObject({
      name: z.string(),
      type: z.enum(['string', 'boolean', 'array']),
      description: z.string(),
      default: z.union([z.string(), z.boolean(), z.array(z.string())]).optional(),
    }),
  ),
});

/** The integration's inbound address, `<base URL>/integration/<int_ id>`, on the host the request reached. */
const inboundUrl = z.url({ protocol: /^https?$/ });

export const IntegrationV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('integration'),
  url: inboundUrl,
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  enabled: z.boolean(),
  urgency,
  integration_type_id: ulid,
  integration_type: IntegrationTypeV4.nullable(),
  options: json,
  account_user_ids: z.array(ulid),
  router_ids: z.array(ulid),
  team_ids: z.array(ulid),
  created_at: instant,
  updated_at: instant,
});

export const IntegrationEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('integration'),
  url: inboundUrl,
  tinyId,
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  urgency,
  destination_ids: z.array(prefixIdOf('team', 'user', 'accountUser', 'router', 'schedule')),
  options: json,
  meta: json,
  createdAt: instant,
  updatedAt: instant,
});

export const MaintenanceWindowV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('maintenanceWindow'),
  account_id: ulid,
  name: z.string(),
  start_datetime: instant,
  end_datetime: instant,
  time_zone: z.string(),
  integration_ids: z.array(ulid),
  created_at: instant,
  updated_at: instant,
});

// ---- broadcasts (v4) ---------------------------------------------------------------------------

export const BROADCAST_STATUS_VALUES = ['queued', 'open', 'closed', 'errored'] as const;

export const BroadcastV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('broadcast'),
  account_id: ulid,
  tiny_id: tinyId,
  title: z.string(),
  description: z.string().nullable(),
  tag_list: z.array(z.string()),
  destination_team_ids: z.array(ulid),
  destination_account_user_ids: z.array(ulid),
  status: z.enum(BROADCAST_STATUS_VALUES),
  response_requested: z.boolean(),
  response_requested_by: instant.nullable(),
  broadcast_response_options: z.array(
    z.strictObject({ id: ulid, value: z.string(), position: z.number().int().min(0), broadcast_responses_count: count }),
  ),
  broadcast_responses: z.array(
    z.strictObject({
      id: ulid,
      prefix_id: prefixIdOf('response'),
      account_user_id: ulid,
      broadcast_response_option_id: ulid,
      channel: z.string(),
      created_at: instant,
    }),
  ),
  source_id: ulid,
  source_type: z.literal('AccountUser'),
  sent_at: instant.nullable(),
  closed_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

/** POST /integration/:id: the stored request's log id, answered before any alert work. */
export const InboundAccepted = z.strictObject({
  log_id: prefixIdOf('log'),
  ignored: z.literal('maintenance_window').optional(),
});

// ---- PagerDuty Events API v2 drop-in (POST /v2/enqueue): PagerDuty's own answers --------------

/** An accepted event; `dedup_key` is the sender's, or the one generated for a trigger without it. */
export const PagerDutyAccepted = z.strictObject({
  status: z.literal('success'),
  message: z.literal('Event processed'),
  dedup_key: z.string().min(1),
});

/** A refused event, as PagerDuty answers it: every fault in `errors`. */
export const PagerDutyError = z.strictObject({
  status: z.enum(['invalid event', 'throttle event', 'forbidden', 'error']),
  message: z.string(),
  errors: z.array(z.string()),
});

// ---- routers, notification rules, automations -------------------------------------------------

export const RouterV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('router'),
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  enabled: z.boolean(),
  rules: z.string().nullable(),
  default_receiver_account_user_id: ulid.nullable(),
  default_receiver_router_id: ulid.nullable(),
  default_receiver_team_id: ulid.nullable(),
  meta: json,
  created_at: instant,
  updated_at: instant,
});

/** The earlier /router: a router (type router) or a notification rule (type notification). */
export const RouterEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('router', 'notificationRule'),
  tinyId: tinyId.nullable(),
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  name: z.string(),
  enabled: z.boolean(),
  type: z.enum(['router', 'notification']),
  default_receiver: prefixIdOf('team', 'user', 'accountUser', 'router', 'schedule').nullable(),
  settings: z.string().nullable(),
  rules: z.string().nullable(),
});

/** GET /router/default-template/:type: the YAML text as a JSON string. */
export const DefaultTemplate = z.string();

export const NotificationRuleV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('notificationRule'),
  account_id: ulid,
  name: z.string(),
  enabled: z.boolean(),
  rules: z.string().nullable(),
  meta: json,
  created_at: instant,
  updated_at: instant,
});

export const AutomationEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('automation'),
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  name: z.string(),
  enabled: z.boolean(),
  settings: z.string(),
});

/** One condition of a dry run: whether it held and the value it saw. */
const conditionReport = z.looseObject({ condition: z.string(), held: z.boolean() });

/** POST /api/v4/routers/:id/test. */
export const RouterExplanation = z.strictObject({
  router_id: z.string().nullable(),
  enabled: z.boolean(),
  evaluated_at: instant,
  matched_rule: z.strictObject({ index: z.number().int(), conditions: z.array(conditionReport) }).nullable(),
  tried: z.array(z.strictObject({ index: z.number().int(), failed_condition: conditionReport.nullable() })),
  plan: z.looseObject({
    outcome: z.enum(['matched', 'no_match', 'disabled', 'invalid_rules']),
    rule_index: z.number().int().nullable(),
    actions: z.array(json),
    suppressed: z.boolean(),
    assignments: z.array(json),
    used_default: z.boolean(),
    alert_changes: json,
    warnings: z.array(z.string()),
  }),
});

/** POST /api/v4/notification_rules/:id/test. */
export const NotificationRuleExplanation = z.strictObject({
  notification_rule_id: z.string().nullable(),
  enabled: z.boolean(),
  type: z.string(),
  evaluated_at: instant,
  matched_rule: z.strictObject({ index: z.number().int(), conditions: z.array(conditionReport) }).nullable(),
  tried: z.array(
    z.strictObject({
      index: z.number().int(),
      skipped_for_type: z.array(z.string()).optional(),
      failed_condition: conditionReport.nullable(),
    }),
  ),
  plan: z.looseObject({
    source: z.enum(['rule', 'default']),
    reason: z.enum(['matched', 'ignored', 'no_rule', 'disabled', 'no_match', 'invalid_rules']),
    steps: z.array(z.looseObject({ at_offset_ms: z.number(), channels: z.array(z.string()) })),
  }),
});

// ---- notifications and one-click responses -----------------------------------------------------

const channel = z.enum(CHANNELS);
const notificationStatus = z.enum(['queued', 'sent', 'delivered', 'failed']);

export const NotificationV4 = z.strictObject({
  id: ulid,
  prefix_id: prefixIdOf('notification'),
  account_id: ulid,
  account_user_id: ulid.nullable(),
  alert_id: ulid.nullable(),
  broadcast_id: ulid.nullable(),
  workflow_id: ulid.nullable(),
  channel,
  provider: z.string().nullable(),
  template: z.string(),
  to: z.string(),
  subject: z.string().nullable(),
  message: z.string(),
  status: notificationStatus,
  sent_at: instant.nullable(),
  delivered_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

export const NotificationEarlier = z.strictObject({
  sid: prefixIdOf('account'),
  id: prefixIdOf('notification'),
  createdAt: instant,
  updatedAt: instant,
  meta: json,
  thirdparty_id: z.string().nullable(),
  source_id: prefixIdOf('alert').nullable(),
  user_id: prefixIdOf('user').nullable(),
  group_id: prefixIdOf('notification').nullable(),
  workflow_id: prefixIdOf('workflow').nullable(),
  stakeholder_id: z.null(),
  channel,
  provider: z.string().nullable(),
  template: z.string(),
  to: z.string(),
  from: z.string(),
  direction: z.literal('OUTGOING'),
  subject: z.string().nullable(),
  message: z.string(),
  cost: z.number(),
  status: notificationStatus,
  provider_status: z.enum(['accepted', 'delivered', 'failed', 'bundled', 'waiting', 'cancelled', 'unknown']).nullable(),
  sent: unixSeconds.nullable(),
  delivered: unixSeconds.nullable(),
  err: z.array(z.string()),
});

/** A one-click response (GET /public/respond/{token} with Accept: application/json; browsers get a page). */
export const ResponseView = z.strictObject({
  status: z.union([z.literal(200), z.literal(404), z.literal(409), z.literal(410)]),
  title: z.string(),
  detail: z.string(),
  action: z.enum(['acknowledge', 'reject']).nullable(),
  alert: z.strictObject({ id: ulid, tiny_id: z.number().int(), title: z.string(), urgency: z.string(), status: z.string() }).nullable(),
});

/** A browser's push subscription of an account user (its keys are never shown again). */
export const PushSubscriptionV4 = z.strictObject({
  id: ulid,
  account_id: ulid,
  account_user_id: ulid,
  endpoint: z.string(),
  expiration_time: z.number().int().nullable(),
  user_agent: z.string().nullable(),
  created_at: instant,
  updated_at: instant,
});

export const PushSubscriptionListV4 = z.strictObject({
  data: z.array(PushSubscriptionV4),
  has_more: z.boolean(),
  total_count: z.number().int(),
});

/** GET /api/v4/web_push: the VAPID public key a browser subscribes with (applicationServerKey). */
export const WebPushV4 = z.strictObject({
  enabled: z.boolean(),
  vapid_public_key: z.string(),
});

/** What POST /public/sms/inbound did with an SNS delivery (SNS reads only the status). */
export const InboundSmsResult = z.strictObject({
  received: z.enum(['subscription_confirmation', 'unsubscribe_confirmation', 'sms']),
  confirmed: z.boolean().optional(),
  outcome: z.enum(['acknowledged', 'rejected', 'refused', 'not_understood', 'ambiguous', 'nothing_pending', 'ignored']).optional(),
});

/** GET /api/v4/slack: the connected workspace (never its bot token or signing secret). */
export const SlackConnectionV4 = z.strictObject({
  connected: z.literal(true),
  team_id: z.string(),
  team_name: z.string(),
  bot_user_id: z.string(),
  connected_at: instant,
});

/** GET /api/v4/slack/install: Slack's authorize URL for "Add to Slack". */
export const SlackInstallV4 = z.strictObject({ url: z.string() });

/** GET /public/slack/oauth with Accept: application/json (browsers get a page). */
export const SlackInstallOutcome = z.strictObject({
  status: z.union([z.literal(200), z.literal(400), z.literal(404), z.literal(409), z.literal(410), z.literal(502)]),
  title: z.string(),
  detail: z.string(),
  team_id: z.string().nullable(),
  team_name: z.string().nullable(),
});

/** POST /public/slack/commands: the ephemeral answer Slack shows the person. */
export const SlackCommandAnswer = z.strictObject({ response_type: z.literal('ephemeral'), text: z.string() });
