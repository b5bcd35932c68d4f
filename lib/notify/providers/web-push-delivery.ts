// Web Push's delivery (lib/notify/providers/web-push.ts enables it): loaded with the first push it
// sends, a chunk of its own in the deployed bundle, so the functions that may page do not load the
// payload encryption, the SSRF guard's address parsing (ipaddr.js) and node:dns at every cold start.
import { Agent, request } from 'node:https';
import { config } from '../../config';
import { dependencies } from '../../dependencies';
import { logger } from '../../log';
import { canonicalAddress, forbiddenReason } from '../../outbound';
import { guardedLookup, systemResolver } from '../../outbound/guarded-lookup';
import { listPushSubscriptions, removePushSubscription, type PushSubscriptionRecord } from '../push-subscription-store';
import { vapidKeys } from '../vapid-keys';
import { encryptPayload, vapidAuthorization } from './web-push-protocol';
import type { DeliveryResult, OutgoingMessage } from './provider';
/** The provider's name (lib/notify/providers/web-push.ts names it the same). */
const PROVIDER = 'web-push';

/** Push services take about 4 KB of payload; the body is cut well inside it. */
const MAX_BODY = 1_000;
/** A page that cannot be shown within an hour is not worth showing (the escalation moved on). */
const TTL_SECONDS = 3_600;
const TIMEOUT_MS = 5_000;

let guardedAgent: Agent | undefined;

/**
 * Endpoints are given by users, so a push request is an outbound request like an automation's: the
 * SSRF guard checks the addresses the socket connects to (and IP literals here), unless the
 * deployment sets ALLOW_PRIVATE_AUTOMATION_TARGETS.
 */
function agentFor(endpoint: URL): Agent {
  const allowPrivate = config().ALLOW_PRIVATE_AUTOMATION_TARGETS;
  const literal = canonicalAddress(endpoint.hostname.replace(/^\[|\]$/g, ''));
  const reason = literal && !allowPrivate ? forbiddenReason(literal) : null;
  if (reason) throw new Error(`the endpoint is ${reason}`);
  const replaced = dependencies().pushAgent;
  if (replaced) return replaced;
  guardedAgent ??= new Agent({ keepAlive: true, lookup: guardedLookup({ allowPrivate, resolve: systemResolver }) });
  return guardedAgent;
}

export function pushPayload(message: OutgoingMessage): string {
  return JSON.stringify({
    title: message.subject ?? 'On-call',
    body: message.message.length > MAX_BODY ? `${message.message.slice(0, MAX_BODY - 1)}…` : message.message,
    notification_id: message.notificationId,
    template: message.template,
    actions: [
      ...(message.links?.acknowledge ? [{ action: 'acknowledge', title: 'Acknowledge', url: message.links.acknowledge }] : []),
      ...(message.links?.reject ? [{ action: 'reject', title: 'Reject', url: message.links.reject }] : []),
    ],
  });
}

type Attempt = { ok: true; id: string | null } | { ok: false; reason: string; gone: boolean };

/** A push service's answer other than 2xx. */
class PushServiceRefusal extends Error {
  constructor(readonly statusCode: number) {
    super(`HTTP ${statusCode}`);
  }
}

/** POSTs one encrypted message (RFC 8030 §5); resolves with the message's `Location`, if any. */
function post(endpoint: URL, headers: Record<string, string | number>, body: Buffer, agent: Agent): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const req = request(endpoint, { method: 'POST', headers: { ...headers, 'content-length': body.length }, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) return reject(new PushServiceRefusal(status));
        const location = res.headers.location;
        resolve(typeof location === 'string' ? location : null);
      });
      res.on('error', reject);
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function pushTo(subscription: PushSubscriptionRecord, payload: string, subject: string): Promise<Attempt> {
  const keys = await vapidKeys();
  const endpoint = new URL(subscription.endpoint);
  let body: Buffer;
  try {
    body = encryptPayload(payload, subscription.keys);
  } catch (error) {
    return { ok: false, gone: false, reason: `${endpoint.host}: the subscription's keys are unusable (${(error as Error).message})` };
  }
  try {
    const agent = agentFor(endpoint);
    // Wall time, not the service clock: the push service checks the token's expiry against its own.
    const authorization = vapidAuthorization(subscription.endpoint, subject, keys, Date.now());
    const headers = {
      authorization,
      ttl: TTL_SECONDS,
      urgency: 'high',
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
    };
    return { ok: true, id: await post(endpoint, headers, body, agent) };
  } catch (error) {
    if (error instanceof PushServiceRefusal) {
      const gone = error.statusCode === 404 || error.statusCode === 410;
      return {
        ok: false,
        gone,
        reason: `${endpoint.host} answered HTTP ${error.statusCode}${gone ? ' (subscription gone: removed)' : ''}`,
      };
    }
    return { ok: false, gone: false, reason: `${endpoint.host} unreachable: ${(error as Error).message ?? 'unknown error'}` };
  }
}

/** Sends one message to every push subscription of the person it is for. */
export async function sendWebPush(message: OutgoingMessage): Promise<DeliveryResult> {
  const subject = config().WEB_PUSH_SUBJECT!;
  if (!message.accountUserId) return { status: 'failed', provider: PROVIDER, err: 'push goes to an account user, and none was named' };
  const subscriptions = await listPushSubscriptions(message.accountId, message.accountUserId);
  if (subscriptions.length === 0) {
    return {
      status: 'failed',
      provider: PROVIDER,
      err: 'the person has no push subscription (a browser registers one through POST /api/v4/account_users/:id/push_subscriptions)',
    };
  }
  const payload = pushPayload(message);
  const attempts = await Promise.all(subscriptions.map((subscription) => pushTo(subscription, payload, subject)));
  const problems: string[] = [];
  const ids: string[] = [];
  for (const [i, attempt] of attempts.entries()) {
    if (attempt.ok) {
      if (attempt.id) ids.push(attempt.id);
      continue;
    }
    problems.push(attempt.reason);
    if (attempt.gone) {
      const gone = subscriptions[i];
      await removePushSubscription(gone.account_id, gone.account_user_id, gone.endpoint);
      logger.info('push subscription removed: the push service says it is gone', { accountUserId: gone.account_user_id });
    }
  }
  const delivered = attempts.filter((attempt) => attempt.ok).length;
  if (delivered === 0)
    return { status: 'failed', provider: PROVIDER, err: `no push service accepted it: ${problems.join('; ')}`.slice(0, 500) };
  return {
    status: 'sent',
    provider: PROVIDER,
    provider_id: ids[0] ?? null,
    ...(problems.length > 0
      ? { err: `accepted by ${delivered} of ${attempts.length} subscriptions: ${problems.join('; ')}`.slice(0, 500) }
      : {}),
  };
}
