// Delivering alert events (docs/api.md#outgoing-webhooks, docs/api.md#chat-webhooks): one mechanism for
// both receivers, outgoing webhook integrations and teams' chat webhooks. Each delivery is tried at once
// (fan-out.ts) and then, on a timeout, a network error, 429 or 5xx, again after a backoff (records.ts,
// divided by TIME_SCALE) for at least 24 hours. Each try: POST of the stored body through the guarded
// outbound client (5 s, the SSRF guard on the address connected to unless
// ALLOW_PRIVATE_AUTOMATION_TARGETS) to the receiver as it is now (a disabled or deleted integration, a
// chat webhook the team removed: the delivery is cancelled), and a log owned by the receiver
// (GET /log?owner_id=int_… or tem_…). An outgoing webhook's try carries X-Webhook-Id (the same on every
// try), X-Signature v1=<hex HMAC-SHA256 of the raw body> when a secret is set and basic auth when a
// username is set; a chat's try is the chat's own format, and its URL (its secret) never shows.
import { createHmac } from 'node:crypto';
import { clock, scaled } from '../clock';
import { config } from '../config';
import { newId, prefixId } from '../ids';
import { isOutgoingWebhook } from '../integrations/integration-kinds';
import { getIntegration } from '../integrations/store';
import { logger } from '../log';
import type { LogRecord } from '../logs/records';
import { insertNewLog } from '../logs/store';
import { OutboundRequestInvalid, OutboundTargetRefused, sendOutbound, WEBHOOK_TIMEOUT_MS, type OutboundResult } from '../outbound';
import { chatReceiver } from './chat-receiver';
import { claimTry, finishDelivery, getDelivery, scheduleRetry } from './delivery-store';
import { MAX_TRIES, retryDelayAfter, type DeliveryRecord, type ReceiverLookup, type WebhookDelivery } from './records';
import { sendDeliveryMessage } from './webhook-queue';

/** A try not finished within this time is considered lost (its worker died): the sweeper re-drives it. */
export const TRY_LOST_AFTER_MS = 60_000;
/** A message arriving this much early waits in place instead of being sent again. */
const EARLY_WAIT_MS = 1_000;

export type TryOutcome = 'delivered' | 'retrying' | 'failed' | 'cancelled' | 'not-due' | 'not-pending';

export function signatureOf(body: string, secret: string): string {
  return `v1=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

async function integrationReceiver(d: WebhookDelivery, tryNumber: number): Promise<ReceiverLookup> {
  const integration = await getIntegration(d.account_id, d.integration_id);
  if (!integration || !integration.enabled || !isOutgoingWebhook(integration)) {
    const why = !integration
      ? 'the integration was deleted'
      : !integration.enabled
        ? 'the integration is disabled'
        : 'the integration is no longer an outgoing webhook';
    return { cancelled: why, owner: integration ? prefixId('integration', integration.id) : null, data: {} };
  }
  const options = integration.options as { url?: string; secret?: string; username?: string; password?: string };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-webhook-id': d.id,
    'x-webhook-event': d.event,
    'x-webhook-attempt': String(tryNumber),
  };
  if (options.secret) headers['x-signature'] = signatureOf(d.body, options.secret);
  return {
    receiver: {
      owner: prefixId('integration', integration.id),
      url: String(options.url ?? ''),
      headers,
      auth: options.username ? { username: options.username, password: options.password ?? '' } : null,
      secrets: [options.password, options.secret].filter((s): s is string => Boolean(s)),
      what: d.event,
      data: {},
    },
  };
}

function receiverOf(d: DeliveryRecord, tryNumber: number): Promise<ReceiverLookup> {
  return d.kind === 'chat' ? chatReceiver(d) : integrationReceiver(d, tryNumber);
}

function retryable(result: OutboundResult): boolean {
  if (result.error?.code === 'timeout' || result.error?.code === 'network') return true;
  return result.status === 429 || (result.status !== null && result.status >= 500);
}

async function logTry(
  d: DeliveryRecord,
  owner: string,
  what: string,
  fields: {
    url: string;
    status: number | null;
    duration_ms: number;
    excerpt: string;
    outcome: string;
    error?: string;
    next_try_at?: string;
  },
  tryNumber: number,
  data: Record<string, unknown>,
): Promise<LogRecord> {
  const now = new Date(clock.now()).toISOString();
  const result = fields.error ?? `${fields.status}`;
  const log: LogRecord = {
    id: newId(),
    account_id: d.account_id,
    type: 'webhook',
    subtype: 'OUTGOING',
    content: `${what} to ${fields.url} (try ${tryNumber} of ${MAX_TRIES}): ${result}, ${fields.outcome}`.slice(0, 2000),
    owner_id: owner,
    source_id: prefixId('alert', d.alert_id),
    level: fields.outcome === 'delivered' ? 1 : 3,
    meta: {},
    data: {
      webhook_id: d.id,
      event: d.event,
      alert_id: prefixId('alert', d.alert_id),
      try: tryNumber,
      url: fields.url,
      status: fields.status,
      duration_ms: fields.duration_ms,
      excerpt: fields.excerpt,
      outcome: fields.outcome,
      ...(fields.error ? { error: fields.error } : {}),
      ...(fields.next_try_at ? { next_try_at: fields.next_try_at } : {}),
      ...data,
    },
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertNewLog(log);
  return log;
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.slice(0, 500);
  }
}

/** One try of a delivery, if it is pending and due. Safe to call twice: only one call sends. */
export async function attemptDelivery(accountId: string, deliveryId: string): Promise<TryOutcome> {
  let d = await getDelivery(accountId, deliveryId);
  if (!d || d.status !== 'pending') return 'not-pending';
  const early = d.due_at - clock.now();
  if (early > EARLY_WAIT_MS) {
    await sendDeliveryMessage(accountId, deliveryId, early);
    return 'not-due';
  }
  if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
  const timeScale = config().TIME_SCALE;
  const nowIso = () => new Date(clock.now()).toISOString();
  if (!(await claimTry(d, clock.now() + WEBHOOK_TIMEOUT_MS + Math.max(1_000, scaled(TRY_LOST_AFTER_MS, timeScale)), nowIso()))) {
    return 'not-pending';
  }
  d = { ...d, attempts: d.attempts + 1 };
  const tryNumber = d.attempts;
  const lookup = await receiverOf(d, tryNumber);
  if ('cancelled' in lookup) {
    const why = lookup.cancelled;
    if (lookup.owner) {
      const shown = { url: '', status: null, duration_ms: 0, excerpt: '', outcome: 'cancelled', error: why };
      await logTry(d, lookup.owner, d.event, shown, tryNumber, lookup.data);
    }
    await finishDelivery(d, 'cancelled', { status: null, error: why }, nowIso());
    return 'cancelled';
  }
  const { receiver } = lookup;
  const redact = (text: string) => receiver.secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);

  let result: OutboundResult | null = null;
  let refusal: string | null = null;
  try {
    result = await sendOutbound(
      { url: receiver.url, method: 'POST', headers: receiver.headers, data: d.body, auth: receiver.auth },
      { timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivateTargets: config().ALLOW_PRIVATE_AUTOMATION_TARGETS },
    );
  } catch (error) {
    if (error instanceof OutboundTargetRefused || error instanceof OutboundRequestInvalid) refusal = redact(error.message);
    else throw error;
  }
  const shownUrl = receiver.shownUrl ?? (result ? result.url : withoutCredentials(receiver.url));
  const last = {
    status: result?.status ?? null,
    error: refusal ?? (result?.error ? `${result.error.code}: ${redact(result.error.message)}` : null),
  };
  const base = {
    url: shownUrl,
    status: last.status,
    duration_ms: result?.duration_ms ?? 0,
    excerpt: result ? redact(result.excerpt).slice(0, 1024) : '',
    ...(last.error ? { error: last.error } : {}),
  };
  const log = (fields: { outcome: string; next_try_at?: string }) =>
    logTry(d, receiver.owner, receiver.what, { ...base, ...fields }, tryNumber, receiver.data);
  if (result && !result.error && result.status !== null && result.status >= 200 && result.status < 300) {
    await log({ outcome: 'delivered' });
    await finishDelivery(d, 'delivered', last, nowIso());
    return 'delivered';
  }
  const wait = result && !refusal && retryable(result) ? retryDelayAfter(tryNumber) : null;
  if (wait === null) {
    await log({ outcome: 'failed' });
    await finishDelivery(d, 'failed', last, nowIso());
    return 'failed';
  }
  const dueAt = clock.now() + scaled(wait, timeScale);
  await log({ outcome: 'retrying', next_try_at: new Date(dueAt).toISOString() });
  if (await scheduleRetry(d, dueAt, last, nowIso())) {
    // A lost message is re-driven by the sweeper from the delivery's due time.
    await sendDeliveryMessage(accountId, d.id, dueAt - clock.now()).catch((error: unknown) =>
      logger.warn('webhook retry message not sent; the sweeper will re-drive it', { deliveryId: d.id, error: error as Error }),
    );
  }
  return 'retrying';
}
