// PagerDuty Events API v2 drop-in (docs/api.md#pagerduty-events-api-v2-drop-in): `POST /v2/enqueue`, no credentials. Flow: size →
// parse → PagerDuty's own checks (lib/integrations/adapters/pagerduty-event-rules) → the routing key
// names an enabled integration of this deployment → the shared inbound path (token, rate limit,
// maintenance window, store, queue) with the body read as `pagerduty_events_v2` → PagerDuty's 202.
// Every answer has PagerDuty's shape, because its senders read it (Alertmanager logs `errors`,
// client libraries read `dedup_key`); nothing is stored for a refused event.
import type * as z from 'zod';
import { HttpError } from '../http/errors';
import { MAX_BODY_BYTES } from '../http/request';
import type { JsonReply } from '../http/route-contract';
import { parseId, prefixId } from '../ids';
import { checkPagerDutyEvent } from './adapters/pagerduty-event-rules';
import { integrationById } from './integration-cache';
import { acceptRequest, type InboundRequest } from './ingest/receive-webhook';
import { isOutgoingWebhook } from './integration-kinds';
import { integrationBySenderKey } from './sender-keys';
import type { PagerDutyAccepted, PagerDutyError } from './inbound-schemas';

export const PAGERDUTY_ADAPTER = 'pagerduty_events_v2';

const INVALID = { status: 'invalid event', message: 'Event object is invalid' } as const;

/** What the shared inbound path refuses an event with: a wrong token, too large, too fast. */
type RefusalStatus = 403 | 413 | 429;
const REFUSALS: readonly number[] = [403, 413, 429];
const isRefusal = (status: number): status is RefusalStatus => REFUSALS.includes(status);

type Refused = JsonReply<400 | RefusalStatus, z.input<typeof PagerDutyError>>;
export type PagerDutyAnswer = JsonReply<202, z.input<typeof PagerDutyAccepted>> | Refused;

function invalid(errors: string[]): Refused {
  return { status: 400, body: { ...INVALID, errors } };
}

/** Our refusals (403 token, 413 size, 429 rate) in PagerDuty's shape, headers (Retry-After) kept. */
function refusal(error: HttpError, code: RefusalStatus): Refused {
  const status = code === 429 ? 'throttle event' : code === 413 ? 'invalid event' : 'forbidden';
  const message =
    code === 429
      ? 'Requests for this integration are arriving too quickly. Please retry later.'
      : code === 413
        ? 'Event object is too large'
        : error.messages[0];
  return { status: code, body: { status, message, errors: error.messages }, headers: error.headers };
}

function parseEvent(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.startsWith('\uFEFF') ? body.slice(1) : body) };
  } catch {
    return { ok: false };
  }
}

export async function enqueuePagerDutyEvent(request: Omit<InboundRequest, 'rawId'>): Promise<PagerDutyAnswer> {
  if ((request.bytes ?? Buffer.byteLength(request.body, 'utf8')) > MAX_BODY_BYTES) {
    return refusal(new HttpError(413, `Event object is larger than ${MAX_BODY_BYTES / 1024} KiB`), 413);
  }
  const parsed = request.bodyEncoding === 'base64' ? { ok: false as const } : parseEvent(request.body);
  if (!parsed.ok) return invalid(['Event object is not valid JSON']);

  const event = checkPagerDutyEvent(parsed.value);
  const errors = [...event.errors];
  const id = event.routingKey ? parseId('integration', event.routingKey) : null;
  // Its own id, or the PagerDuty integration key an import carried over (lib/integrations/sender-keys.ts).
  const integration = (id ? await integrationById(id) : null) ?? (event.routingKey ? await integrationBySenderKey(event.routingKey) : null);
  if (event.routingKey && !integration) errors.push('Invalid routing key');
  // A disabled integration is a key that cannot be used now: refused like an unknown one, not stored.
  else if (integration && !integration.enabled) errors.push('Invalid routing key: the integration is disabled');
  else if (integration && isOutgoingWebhook(integration))
    errors.push('Invalid routing key: the integration is an outgoing webhook (it receives nothing)');
  if (errors.length > 0 || !integration) return invalid(errors);

  let log;
  try {
    ({ log } = await acceptRequest(integration, request, { adapter: PAGERDUTY_ADAPTER }));
  } catch (error) {
    if (error instanceof HttpError && isRefusal(error.status)) return refusal(error, error.status);
    throw error;
  }
  // A trigger without a dedup_key is named by its log id: the adapter falls back to the same id, so an
  // acknowledge or resolve that sends this key back finds the alert.
  const dedupKey = event.dedupKey ?? prefixId('log', log.id);
  return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedupKey } };
}
