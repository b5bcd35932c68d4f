// The integration type catalogue (GET /api/v4/integration_types, docs/api.md#integration-types): read-only, the same
// in every account. Ids are fixed ULIDs: integrations store them, so they never change.
import { parseId, prefixId } from '../ids';
import { HEARTBEAT_SLUG, HEARTBEAT_TYPE_ID, MAX_SECONDS, MIN_INTERVAL_SECONDS } from './heartbeat-options';
import { DEFAULT_RING_SECONDS, LIVE_CALL_SLUG, MAX_RING_SECONDS, MIN_RING_SECONDS } from './live-call-options';
import { ALERT_EVENTS, OUTGOING_WEBHOOK_SLUG } from './outgoing-webhook-options';

export interface IntegrationTypeOption {
  name: string;
  type: 'string' | 'boolean' | 'array' | 'integer';
  description: string;
  default?: string | boolean | string[] | number;
}

export interface IntegrationType {
  id: string;
  prefixId: string;
  slug: string;
  name: string;
  description: string;
  options: IntegrationTypeOption[];
}

/** Options every type accepts (on create also as `option_<name>`). */
const COMMON_OPTIONS: IntegrationTypeOption[] = [
  {
    name: 'token',
    type: 'string',
    description: 'When set, requests must carry this value in the pagertree-token header; others are refused (403).',
  },
  {
    name: 'capture_additional_data',
    type: 'boolean',
    description: "Record the payload's top-level fields as the alert's additional data.",
    default: false,
  },
  {
    name: 'wrapper_key',
    type: 'string',
    description:
      'JMESPath expression that selects the payload inside the request body (e.g. "detail" or "records[*]"); ' +
      'an array selects one payload per element.',
  },
];

function integrationType(
  id: string,
  slug: string,
  name: string,
  description: string,
  options: IntegrationTypeOption[] = COMMON_OPTIONS,
): IntegrationType {
  return {
    id,
    prefixId: prefixId('integrationType', id),
    slug,
    name,
    description,
    options: options.map((option) => ({ ...option })),
  };
}

/** The options of an outgoing webhook (lib/integrations/outgoing-webhook-options.ts). */
const OUTGOING_WEBHOOK_OPTIONS: IntegrationTypeOption[] = [
  { name: 'url', type: 'string', description: 'Where each alert event is POSTed as JSON {type, data} (http or https).' },
  {
    name: 'events',
    type: 'array',
    description: `The alert events to send: any of ${ALERT_EVENTS.join(', ')}.`,
    default: [...ALERT_EVENTS],
  },
  { name: 'username', type: 'string', description: 'Basic authentication user name (optional).' },
  { name: 'password', type: 'string', description: 'Basic authentication password (optional; never shown back).' },
  {
    name: 'secret',
    type: 'string',
    description: 'When set, each request carries X-Signature: v1=<hex HMAC-SHA256 of the raw body, keyed with it> (never shown back).',
  },
];

/** The options of a heartbeat (lib/integrations/heartbeat-options.ts); `token` and the rate limit apply as to any type. */
const HEARTBEAT_OPTIONS: IntegrationTypeOption[] = [
  {
    name: 'interval_seconds',
    type: 'integer',
    description: `Required: a beat is expected at least this often (whole seconds, ${MIN_INTERVAL_SECONDS} to ${MAX_SECONDS}).`,
  },
  {
    name: 'grace_seconds',
    type: 'integer',
    description: `Extra time after the interval before the beat counts as missed (whole seconds, 0 to ${MAX_SECONDS}).`,
    default: 0,
  },
  COMMON_OPTIONS[0],
];

/** The options of a live call (lib/integrations/live-call-options.ts). */
const LIVE_CALL_OPTIONS: IntegrationTypeOption[] = [
  { name: 'phone_number', type: 'string', description: 'Required: the E.164 number callers dial (a number of the SIP media application).' },
  {
    name: 'ring_seconds',
    type: 'integer',
    description: `How long each layer's on-call person rings (${MIN_RING_SECONDS} to ${MAX_RING_SECONDS}).`,
    default: DEFAULT_RING_SECONDS,
  },
];

export const INTEGRATION_TYPES: readonly IntegrationType[] = [
  integrationType(
    '01KDVDNA00GN8A5NGEH4J1RJTG',
    'webhook',
    'Webhook',
    'Generic JSON, form or plain-text webhook: event_type create|acknowledge|resolve, id, title, description, ' +
      'urgency, tags, dedup_keys and meta.incident*. Keys are case-insensitive.',
  ),
  integrationType(
    '01KDVDNA011ME63NNJGFYP7NMQ',
    'prometheus',
    'Prometheus Alertmanager',
    'Alertmanager webhook_config receiver (payload version 4): one alert per alert group (groupKey), ' +
      'firing creates, resolved resolves; urgency from the severity label.',
  ),
  integrationType(
    '01KDVDNA02C11YQD4FR4KSG659',
    'grafana',
    'Grafana',
    'Grafana webhook contact point, unified and legacy alerting: alerting/firing creates, ok/resolved resolves.',
  ),
  integrationType(
    '01KDVDNA03JHB1W8KDYR7YYJ9X',
    'aws_cloudwatch',
    'AWS CloudWatch',
    'CloudWatch alarms through an SNS HTTPS subscription: ALARM creates, OK resolves, one alert per topic and ' +
      'alarm name; the subscription confirmation is recorded.',
  ),
  integrationType(
    '01KDVDNA046SXE3Q12W19SFER9',
    'datadog',
    'Datadog',
    'Datadog Webhooks integration with a payload of $VARIABLES: Triggered creates, Recovered resolves, ' + 'one alert per $ALERT_ID.',
  ),
  integrationType(
    '01KDVDNA05G2T1YT8NGG7VC490',
    'pagerduty_events_v2',
    'PagerDuty Events API v2',
    'Any tool that sends PagerDuty Events v2: trigger, acknowledge and resolve by dedup_key.',
  ),
  integrationType(
    '01KDVDNA06A5E2S3027ZA22HPP',
    'uptime_robot',
    'UptimeRobot',
    'UptimeRobot webhook alert contact (POST parameters or JSON): down creates, up resolves, one alert per monitor.',
  ),
  integrationType(
    '01KDVDNA07K56ERX9XS5NDVWP7',
    'healthchecks',
    'Healthchecks.io',
    'Healthchecks.io PagerTree or webhook integration: a check going down creates, up resolves, one alert per check.',
  ),
  integrationType(
    '01KDVDNA0P5GEN1EA1ERTAP1V2',
    'opsgenie',
    'Opsgenie Alert API',
    "Senders configured for Opsgenie (Alertmanager's opsgenie_configs, Grafana's Opsgenie contact point, the Alert API " +
      'v2): point their API URL at this service and use the integration id as the GenieKey. Create makes one alert per ' +
      'alias (priority P1–P5 → urgency), close and acknowledge act by id, alias or tiny id. A POST to its url is a create.',
  ),
  integrationType(
    '01KDVDNA08W7B2Q9M4TS6X1HKE',
    OUTGOING_WEBHOOK_SLUG,
    'Outgoing Webhook',
    "Sends every change of the account's alerts (created, open, acknowledged, rejected, resolved, dropped, handoff, timeout) " +
      'to a URL as JSON {type, data: <the alert, earlier representation>}, signed when a secret is set, retried with ' +
      'backoff for at least 24 hours. It receives nothing.',
    OUTGOING_WEBHOOK_OPTIONS,
  ),
  integrationType(
    HEARTBEAT_TYPE_ID,
    HEARTBEAT_SLUG,
    'Heartbeat',
    'Expects a request (GET or POST to its url, body ignored) at least every interval_seconds + grace_seconds; when ' +
      'none comes, opens one alert "Heartbeat missed: <name>" with its urgency and destinations, resolved by the next beat. ' +
      'Quiet during its maintenance windows.',
    HEARTBEAT_OPTIONS,
  ),
  integrationType(
    '01KDVDNA0AVC4KK7Q9M2X5R8TB',
    LIVE_CALL_SLUG,
    'Live Call Routing',
    'A call to phone_number opens "Call from <caller>" and rings each layer\'s on-call person in turn; who answers ' +
      'acknowledges, hanging up resolves. Else a voicemail, linked in the description. Needs the Chime SDK voice provider.',
    LIVE_CALL_OPTIONS,
  ),
];

/** The type named by its ULID, its `itt_` prefix id or its slug; undefined when none is. */
export function findIntegrationType(idOrPrefixIdOrSlug: string): IntegrationType | undefined {
  const id = parseId('integrationType', idOrPrefixIdOrSlug);
  if (id !== null) return INTEGRATION_TYPES.find((type) => type.id === id);
  return INTEGRATION_TYPES.find((type) => type.slug === idOrPrefixIdOrSlug);
}
