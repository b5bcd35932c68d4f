// The checks PagerDuty's Events API v2 makes before it accepts an event (docs/api.md#pagerduty-events-api-v2-drop-in, `/v2/enqueue`),
// as documented for `POST https://events.pagerduty.com/v2/enqueue`: required fields per action, the
// four severities, the documented length limits, and the shapes of `images` and `links`.
// Pure: the routing key's existence is the caller's check (it needs the store).
import { isRecord } from './fields';

export const PAGERDUTY_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type PagerDutyAction = (typeof PAGERDUTY_ACTIONS)[number];

/** PagerDuty's documented maxima (characters). */
export const MAX_SUMMARY = 1024;
export const MAX_DEDUP_KEY = 255;

export interface CheckedEvent {
  /** Every reason the event is refused, in PagerDuty's wording; empty when it is valid. */
  errors: string[];
  routingKey?: string;
  action?: PagerDutyAction;
  /** The sender's dedup_key, trimmed; absent when it sent none (a trigger then gets one). */
  dedupKey?: string;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** An ISO 8601 date or date-time that names a real instant (`+0000` offsets included, as PagerDuty's example has). */
export function isIsoTimestamp(value: string): boolean {
  const trimmed = value.trim();
  if (!ISO_8601.test(trimmed)) return false;
  // Date.parse wants `+00:00`; PagerDuty's own example writes `+0000`.
  const normalized = trimmed
    .replace(' ', 'T')
    .replace(',', '.')
    .replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  return Number.isFinite(Date.parse(normalized));
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function requiredText(errors: string[], value: unknown, field: string, max?: number): void {
  if (blank(value)) errors.push(`'${field}' is missing or blank`);
  else if (typeof value !== 'string') errors.push(`'${field}' must be a string`);
  else if (max !== undefined && value.length > max) errors.push(`'${field}' is too long (maximum is ${max} characters)`);
}

function optionalText(errors: string[], value: unknown, field: string): void {
  if (value !== undefined && value !== null && typeof value !== 'string') errors.push(`'${field}' must be a string`);
}

/** `images` / `links`: an array of objects, each with its required URL field (`src` / `href`). */
function contextList(errors: string[], value: unknown, field: 'images' | 'links', required: 'src' | 'href'): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    errors.push(`'${field}' must be an array`);
    return;
  }
  value.forEach((entry, index) => {
    if (!isRecord(entry)) errors.push(`'${field}[${index}]' must be an object`);
    else requiredText(errors, entry[required], `${field}[${index}].${required}`);
  });
}

function checkPayload(errors: string[], payload: unknown): void {
  if (!isRecord(payload)) {
    errors.push(blank(payload) ? "'payload' is missing or blank" : "'payload' must be an object");
    return;
  }
  requiredText(errors, payload.summary, 'payload.summary', MAX_SUMMARY);
  requiredText(errors, payload.source, 'payload.source');
  if (blank(payload.severity)) errors.push("'payload.severity' is missing or blank");
  else if (
    typeof payload.severity !== 'string' ||
    !(PAGERDUTY_SEVERITIES as readonly string[]).includes(payload.severity.trim().toLowerCase())
  ) {
    errors.push(`'payload.severity' is invalid (must be one of: ${PAGERDUTY_SEVERITIES.join(', ')})`);
  }
  if (!blank(payload.timestamp) && (typeof payload.timestamp !== 'string' || !isIsoTimestamp(payload.timestamp))) {
    errors.push("'payload.timestamp' is invalid (must be an ISO 8601 timestamp)");
  }
  for (const field of ['component', 'group', 'class'] as const) optionalText(errors, payload[field], `payload.${field}`);
}

/** Checks one parsed event body; `errors` lists every fault at once, as PagerDuty does. */
export function checkPagerDutyEvent(event: unknown): CheckedEvent {
  if (!isRecord(event)) return { errors: ['Event object must be a JSON object'] };
  const errors: string[] = [];
  const checked: CheckedEvent = { errors };

  requiredText(errors, event.routing_key, 'routing_key');
  if (typeof event.routing_key === 'string' && event.routing_key.trim() !== '') checked.routingKey = event.routing_key.trim();

  const action = typeof event.event_action === 'string' ? event.event_action.trim().toLowerCase() : undefined;
  if (blank(event.event_action)) errors.push("'event_action' is missing or blank");
  else if (!(PAGERDUTY_ACTIONS as readonly string[]).includes(action ?? '')) {
    errors.push(`'event_action' is invalid (must be one of: ${PAGERDUTY_ACTIONS.join(', ')})`);
  } else checked.action = action as PagerDutyAction;

  const dedupKey = event.dedup_key;
  if (!blank(dedupKey)) {
    if (typeof dedupKey !== 'string') errors.push("'dedup_key' must be a string");
    else if (dedupKey.trim().length > MAX_DEDUP_KEY) errors.push(`'dedup_key' is too long (maximum is ${MAX_DEDUP_KEY} characters)`);
    else checked.dedupKey = dedupKey.trim();
  } else if (checked.action === 'acknowledge' || checked.action === 'resolve') {
    errors.push("'dedup_key' is missing or blank");
  }

  // Only a trigger describes the problem; Alertmanager sends its payload with resolves too, unchecked.
  if (checked.action === 'trigger') {
    checkPayload(errors, event.payload);
    contextList(errors, event.images, 'images', 'src');
    contextList(errors, event.links, 'links', 'href');
    optionalText(errors, event.client, 'client');
    optionalText(errors, event.client_url, 'client_url');
  }
  return checked;
}
