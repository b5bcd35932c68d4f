// Applies an adapter's actions to alerts, exactly once in effect however often one stored request is
// processed (docs/api.md#deduplication). Flow per create: read the dedup item → decide (new alert, or count onto the
// current one) → commit the decision with one conditional write on the dedup item → carry it out on
// the alert with idempotent writes. Whatever step a crash interrupts, processing the request again
// finds its token in the dedup item and only repeats the idempotent part:
//   - decided "new alert", alert not stored yet → insertNewAlert with the same derived id stores it,
//     and raises it to the count the item had reached meanwhile;
//   - counted, dedup_count not raised yet       → raiseDedupCount to the item's count (a max, so
//     raising twice, or out of order, lands on the same number).
// A duplicate that counts onto an alert still being created cannot raise it yet: it is retried
// later (RetryLater), by when the alert exists. Deleting an alert marks its dedup item
// (markAlertStored), so an absent alert is told apart from one still being created.
import { createHash } from 'node:crypto';
import { storableJson } from '../../encoding/json-data';
import { insertNewAlert, type NewAlertInput } from '../../alerts/create-alert';
import type { Actor, AlertRecord, AlertStatus } from '../../alerts/records';
import { resolveAlertId } from '../../alerts/read-alerts';
import { getAlert } from '../../alerts/store';
import { derivedUlid } from '../../alerts/timeline';
import { raiseDedupCount } from '../../alerts/dedup-count';
import {
  countOnto,
  dedupKey,
  dedupKeyString,
  getDedupItem,
  hasGeneration,
  pruneCounted,
  rememberResolve,
  claimEnding,
  ENDING_CLAIM_MS,
  releaseEnding,
  tokenLog,
  startGeneration,
  type DedupItem,
} from '../../alerts/dedup-store';
import { acknowledgeAlert } from '../../alert-transitions/acknowledge';
import { resolveAlert } from '../../alert-transitions/resolve';
import { HttpError } from '../../http/errors';
import { raced, retryWhileRaced, type Raced } from '../../store/retry';
import { sleep } from '../../clock';
import { TTL_ATTRIBUTE } from '../../store/table';
import { parseId, ulidTime } from '../../ids';
import { recordMetric } from '../../metrics';
import type { AlertFields, AlertReference } from '../adapters';
import type { IntegrationRecord } from '../records';

/** Statuses in which a create from the same sender id adds to the alert instead of making another. */
const DEDUP_STATUSES: ReadonlySet<AlertStatus> = new Set(['queued', 'open', 'acknowledged', 'dropped']);
/**
 * How long a generation's alert may be missing and still count as "being created": longer than a
 * worker needs to retry a crashed attempt (visibility timeout × receives), so a crash between the
 * dedup write and the alert write never splits one sender alert into two.
 */
const IN_FLIGHT_MS = 15 * 60_000;
const ATTEMPTS = 10;
/** A long-lived alert's counted set is pruned of tokens older than a day once it grows this large. */
const PRUNE_AT = 1000;
const DAY_MS = 24 * 3600_000;

/** A resolve or acknowledge whose alert is still being created: process the request again later. */
export class RetryLater extends Error {
  override name = 'RetryLater';
}

export interface ActionContext {
  integration: IntegrationRecord;
  /** ULID of the stored request. */
  logId: string;
  now: () => number;
  /** Dedup items read for the whole queue batch at once (keyed `pk|sk`): each serves one first read. */
  prefetched?: Map<string, DedupItem | null>;
}

/** The dedup item: the batch's prefetched copy on first use (a consistent read of moments ago; every
 * decision on it is still a conditional write), else a fresh read. */
async function dedupOf(ctx: ActionContext, key: ReturnType<typeof dedupKey>): Promise<DedupItem | null> {
  const cached = ctx.prefetched?.get(dedupKeyString(key));
  if (cached !== undefined) {
    ctx.prefetched!.delete(dedupKeyString(key));
    return cached;
  }
  return getDedupItem(key);
}

export interface ActionOutcome {
  action: string;
  thirdparty_id?: string;
  /** The alert a transition named by our id or tiny id (Opsgenie's identifierType id | tiny). */
  alert_ref?: string;
  alert_id?: string;
  outcome: string;
}

function actorOf(integration: IntegrationRecord): Actor {
  return { type: 'Integration', integrationId: integration.id };
}

function alertInput(ctx: ActionContext, thirdpartyId: string, fields: AlertFields): NewAlertInput {
  const { integration } = ctx;
  return {
    title: fields.title,
    description: fields.description,
    urgency: fields.urgency,
    tag_list: fields.tags,
    thirdparty_id: thirdpartyId,
    dedup_keys: fields.dedupKeys,
    // As the sender sent them, made storable: 1e400 or a `constructor` key must not fail the alert.
    meta: fields.meta && (storableJson(fields.meta) as NewAlertInput['meta']),
    additional_data: fields.additionalData && (storableJson(fields.additionalData) as NewAlertInput['additional_data']),
    destination_team_ids: integration.team_ids,
    destination_router_ids: integration.router_ids,
    destination_account_user_ids: integration.account_user_ids,
    destination_schedule_ids: integration.schedule_ids,
    source_log_id: ctx.logId,
  };
}

/** The id the alert of a new generation gets: a function of the request alone, so a retry finds it. */
export function alertIdFor(logId: string, token: string, thirdpartyId: string, integrationId: string): string {
  return derivedUlid(ulidTime(logId), `alert:${integrationId}:${thirdpartyId}:${token}`);
}

/** Is the generation's alert (null: absent) still the one creates count onto? */
function stillCounting(dedup: DedupItem, alert: AlertRecord | null, now: number): boolean {
  if (alert) return DEDUP_STATUSES.has(alert.status);
  // Absent: deleted if it was stored once, else being created by a request still in flight.
  return !dedup.alert_created && now - dedup.started_at < IN_FLIGHT_MS;
}

/**
 * Stores the generation's alert (idempotent by id). `countSoFar`: the item's count as this attempt
 * read it, when it repeats a crashed attempt (duplicates may have been counted meanwhile).
 */
async function ensureAlert(ctx: ActionContext, alertId: string, input: NewAlertInput, countSoFar: number | null): Promise<string> {
  const { alert, created } = await insertNewAlert(ctx.integration.account_id, input, actorOf(ctx.integration), {
    id: alertId,
    fresh: countSoFar === null,
  });
  if (countSoFar !== null && countSoFar > alert.dedup_count) {
    await raiseDedupCount(ctx.integration.account_id, alertId, countSoFar);
  }
  // The log's id carries the moment its request was stored (answered 202).
  if (created) recordMetric('webhookToAlert', Date.parse(alert.created_at) - ulidTime(ctx.logId));
  return created ? 'created' : 'already_created';
}

/**
 * Raises the alert to the count; an alert still being created cannot be raised yet: try later (by
 * then it exists). Not "already that high" when it shows up after the raise looked: it was stored
 * meanwhile at the count its creator read, which may be lower.
 */
async function raiseOrRetry(ctx: ActionContext, dedup: DedupItem, alertId: string, count: number): Promise<void> {
  const accountId = ctx.integration.account_id;
  if (await raiseDedupCount(accountId, alertId, count, ctx.logId)) return;
  if (stillCounting(dedup, null, ctx.now())) throw new RetryLater(`alert ${alertId} is still being created`);
}

/** The sender's id as an outcome shows it: cut past 256 characters, so a log that already holds a body
 * of 256 KB and repeats the id in its outcome stays within what the store holds (a 250 KB id was a
 * log that could not be finished, retried into the dead-letter queue). */
function shownId(thirdpartyId: string): string {
  return thirdpartyId.length <= 256 ? thirdpartyId : `${thirdpartyId.slice(0, 256)}… (${thirdpartyId.length} characters)`;
}

export async function applyCreate(ctx: ActionContext, token: string, thirdpartyId: string, fields: AlertFields): Promise<ActionOutcome> {
  const accountId = ctx.integration.account_id;
  const key = dedupKey(accountId, ctx.integration.id, thirdpartyId);
  const input = alertInput(ctx, thirdpartyId, fields);
  const base = { action: 'create', thirdparty_id: shownId(thirdpartyId) };
  return retryWhileRaced(
    ATTEMPTS,
    async (): Promise<ActionOutcome | Raced> => {
      const dedup = await dedupOf(ctx, key);

      if (dedup?.counted.has(token)) {
        // This request was applied before (a redelivery): repeat only the idempotent part.
        if (dedup.created_by === token) {
          return { ...base, alert_id: dedup.alert_id, outcome: await ensureAlert(ctx, dedup.alert_id, input, dedup.count) };
        }
        await raiseOrRetry(ctx, dedup, dedup.alert_id, dedup.count);
        return { ...base, alert_id: dedup.alert_id, outcome: 'deduplicated' };
      }
      if (dedup?.previous_counted?.has(token)) {
        return { ...base, outcome: 'already_applied' };
      }

      const generation = dedup && hasGeneration(dedup) ? dedup : null;
      const alert = generation ? await getAlert(accountId, generation.alert_id) : null;
      // A resolve's claim older than ENDING_CLAIM_MS is void (that resolve never finished).
      const ending =
        generation?.ending_log !== undefined && ctx.now() - (generation.ending_at ?? 0) < ENDING_CLAIM_MS
          ? generation.ending_log
          : undefined;
      if (generation && ending !== undefined && tokenLog(token) > ending && stillCounting(generation, alert, ctx.now())) {
        // The sender resolved the id before making this request, and that resolve is ending the alert
        // right now: this create is the next alert's, once that one has ended.
        if (!(await endedSoon(accountId, generation, ctx.now))) {
          throw new RetryLater(`alert ${generation.alert_id} is being resolved by an earlier request`);
        }
        return raced();
      }
      // Counted onto the alert while it is open, and onto an alert the sender's resolve ended when this
      // create was accepted before that resolve (it was processed late: it belongs to that alert).
      const ended = generation?.ending_log;
      const acceptedBeforeItsEnd = ended !== undefined && tokenLog(token) < ended && alert?.status === 'resolved';
      if (generation && (stillCounting(generation, alert, ctx.now()) || acceptedBeforeItsEnd)) {
        const count = await countOnto(key, token, generation.alert_id, ctx.now());
        if (count === null) return raced();
        await raiseOrRetry(ctx, generation, generation.alert_id, count);
        if (generation.counted.size >= PRUNE_AT) {
          const cutoff = ctx.now() - DAY_MS;
          await pruneCounted(
            key,
            generation.alert_id,
            [...generation.counted].filter((t) => ulidTime(t) < cutoff),
          );
        }
        return { ...base, alert_id: generation.alert_id, outcome: 'deduplicated' };
      }
      // The sender resolved the id after making this request, and that resolve was processed first
      // (out of order, or beside it in one batch): the alert it would open is over already.
      if (dedup && !generation && dedup.resolved_by_log !== undefined && ctx.logId < dedup.resolved_by_log) {
        return { ...base, outcome: 'resolved_before' };
      }

      const alertId = alertIdFor(ctx.logId, token, thirdpartyId, ctx.integration.id);
      const started = await startGeneration(key, token, alertId, ctx.now(), dedup, {
        integration_id: ctx.integration.id,
        thirdparty_id: thirdpartyId,
      });
      if (!started) return raced();
      // This attempt just started the generation, so no earlier one can have stored its alert.
      return { ...base, alert_id: alertId, outcome: await ensureAlert(ctx, alertId, input, null) };
    },
    () => {
      throw new Error(`the dedup item of ${thirdpartyId} kept changing; giving up for now`);
    },
  );
}

/** What a transition names: the sender's id, or (Opsgenie's close by id or tiny id) the alert itself. */
export type TransitionTarget = { thirdpartyId: string } | { alertRef: AlertReference };

/** Acknowledge or resolve the alert the target names now; a repeat finds it done (no-op). */
export async function applyTransition(
  ctx: ActionContext,
  action: 'acknowledge' | 'resolve',
  target: TransitionTarget,
): Promise<ActionOutcome> {
  if ('alertRef' in target) return applyTransitionByRef(ctx, action, target.alertRef);
  const { thirdpartyId } = target;
  const accountId = ctx.integration.account_id;
  const base = { action, thirdparty_id: shownId(thirdpartyId) };
  const key = dedupKey(accountId, ctx.integration.id, thirdpartyId);
  let dedup = await dedupOf(ctx, key);
  if (!dedup || !hasGeneration(dedup)) {
    // No alert for the id yet. A resolve is remembered, so that a create made before it and
    // processed after it opens nothing; unless a create started one meanwhile (its item, as the
    // failed condition found it, read once).
    // Remembered for a day (the table's TTL): by then its create, if it ever comes, has long been processed.
    if (action !== 'resolve') return { ...base, outcome: 'no_alert' };
    const remembered = await rememberResolve(key, ctx.logId, {
      integration_id: ctx.integration.id,
      thirdparty_id: thirdpartyId,
      [TTL_ATTRIBUTE]: Math.ceil(ctx.now() / 1000) + DAY_MS / 1000,
    });
    if (remembered.remembered) return { ...base, outcome: 'no_alert' };
    dedup = remembered.current;
    if (!dedup || !hasGeneration(dedup)) return { ...base, outcome: 'no_alert' };
  }
  const alert = await alertOnceStored(accountId, dedup, ctx.now);
  if (!alert) {
    if (stillCounting(dedup, null, ctx.now())) throw new RetryLater(`the alert for ${thirdpartyId} is still being created`);
    return { ...base, alert_id: dedup.alert_id, outcome: 'no_alert' };
  }
  if (action === 'resolve' && DEDUP_STATUSES.has(alert.status)) {
    // Claimed first, so that from here a create accepted after this resolve starts the next alert
    // instead of counting onto this one; one counted before the claim makes this resolve outdated.
    const claimed = await claimEnding(key, alert.id, ctx.logId, ctx.now());
    if (claimed && [...claimed.counted].some((token) => tokenLog(token) > ctx.logId)) {
      await releaseEnding(key, ctx.logId);
      return { ...base, alert_id: alert.id, outcome: 'superseded' };
    }
  }
  return transitionOnce(ctx, action, alert, base, thirdpartyId);
}

/**
 * Waits a moment (as for an alert being created) for the generation's alert to leave the statuses
 * creates count onto: a resolve accepted before the caller's create is ending it.
 */
async function endedSoon(accountId: string, generation: DedupItem, now: () => number): Promise<boolean> {
  return (await readAlertUntil(accountId, generation.alert_id, now, (alert) => !stillCounting(generation, alert, now()))).settled;
}

/** How long a transition waits for the alert of a create in flight (often beside it in the same batch). */
const CREATE_WAIT_MS = 2_000;

/**
 * The generation's alert; while it is still being created, waited for a moment (a create and its
 * resolve in one batch run side by side): sent back to the queue, the resolve would come minutes
 * later, after the alert had paged someone.
 */
async function alertOnceStored(accountId: string, dedup: DedupItem, now: () => number): Promise<AlertRecord | null> {
  return (await readAlertUntil(accountId, dedup.alert_id, now, (alert) => alert !== null || !stillCounting(dedup, null, now()))).alert;
}

/** Reads the alert every 50 ms until `settled` holds for it or CREATE_WAIT_MS has passed: the last read, and whether it held. */
async function readAlertUntil(
  accountId: string,
  alertId: string,
  now: () => number,
  settled: (alert: AlertRecord | null) => boolean,
): Promise<{ alert: AlertRecord | null; settled: boolean }> {
  const until = now() + CREATE_WAIT_MS;
  for (;;) {
    const alert = await getAlert(accountId, alertId);
    if (settled(alert)) return { alert, settled: true };
    if (now() >= until) return { alert, settled: false };
    await sleep(50);
  }
}

/** By our id or tiny id, within the integration's account only: another account's alert is no alert. */
async function applyTransitionByRef(ctx: ActionContext, action: 'acknowledge' | 'resolve', ref: AlertReference): Promise<ActionOutcome> {
  const accountId = ctx.integration.account_id;
  const shown = ref.by === 'id' ? ref.id : `tiny ${ref.tinyId}`;
  const base = { action, alert_ref: shownId(shown) };
  const id = ref.by === 'id' ? parseId('alert', ref.id) : await resolveAlertId(accountId, String(ref.tinyId));
  const alert = id ? await getAlert(accountId, id) : null;
  if (!alert) return { ...base, outcome: 'no_alert' };
  return transitionOnce(ctx, action, alert, base, `ref:${shown}`);
}

async function transitionOnce(
  ctx: ActionContext,
  action: 'acknowledge' | 'resolve',
  alert: AlertRecord,
  base: Omit<ActionOutcome, 'outcome'>,
  named: string,
): Promise<ActionOutcome> {
  const accountId = ctx.integration.account_id;
  // The stored request names the transition: processing it again (a redelivery, a crashed attempt)
  // is a repeat of the same request, answered with the alert as the first processing left it.
  const request = {
    actor: actorOf(ctx.integration),
    rules: 'integration' as const,
    idempotencyKey: `ingest:${ctx.logId}:${action}:${createHash('sha256').update(named).digest('base64url').slice(0, 22)}`,
  };
  try {
    const after =
      action === 'acknowledge' ? await acknowledgeAlert(accountId, alert.id, request) : await resolveAlert(accountId, alert.id, request);
    return { ...base, alert_id: alert.id, outcome: after.status };
  } catch (error) {
    // Already acknowledged/resolved (a repeat, or a person was quicker): nothing left to do.
    if (error instanceof HttpError && (error.status === 409 || error.status === 404)) {
      return { ...base, alert_id: alert.id, outcome: `unchanged (${alert.status})` };
    }
    throw error;
  }
}
