// The stored inbound request: a log (subtype INCOMING) written before the sender is answered, and its
// processing state. While a log is pending it sits in a sparse index of pending logs sorted by when
// the sweeper may re-send it (lib/logs/store.ts). Leaving `pending` removes the index keys in the
// same write, so the index only ever holds the logs that still need work, and the sweeper reads
// them without a Scan.
import { newId, prefixId } from '../../ids';
import type { IngestResult, IngestStatus, LogRecord } from '../../logs/records';
import { overdue } from '../../queues/backlog';
import {
  claimPendingLog,
  getLog,
  insertIncomingLog,
  listDuePendingLogs,
  markPendingLogDue,
  overwriteLog,
  saveLogOutcome,
  type DueLog as StoredDueLog,
} from '../../logs/store';

export type { IngestResult };
/**
 * A pending log older than this was most likely never queued (or its worker died): re-send it.
 * Short enough that a lost message costs seconds, long enough that a queue backlog during a storm is
 * not re-sent (each re-send backs off: 2, 4, … 32 grace periods). A failed send and a restart of the
 * local runtime do not wait for it at all (markDueNow, the start-up re-drive).
 */
export const SWEEP_GRACE_MS = 30_000;

/** Headers that carry secrets are not kept: logs are readable objects (docs/api.md#authentication). */
const SECRET_HEADERS = new Set(['pagertree-token', 'authorization', 'x-api-key', 'x-api-secret', 'cookie']);

export interface IncomingRequest {
  integrationId: string;
  accountId: string;
  body: string;
  /** `base64`: a binary body, kept as base64 (the log says so) instead of mangled as UTF-8. */
  bodyEncoding?: 'base64';
  /** Size as received, in bytes (default: the UTF-8 length of `body`). */
  bytes?: number;
  /** The payload format when it is not the integration type's (`pagerduty_events_v2` from `/v2/enqueue`). */
  adapter?: string;
  /** The drop-in route the request came through, when its adapter reads it (`/v2/alerts/{identifier}/close`). */
  path?: string;
  headers: Record<string, string>;
  query: string;
  receivedAt: number;
  sourceIp: string;
}

export type IncomingLog = LogRecord & {
  data: {
    body: string;
    body_encoding?: 'base64';
    adapter?: string;
    path?: string;
    headers: Record<string, string>;
    query: string;
    result?: IngestResult;
  };
};

function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) kept[name] = SECRET_HEADERS.has(name) ? '[redacted]' : value;
  return kept;
}

/**
 * Stores the request as received. `pending` logs enter the pending index (due for the sweeper after
 * the grace period); an `ignored` one (maintenance window) is complete as written.
 */
export async function storeIncomingLog(
  request: IncomingRequest,
  outcome:
    { status: 'pending' } | { status: 'ignored'; reason: string; result: IngestResult } | { status: 'processed'; result: IngestResult },
  options: { dueAt?: number; content?: string } = {},
): Promise<IncomingLog> {
  const id = newId();
  const receivedIso = new Date(request.receivedAt).toISOString();
  const owner = prefixId('integration', request.integrationId);
  const bytes = request.bytes ?? Buffer.byteLength(request.body, 'utf8');
  const binary = request.bodyEncoding === 'base64';
  const log: IncomingLog = {
    id,
    account_id: request.accountId,
    type: 'integration',
    subtype: 'INCOMING',
    content: options.content ?? `Incoming request to ${owner} (${bytes} bytes${binary ? ', binary, stored base64' : ''})`,
    owner_id: owner,
    source_id: owner,
    level: 1,
    meta: {},
    data: {
      body: request.body,
      ...(binary ? { body_encoding: 'base64' as const } : {}),
      ...(request.adapter ? { adapter: request.adapter } : {}),
      ...(request.path ? { path: request.path } : {}),
      headers: keptHeaders(request.headers),
      query: request.query,
      received_at: receivedIso,
      source_ip: request.sourceIp,
      ...(outcome.status === 'pending' ? {} : { result: outcome.result }),
    },
    status: outcome.status,
    ...(outcome.status === 'ignored' ? { reason: outcome.reason } : {}),
    created_at: receivedIso,
    updated_at: receivedIso,
    version: 1,
  };
  await insertIncomingLog(log, outcome.status === 'pending' ? (options.dueAt ?? request.receivedAt + SWEEP_GRACE_MS) : null);
  return log;
}

export async function getIncomingLog(accountId: string, logId: string): Promise<IncomingLog | null> {
  return (await getLog(accountId, logId)) as IncomingLog | null;
}

/**
 * Records a successful outcome (processed, or ignored by its adapter) and leaves the pending index,
 * by rewriting the whole log through the grouped puts: a worker that processes the same log at the
 * same time writes the same outcome, and the sweeper's claims are conditional on `pending`, so the
 * rewrite needs no condition and shares BatchWrites with the batch's other logs.
 */
/** Outcomes a log keeps in full; a batch of more (a wrapper_key selecting thousands of payloads) keeps
 * the first ones and their number, so the log stays within what the store holds beside its body. */
const KEPT_ACTIONS = 200;

function boundedResult(result: IngestResult): IngestResult {
  const actions = result.actions ?? [];
  if (actions.length <= KEPT_ACTIONS) return result;
  return { ...result, actions: actions.slice(0, KEPT_ACTIONS), actions_total: actions.length };
}

export async function completeIncomingLog(
  log: IncomingLog,
  status: 'processed' | 'ignored',
  reason: string | null,
  result: IngestResult,
  /** Fields recorded beside the result (`sns_signature`). */
  extra: Record<string, unknown> = {},
): Promise<void> {
  const done: IncomingLog = {
    ...log,
    status,
    reason: reason ?? undefined,
    data: { ...log.data, ...extra, result: boundedResult(result) },
    updated_at: new Date().toISOString(),
    version: log.version + 1,
  };
  await overwriteLog(done);
}

/**
 * Records the outcome of processing: status, reason and result, and leaves the pending index — only
 * if the log is still in the status the worker found it in (a concurrent worker that finished first
 * wins; its outcome is the same). Returns false when the log had moved on.
 */
export async function finishIncomingLog(
  log: IncomingLog,
  status: Exclude<IngestStatus, 'pending'>,
  reason: string | null,
  result: IngestResult,
  /** Fields recorded beside the result (`sns_signature`). */
  extra: Record<string, unknown> = {},
): Promise<boolean> {
  return saveLogOutcome(log, log.status ?? 'pending', { status, reason, result, data: extra });
}

export type DueLog = StoredDueLog<IncomingLog>;

/** Pending logs whose due time has passed, oldest first, from every shard. */
export async function duePendingLogs(now: number, limitPerShard: number): Promise<DueLog[]> {
  return (await listDuePendingLogs(now, limitPerShard)) as DueLog[];
}

/**
 * Claims a due pending log for one re-send: moves its due time on (backing off with each re-send) if
 * it is still pending and nobody claimed it meanwhile. False when it was processed or claimed.
 */
export async function claimForResend(due: DueLog, now: number): Promise<boolean> {
  const resends = Number((due.log as { resends?: number }).resends ?? 0);
  return claimPendingLog(due, now + SWEEP_GRACE_MS * Math.min(2 ** resends, 32));
}

/** Makes a pending log due for the sweeper now (its queue send failed): nothing else would queue it.
 * Overdue (lib/queues/backlog.ts): it is not in the queue, so a backlog there is no reason to wait. */
export async function markDueNow(log: IncomingLog, now = Date.now()): Promise<void> {
  await markPendingLogDue(log, overdue(now));
}

/** Pending logs read per shard to find the oldest: the index is sorted by due time, and a re-sent log moves later. */
const OLDEST_READ_PER_SHARD = 5;
const FAR_FUTURE = Date.UTC(9999, 0, 1);

/**
 * When the oldest request still waiting to be processed was received (GET /health), from the first
 * few entries of each shard of the pending index: 8 bounded queries, no scan. Null when none waits.
 */
export async function oldestPendingLogAt(): Promise<number | null> {
  const first = await listDuePendingLogs(FAR_FUTURE, OLDEST_READ_PER_SHARD);
  if (first.length === 0) return null;
  return Math.min(...first.map((entry) => Date.parse(entry.log.created_at)));
}
