// Creating an alert, the one way every interface and the webhook pipeline do it (insertNewAlert):
// store it open (dedup_count 1, the next tiny id), write its 'created' timeline entry, hand it to
// routing. POST /api/v4/alerts and POST /alert (and the /broadcast and /incident views) validate
// their interface's input and resolve its destinations first (./create-from-request.ts: apart, so
// the workers that create alerts from webhooks and heartbeats do not load the interfaces' input
// schemas, and zod's classic API with them, at their start).
import { usersOfAccountUsers } from '../account-users/read-account-users';
import { withoutNulls } from '../http/changes';
import { isUlid, newIdAt } from '../ids';
import { now as clockNow } from '../clock';
import { logger } from '../log';
import type { Actor, AlertRecord, Urgency } from './records';
import { sendToRouting } from './routing-queue';
import { alertDefaults, getAlert, insertAlert, nextAlertTinyId } from './store';
import { UNROUTED_GRACE_MS } from './sweep-unrouted';
import { recordTimelinePack, timelineEntriesCount } from './timeline';
import { decidedAtCreate, withRoutingDecidedAtCreate } from './direct-routing';
import { creationEntries } from './routing-timeline';
import { markUnrouted, markUnroutedOverdue } from './unrouted-store';
import { writeNewWordItems } from './word-store';

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

/** The 'created' entry, with the alert's id (and its routing's `routed` entry in the same item when the
 * create made the decision: direct-routing.ts). Counted by the alert's insert (insertAlert), so a
 * duplicate hand-off running beside the first one never counts them again. `justInserted`: this call
 * stored the alert, so no earlier attempt wrote its entries. */
function recordCreated(alert: AlertRecord, actor: Actor, justInserted: boolean): Promise<unknown> {
  return recordTimelinePack(creationEntries(alert, actor), { counted: true, fresh: justInserted });
}

/** Not routed, or decided at create, whose routing may not have run (its entry would say; a message more is harmless). */
const routingMayBeDue = (alert: AlertRecord) => !alert.routed_at || decidedAtCreate(alert);

/** Sends the alert to routing. A message that cannot be sent fails nothing: the alert is stored and
 * in the unrouted index, marked overdue, and the sweeper sends it again once the grace period is
 * over (lib/alerts/sweep-unrouted.ts). */
function sendAlertToRouting(alert: AlertRecord): Promise<void> {
  const message = { account_id: alert.account_id, alert_id: alert.id, ...(decidedAtCreate(alert) ? { decided: true as const } : {}) };
  return sendToRouting(message).catch(async (error: unknown) => {
    logger.error('routing message not sent; the sweeper re-drives the alert', { error: error as Error, alertId: alert.id });
    // Not in the queue: due even behind a backlog there (a failure here leaves it to the backlog's wait).
    await markUnroutedOverdue(alert.account_id, alert.id, clockNow()).catch(() => undefined);
  });
}

/** Idempotent, for an alert an earlier attempt stored and never routed: its entry and its routing
 * message again (routing ignores a routed alert, and finishes one decided at create). */
async function handOff(alert: AlertRecord, actor: Actor): Promise<void> {
  await Promise.all([sendAlertToRouting(alert), recordCreated(alert, actor, false)]);
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
      if (routingMayBeDue(existing)) await handOff(existing, actor);
      return { alert: existing, created: false };
    }
  }
  const accountUserIds = [...new Set(input.destination_account_user_ids ?? [])];
  // The service's clock, as every later change of the alert: a report measures acknowledgements and
  // resolutions from creation, and a test that moves the clock must see one time line.
  const createdMs = clockNow();
  const id = options.id ?? newIdAt(createdMs);
  const now = new Date(createdMs).toISOString();
  // The unrouted entry is written before the alert (beside the reads it waits for anyway): no alert can
  // exist that the sweeper would not find until routing removes the entry.
  // The word items too (written before the alert, as every index item of it): they need only its id
  // and text, and share the unrouted entry's BatchWrite.
  const [tinyId, destinationUsers] = await Promise.all([
    nextAlertTinyId(accountId, id),
    usersOfAccountUsers(accountId, accountUserIds),
    markUnrouted(accountId, id, Date.parse(now) + UNROUTED_GRACE_MS),
    writeNewWordItems({ account_id: accountId, id, version: 1, title: input.title, description: input.description ?? '' }),
  ]);
  const alert: AlertRecord = withRoutingDecidedAtCreate({
    ...alertDefaults(),
    id,
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
  });
  // The 'created' entry goes beside the alert's counters and links; the routing message after them,
  // so that routing finds every link of the alert to move.
  // The insert counts the entries recordCreated writes: with a decision stored with the alert, its
  // routing's entry too, as routing's save counts its entries (lib/alert-routing/route-alert.ts).
  const counts = timelineEntriesCount(creationEntries(alert, actor).length);
  if (!(await insertAlert(alert, counts, () => recordCreated(alert, actor, true)))) {
    // A concurrent attempt with the same id stored it first: that one is the alert.
    const winner = await getAlert(accountId, alert.id);
    if (!winner) throw new Error(`alert ${alert.id} was stored and removed while being created`);
    if (routingMayBeDue(winner)) await handOff(winner, actor);
    return { alert: winner, created: false };
  }
  await sendAlertToRouting(alert);
  return { alert, created: true };
}
