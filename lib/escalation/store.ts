// Data access for escalation (lib/escalation/ACCESS-PATTERNS.md): the only file that knows its keys.
//   state      ESC#<acc>#<alert id> / STATE   one item per alert: the engine's state (packed JSON,
//              state-codec.ts), the item version, deferred starts, the outbox of effects not yet
//              carried out (both packed likewise), the paging lease
//              (owner, until) and due_at, mirrored into the due index (lib/store/due-index.ts) while
//              something waits; the step that wrote it (committed_by), the version of the alert it
//              went by (alert_version) and the keys of the last requests it applied (requests: a
//              reject delivered twice rejects once).
//   on call    A#<acc>#GOC / <team id>        who was on call for the team when the sweeper last looked
//   gap week   A#<acc>#GAPWEEK / <team id>    {week}: the last week whose coverage-gap notice the team had
//              SYSTEM / GAPWEEK               {week}: the last week every team was checked in
// Every write is conditional on the item version (dynalite has no transactions); the lease keeps
// acknowledge and resolve from answering while a step may still be paging, and their stop request
// keeps that step from extending it.
import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand } from '../store/commands';
import { GroupCommit } from '../group-commit';
import type { EscalationEffect, EscalationState, PageTemplate, AssignmentTarget } from './engine';
import { db, tableName } from '../store/client';
import { dueIndexKeys, FORMER_DUE_KEYS } from '../store/due-index';
import { getItem, isConditionFailure, queryItems, type Item } from '../store/items';
import { packJson, unpackJson } from './state-codec';

/** A start that waits (a router's assign delay), kept in the item so a crash cannot lose it. */
export interface DeferredStart {
  key: string;
  targets: AssignmentTarget[];
  template?: PageTemplate;
  due_at: number;
}

export interface StoredEscalation {
  accountId: string;
  alertId: string;
  /** The item's concurrency token (+1 on every write, commits and lease changes alike); 0: absent. */
  version: number;
  state: EscalationState | null;
  deferred: DeferredStart[];
  outbox: EscalationEffect[];
  leaseOwner: string | null;
  leaseUntil: number | null;
  dueAt: number | null;
  /** The step (its owner id) whose commit wrote this version: a commit whose answer was lost is its own. */
  committedBy: string | null;
  /** Idempotency keys of the last requests whose events a step applied (oldest first). */
  requests: string[];
  /**
   * The version of the alert record the last commit went by; null on an item written before it was
   * kept (or by a step for an alert that was gone). An alert a caller hands a step is newer than
   * anything escalation has seen when it is at least this version (run-step.ts `StepOptions.alert`).
   */
  alertVersion: number | null;
}

/** Request keys kept on the state item. */
export const MAX_REQUEST_KEYS = 10;

const stateKey = (accountId: string, alertId: string) => ({ pk: `ESC#${accountId}#${alertId}`, sk: 'STATE' });

/** The due index names a state item `ESC#<acc>#<alert>`. */
export const escalationDueKey = (accountId: string, alertId: string) => `ESC#${accountId}#${alertId}`;

export function parseEscalationDueKey(what: string): { accountId: string; alertId: string } | null {
  const parts = what.split('#');
  return parts.length === 3 && parts[0] === 'ESC' ? { accountId: parts[1], alertId: parts[2] } : null;
}

function decode(accountId: string, alertId: string, item: Item | null): StoredEscalation {
  return {
    accountId,
    alertId,
    version: typeof item?.version === 'number' ? item.version : 0,
    state: unpackJson<EscalationState>(item?.state) ?? null,
    deferred: unpackJson<DeferredStart[]>(item?.deferred) ?? [],
    outbox: unpackJson<EscalationEffect[]>(item?.outbox) ?? [],
    leaseOwner: typeof item?.lease_owner === 'string' ? item.lease_owner : null,
    leaseUntil: typeof item?.lease_until === 'number' ? item.lease_until : null,
    dueAt: typeof item?.due_at === 'number' ? item.due_at : null,
    committedBy: typeof item?.committed_by === 'string' ? item.committed_by : null,
    requests: Array.isArray(item?.requests) ? (item.requests as string[]) : [],
    alertVersion: typeof item?.alert_version === 'number' ? item.alert_version : null,
  };
}

/** What getEscalation reads where no item is: version 0, nothing started (a commit by it writes only if still none is there). */
export function noEscalation(accountId: string, alertId: string): StoredEscalation {
  return decode(accountId, alertId, null);
}

export async function getEscalation(accountId: string, alertId: string): Promise<StoredEscalation> {
  return decode(accountId, alertId, await getItem(stateKey(accountId, alertId)));
}

/**
 * What acknowledge and resolve read of the state item, whole (a projection would cost the same
 * read unit): is anything running, is a step paging, and, when the stop is not recorded yet, the
 * item the stop step goes by (stop-escalation.ts). Concurrent acknowledgements share one consistent
 * BatchGetItem (a lone one reads at once). Each read is sent after its caller's transition was
 * written, which is all stop-escalation.ts needs.
 */
const stopReads = new GroupCommit<{ accountId: string; alertId: string }, StoredEscalation | null>(
  async (wanted) => {
    const found = new Map<string, Item>();
    let keys = [...new Map(wanted.map((w) => stateKey(w.accountId, w.alertId)).map((k) => [k.pk, k])).values()];
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * 2 ** attempt)));
      const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } }));
      for (const item of out.Responses?.[tableName()] ?? []) found.set(String(item.pk), item as Item);
      keys = (out.UnprocessedKeys?.[tableName()]?.Keys as typeof keys | undefined) ?? [];
    }
    return wanted.map((w) => {
      const item = found.get(stateKey(w.accountId, w.alertId).pk);
      return item ? decode(w.accountId, w.alertId, item) : null;
    });
  },
  100,
  4,
);

/** The state item read strongly for a stop (acknowledge, resolve); null when no escalation exists. */
export function getEscalationForStop(accountId: string, alertId: string): Promise<StoredEscalation | null> {
  return stopReads.add({ accountId, alertId });
}

/**
 * An acknowledgement found `owner` paging: from now on its lease cannot be extended (extendLease),
 * so its pages stop at the lease's end at the latest. A no-op when `owner` no longer holds it.
 */
export async function requestStop(accountId: string, alertId: string, owner: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: stateKey(accountId, alertId),
        UpdateExpression: 'SET stop_requested = :yes',
        ConditionExpression: 'lease_owner = :owner',
        ExpressionAttributeValues: { ':yes': true, ':owner': owner },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export interface EscalationWrite {
  state: EscalationState;
  deferred: DeferredStart[];
  outbox: EscalationEffect[];
  lease: { owner: string; until: number } | null;
  dueAt: number | null;
  /** The request keys the item keeps (default: none). */
  requests?: readonly string[];
  /** The version of the alert record the step went by (absent: the alert is gone). */
  alertVersion?: number;
}

/**
 * Writes the item on condition that it still holds `expectedVersion` (0: that it is absent) and
 * that no one else holds a live lease. Returns the new version, or null when the condition failed
 * (also when an attempt whose answer was lost applied it: `committed_by` then names `owner`).
 */
export async function commitEscalation(
  accountId: string,
  alertId: string,
  expectedVersion: number,
  write: EscalationWrite,
  owner: string,
  now: number,
): Promise<number | null> {
  const version = expectedVersion + 1;
  const item: Item = {
    ...stateKey(accountId, alertId),
    kind: 'escalation',
    account_id: accountId,
    alert_id: alertId,
    version,
    state: packJson(write.state),
    outcome: write.state.outcome,
    ...(write.deferred.length ? { deferred: packJson(write.deferred) } : {}),
    ...(write.outbox.length ? { outbox: packJson(write.outbox) } : {}),
    ...(write.lease ? { lease_owner: write.lease.owner, lease_until: write.lease.until } : {}),
    ...(write.dueAt !== null ? { due_at: write.dueAt, ...dueIndexKeys(write.dueAt, escalationDueKey(accountId, alertId)) } : {}),
    ...(write.requests?.length ? { requests: write.requests.slice(-MAX_REQUEST_KEYS) } : {}),
    ...(write.alertVersion !== undefined ? { alert_version: write.alertVersion } : {}),
    committed_by: owner,
    updated_at: new Date(now).toISOString(),
  };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: item,
        ...(expectedVersion === 0
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#version = :v AND (attribute_not_exists(lease_until) OR lease_until < :now OR lease_owner = :me)',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':v': expectedVersion, ':now': now, ':me': owner },
            }),
      }),
    );
    return version;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/**
 * Takes the lease of an item whose holder is gone (no lease, or an expired one), to carry out the
 * outbox it left. Returns the new version, or null when the item changed or a live lease holds it.
 */
export async function takeOverEscalation(
  accountId: string,
  alertId: string,
  expectedVersion: number,
  owner: string,
  until: number,
  now: number,
): Promise<number | null> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: stateKey(accountId, alertId),
        UpdateExpression: 'SET lease_owner = :me, lease_until = :until, #version = #version + :one REMOVE stop_requested',
        ConditionExpression: '#version = :v AND (attribute_not_exists(lease_until) OR lease_until < :now OR lease_owner = :me)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':me': owner, ':until': until, ':v': expectedVersion, ':now': now, ':one': 1 },
      }),
    );
    return expectedVersion + 1;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** Moves the lease on while a long fan-out is still paging; false when it is no longer ours or a stop was requested. */
export async function extendLease(accountId: string, alertId: string, version: number, owner: string, until: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: stateKey(accountId, alertId),
        UpdateExpression: 'SET lease_until = :until',
        ConditionExpression: '#version = :v AND lease_owner = :me AND attribute_not_exists(stop_requested)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':until': until, ':v': version, ':me': owner },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * The outbox is carried out: removes it (or keeps `handOver`, the pages left to the escalation
 * worker) and the lease, and sets the due index to the next step (or removes it). Conditional on
 * the version written by the commit and on still holding the lease.
 */
export async function releaseEscalation(
  accountId: string,
  alertId: string,
  version: number,
  owner: string,
  dueAt: number | null,
  handOver: readonly EscalationEffect[] = [],
): Promise<boolean> {
  const due = dueAt !== null ? dueIndexKeys(dueAt, escalationDueKey(accountId, alertId)) : null;
  const outbox = handOver.length ? { set: 'outbox = :outbox, ', remove: '' } : { set: '', remove: 'outbox, ' };
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: stateKey(accountId, alertId),
        UpdateExpression: due
          ? `SET ${outbox.set}#version = #version + :one, due_at = :due, gsi5pk = :gpk, gsi5sk = :gsk REMOVE ${outbox.remove}lease_owner, lease_until, stop_requested, ${FORMER_DUE_KEYS}`
          : `SET ${outbox.set}#version = #version + :one REMOVE ${outbox.remove}lease_owner, lease_until, stop_requested, due_at, gsi5pk, gsi5sk, ${FORMER_DUE_KEYS}`,
        ConditionExpression: '#version = :v AND lease_owner = :me',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':v': version,
          ':me': owner,
          ...(due ? { ':due': dueAt, ':gpk': due.gsi5pk, ':gsk': due.gsi5sk } : {}),
          ...(handOver.length ? { ':outbox': packJson(handOver) } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Removes an alert's escalation (the alert was deleted and nothing waits any more). */
export async function removeEscalation(accountId: string, alertId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: stateKey(accountId, alertId) }));
}

// ── going on call: the last on-call set seen per team ─────────────────────────────────────────

const seenKey = (accountId: string, teamId: string) => ({ pk: `A#${accountId}#GOC`, sk: teamId });

export interface SeenOncall {
  accountUserIds: string[];
  version: number;
}

export async function getSeenOncall(accountId: string, teamId: string): Promise<SeenOncall | null> {
  const item = await getItem(seenKey(accountId, teamId));
  if (!item) return null;
  return { accountUserIds: (item.account_user_ids as string[] | undefined) ?? [], version: Number(item.version ?? 1) };
}

/** Every team's last seen on-call set of one account (one Query). */
export async function listSeenOncall(accountId: string): Promise<Map<string, SeenOncall>> {
  const items = await queryItems(seenKey(accountId, '').pk);
  return new Map(
    items.map((item) => [
      String(item.sk),
      { accountUserIds: (item.account_user_ids as string[] | undefined) ?? [], version: Number(item.version ?? 1) },
    ]),
  );
}

/** Records the set on condition that it is still the one read (0: none yet); false when another sweeper came first. */
export async function saveSeenOncall(
  accountId: string,
  teamId: string,
  accountUserIds: string[],
  expectedVersion: number,
  now: number,
): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...seenKey(accountId, teamId),
          account_id: accountId,
          team_id: teamId,
          account_user_ids: accountUserIds,
          version: expectedVersion + 1,
          seen_at: new Date(now).toISOString(),
        },
        ...(expectedVersion === 0
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#version = :v',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':v': expectedVersion },
            }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// The weekly coverage-gap notice (coverage-gap-notice.ts): which week a team, and the whole pass, last had.
const teamGapWeekKey = (accountId: string, teamId: string) => ({ pk: `A#${accountId}#GAPWEEK`, sk: teamId });
const GAP_PASS_KEY = { pk: 'SYSTEM', sk: 'GAPWEEK' };

export async function getTeamGapWeek(accountId: string, teamId: string): Promise<string | null> {
  const item = await getItem(teamGapWeekKey(accountId, teamId));
  return typeof item?.week === 'string' ? item.week : null;
}

export async function saveTeamGapWeek(accountId: string, teamId: string, week: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...teamGapWeekKey(accountId, teamId), account_id: accountId, week } }));
}

export async function getGapPassWeek(): Promise<string | null> {
  const item = await getItem(GAP_PASS_KEY);
  return typeof item?.week === 'string' ? item.week : null;
}

export async function saveGapPassWeek(week: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...GAP_PASS_KEY, week } }));
}
