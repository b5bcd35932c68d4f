// Creating an alert, the one way every interface and the webhook pipeline do it: store it open
// (dedup_count 1, the next tiny id), write its 'created' timeline entry, hand it to routing.
import { isUlid, newId } from '../ids';
import { nextTinyId } from '../store/grouped-writes';
import { batchGet, entityKey, ENTITY_TYPES, keyString } from '../store/items';
import type { Actor, AlertRecord, Urgency } from './records';
import { sendToRouting } from './routing-queue';
import { alertDefaults, getAlert, insertAlert } from './store';
import { recordTimeline } from './timeline';

export interface NewAlertInput {
  title: string;
  description?: string;
  urgency: Urgency;
  tag_list?: string[];
  thirdparty_id?: string | null;
  dedup_keys?: string[];
  meta?: Record<string, unknown>;
  additional_data?: { type: string; label: string; value: unknown }[];
  /** ULIDs, already validated by the caller. */
  destination_team_ids?: string[];
  destination_router_ids?: string[];
  destination_account_user_ids?: string[];
  destination_schedule_ids?: string[];
  subtype?: string;
  source_log_id?: string | null;
}

/** `null` inside meta means unset (contract §4). */
export function withoutNulls(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta ?? {}).filter(([, v]) => v !== null && v !== undefined));
}

// An account user never changes its user, so the pairing is safe to keep for the process's life.
const knownUsers = new Map<string, string>();
const KNOWN_USERS_MAX = 50_000;

/** The user behind each account user (for the earlier interface's `usr_` ids); absent ones are skipped. */
export async function usersOfAccountUsers(accountId: string, accountUserIds: string[]): Promise<Record<string, string>> {
  const users: Record<string, string> = {};
  const unknown = accountUserIds.filter((id) => {
    const user = knownUsers.get(`${accountId}|${id}`);
    if (user) users[id] = user;
    return !user;
  });
  if (unknown.length === 0) return users;
  const keys = unknown.map((id) => entityKey(accountId, ENTITY_TYPES.accountUser, id));
  const found = await batchGet(keys);
  unknown.forEach((id, i) => {
    const item = found.get(keyString(keys[i]));
    if (item && typeof item.user_id === 'string') {
      users[id] = item.user_id;
      if (knownUsers.size >= KNOWN_USERS_MAX) knownUsers.clear();
      knownUsers.set(`${accountId}|${id}`, item.user_id);
    }
  });
  return users;
}

/** Idempotent: the 'created' entry has the alert's id, and routing ignores a routed alert.
 * `justInserted`: this call stored the alert, so no earlier attempt wrote its entry. */
async function handOff(alert: AlertRecord, actor: Actor, justInserted = false): Promise<void> {
  await Promise.all([
    recordTimeline(
      {
        alert,
        action: 'created',
        actor,
        oldStatus: null,
        newStatus: alert.status,
        time: alert.created_at,
        id: alert.id,
      },
      { fresh: justInserted },
    ),
    sendToRouting({ account_id: alert.account_id, alert_id: alert.id }),
  ]);
}

/**
 * Stores the alert (status open, dedup_count 1, next tiny id), writes its 'created' timeline log and
 * sends it to the routing queue. With options.id it is idempotent: when an alert with that id
 * exists, it returns it with created=false and does nothing else (crash-safe re-processing of a
 * webhook) – except that when that alert was never routed (an earlier attempt stopped between its
 * writes), the hand-off is repeated, which is harmless, so that no alert is ever left unrouted.
 * `fresh` tells that no earlier attempt can have stored it (the caller just claimed its id): the
 * read is skipped, and the conditional put still settles any doubt.
 */
export async function insertNewAlert(
  accountId: string,
  input: NewAlertInput,
  actor: Actor,
  options: { id?: string; fresh?: boolean } = {},
): Promise<{ alert: AlertRecord; created: boolean }> {
  if (options.id !== undefined && !isUlid(options.id)) throw new Error(`insertNewAlert: id must be a ULID: ${options.id}`);
  if (options.id && !options.fresh) {
    const existing = await getAlert(accountId, options.id);
    if (existing) {
      if (!existing.routed_at) await handOff(existing, actor);
      return { alert: existing, created: false };
    }
  }
  const accountUserIds = [...new Set(input.destination_account_user_ids ?? [])];
  const [tinyId, destinationUsers] = await Promise.all([
    nextTinyId(accountId, ENTITY_TYPES.alert),
    usersOfAccountUsers(accountId, accountUserIds),
  ]);
  const now = new Date().toISOString();
  const alert: AlertRecord = {
    ...alertDefaults(),
    id: options.id ?? newId(),
    account_id: accountId,
    tiny_id: tinyId,
    version: 1,
    title: input.title,
    description: input.description ?? '',
    urgency: input.urgency,
    status: 'open',
    subtype: input.subtype ?? 'alert',
    tag_list: [...new Set(input.tag_list ?? [])],
    thirdparty_id: input.thirdparty_id ?? null,
    dedup_keys: [...new Set(input.dedup_keys ?? [])],
    meta: withoutNulls(input.meta),
    destination_team_ids: [...new Set(input.destination_team_ids ?? [])],
    destination_router_ids: [...new Set(input.destination_router_ids ?? [])],
    destination_account_user_ids: accountUserIds,
    destination_schedule_ids: [...new Set(input.destination_schedule_ids ?? [])],
    destination_users: destinationUsers,
    source_type: actor.type,
    source_id: actor.type === 'AccountUser' ? actor.accountUserId : actor.integrationId,
    source_user_id: actor.type === 'AccountUser' ? actor.userId : null,
    source_log_id: input.source_log_id ?? null,
    additional_data: input.additional_data ?? [],
    created_at: now,
    updated_at: now,
  };
  if (!(await insertAlert(alert))) {
    // A concurrent attempt with the same id stored it first: that one is the alert.
    const winner = await getAlert(accountId, alert.id);
    if (!winner) throw new Error(`alert ${alert.id} was stored and removed while being created`);
    if (!winner.routed_at) await handOff(winner, actor);
    return { alert: winner, created: false };
  }
  await handOff(alert, actor, true);
  return { alert, created: true };
}
