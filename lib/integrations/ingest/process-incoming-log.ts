// The ingest worker's use case (docs/api.md#integrations). Flow: load the stored request → skip it when already
// done → run the type's adapter (pure) → apply each action idempotently → record the outcome on the
// log (processed / ignored / failed + reason). Safe to run any number of times for one log, also
// concurrently: the actions are exactly-once in effect and the outcome write is conditional.
import { config } from '../../config';
import { parseId } from '../../ids';
import { logger } from '../../log';
import { whenLoaded } from '../../on-first-use';
import { UnknownIntegrationType, UnreadablePayload, type AdapterAction } from '../adapters';
import { integrationById } from '../integration-cache';
import { slugOf } from '../represent';
import { checkSnsMessage, confirmSnsSubscription, UNVERIFIED_UNREACHABLE } from '../sns/check-sns-message';
import type { SnsMessage } from '../sns/verify-signature';
import { adaptLog } from './adapt-log';
import { applyCreate, applyTransition, type ActionContext, type ActionOutcome } from './apply-actions';
import type { Prefetched } from './prefetch';
import { completeIncomingLog, finishIncomingLog, getIncomingLog, type IncomingLog, type IngestResult } from './incoming-log';
import { withCountsDeferred } from '../../store/deferred-counts';

export type ProcessOutcome = 'processed' | 'ignored' | 'failed' | 'skipped' | 'missing';

export interface Attempt {
  /** ApproximateReceiveCount of the message. */
  receiveCount: number;
  /** The queue's maxReceiveCount: the attempt that reaches it is the last before the DLQ. */
  maxReceiveCount: number;
}

/** Logs a worker still has to work on: pending, or failed only because retries ran out (a DLQ redrive). */
function needsWork(log: IncomingLog): boolean {
  if (log.status === 'pending') return true;
  return log.status === 'failed' && log.data.result?.failure === 'exhausted';
}

async function applyAll(ctx: ActionContext, actions: AdapterAction[]): Promise<{ outcomes: ActionOutcome[]; subscribeUrl?: string }> {
  const outcomes: ActionOutcome[] = [];
  let subscribeUrl: string | undefined;
  // In order: one request may create and then resolve (a batch), and a token is the action's position.
  for (const [index, action] of actions.entries()) {
    switch (action.action) {
      case 'create': {
        const token = index === 0 ? ctx.logId : `${ctx.logId}#${index}`;
        outcomes.push(await applyCreate(ctx, token, action.thirdpartyId, action.alert));
        break;
      }
      case 'acknowledge':
      case 'resolve':
        outcomes.push(await applyTransition(ctx, action.action, action));
        break;
      case 'ignore': {
        const url = action.details?.subscribeUrl;
        // Recorded here; confirmed below, only once the message's signature has verified.
        if (typeof url === 'string') subscribeUrl = url;
        outcomes.push({ action: 'ignore', outcome: action.reason });
        break;
      }
    }
  }
  return { outcomes, subscribeUrl };
}

/**
 * The counts the request's actions move (an alert's counters, its created_at day, its team's report
 * day, its timeline entry) are held back and written summed once the request is done, after its alert
 * went to routing: nothing on the way to the page waits for them (lib/store/deferred-counts.ts).
 */
export function processIncomingLog(accountId: string, logId: string, prefetched?: Prefetched): Promise<ProcessOutcome> {
  return withCountsDeferred(() => processNow(accountId, logId, prefetched));
}

async function processNow(accountId: string, logId: string, prefetched?: Prefetched): Promise<ProcessOutcome> {
  const cached = prefetched?.logs.get(logId);
  const log = cached !== undefined ? cached : await getIncomingLog(accountId, logId);
  if (!log) return 'missing';
  if (!needsWork(log)) return 'skipped';

  const integrationId = parseId('integration', log.owner_id);
  const integration = integrationId ? await integrationById(integrationId) : null;
  if (!integration || integration.account_id !== accountId) {
    await finishIncomingLog(log, 'failed', 'the integration no longer exists', { failure: 'configuration' });
    return 'failed';
  }

  // An SNS message acts only once its signature verifies (a forged one is failed, and makes no alert),
  // or, when its certificate cannot be reached at all, as `unverified` (check-sns-message.ts).
  let sns: SnsMessage | null = null;
  let snsSignature: string | undefined;
  if ((log.data.adapter ?? slugOf(integration)) === 'aws_cloudwatch' && log.data.body_encoding !== 'base64') {
    const check = await checkSnsMessage(log.data.body ?? '', { signatureRequired: config().SNS_SIGNATURE_REQUIRED });
    if (check.kind === 'rejected') {
      await finishIncomingLog(
        log,
        'failed',
        `SNS message not verified: ${check.reason}`,
        { failure: 'signature', ...(check.subscribeUrl ? { subscribe_url: check.subscribeUrl, subscription_confirmed: false } : {}) },
        { sns_signature: `failed: ${check.reason}` },
      );
      return 'failed';
    }
    if (check.kind === 'verified') {
      sns = check.message;
      snsSignature = 'verified';
    } else if (check.kind === 'unverified') {
      sns = check.message;
      snsSignature = UNVERIFIED_UNREACHABLE;
      logger.warn('sns: signing certificate unreachable; message accepted unverified (SNS_SIGNATURE_REQUIRED=true refuses it)', {
        logId: log.id,
        integrationId: integration.id,
        problem: check.problem,
      });
    }
  }

  let actions: AdapterAction[];
  try {
    actions = await whenLoaded(() => adaptLog(log, integration));
  } catch (error) {
    if (error instanceof UnreadablePayload || error instanceof UnknownIntegrationType) {
      const failure = error instanceof UnreadablePayload ? 'unreadable' : 'configuration';
      await finishIncomingLog(log, 'failed', error.message, { failure });
      return 'failed';
    }
    throw error;
  }

  const ctx: ActionContext = { integration, logId: log.id, now: Date.now, prefetched: prefetched?.dedup };
  const { outcomes, subscribeUrl } = await applyAll(ctx, actions);
  const result: IngestResult = {
    actions: outcomes as unknown as Array<Record<string, unknown>>,
    alert_ids: [...new Set(outcomes.flatMap((o) => (o.alert_id ? [o.alert_id] : [])))],
    ...(subscribeUrl ? { subscribe_url: subscribeUrl } : {}),
    ...(subscribeUrl && sns ? await confirmSnsSubscription(sns) : {}),
  };
  const ignoredOnly = outcomes.every((o) => o.action === 'ignore');
  const status = ignoredOnly ? 'ignored' : 'processed';
  const reason = ignoredOnly ? (outcomes[0]?.outcome ?? 'nothing to do') : null;
  await completeIncomingLog(log, status, reason, result, snsSignature ? { sns_signature: snsSignature } : {});
  return status;
}

/**
 * One attempt of the queue: an unexpected error propagates (the message is retried), but on the last
 * attempt before the dead-letter queue the log is first marked failed with the reason, so no accepted
 * request ends silently in the DLQ.
 */
export async function processAttempt(accountId: string, logId: string, attempt: Attempt, prefetched?: Prefetched): Promise<ProcessOutcome> {
  try {
    return await processIncomingLog(accountId, logId, prefetched);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (attempt.receiveCount >= attempt.maxReceiveCount) {
      const log = await getIncomingLog(accountId, logId).catch(() => null);
      if (log && log.status === 'pending') {
        await finishIncomingLog(log, 'failed', `processing failed ${attempt.receiveCount} times: ${reason}`, {
          failure: 'exhausted',
        }).catch((markError: unknown) => logger.error('could not mark the log failed', { logId, error: markError as Error }));
      }
    }
    throw error;
  }
}
