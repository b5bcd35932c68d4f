// PUT /api/v4/alerts/:id, PUT /alert/:id and PUT /incident/:id: a partial update (only the fields
// sent change; meta merges its keys, null removes one). A read-modify-write checked on version:
// when a transition or routing changed the alert meanwhile, the update is re-applied to the new
// state, so neither change is lost.
import { usersOfAccountUsers } from '../account-users/read-account-users';
import { mergeKeys } from '../http/changes';
import { Conflict, Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { done, updateWithRetry } from '../store/retry';
import { actorOf } from './actor';
import { resolveEarlierDestinations, resolveV4Destinations, type Destinations } from './destinations';
import type { AlertView } from './list-source';
import { findAlert } from './read-alerts';
import type { Actor, AlertRecord, Urgency } from './records';
import { earlierUpdateInput, v4UpdateInput } from './schemas';
import { getAlert, saveAlert } from './store';
import { recordChange } from './timeline';

interface AlertChanges extends Partial<Destinations> {
  title?: string;
  description?: string | null;
  urgency?: Urgency;
  tag_list?: string[];
  /** Keys to set; null removes a key. `null` as a whole clears meta. */
  meta?: Record<string, unknown> | null;
}

/** The alert with the changes applied (not yet saved). */
function changed(current: AlertRecord, changes: AlertChanges, destinationUsers: Record<string, string> | null, now: string): AlertRecord {
  const set = <K extends keyof AlertRecord>(key: K, value: AlertRecord[K] | undefined) => (value !== undefined ? { [key]: value } : {});
  return {
    ...current,
    ...set('title', changes.title),
    ...set('description', changes.description === null ? '' : changes.description),
    ...set('urgency', changes.urgency),
    ...set('tag_list', changes.tag_list && [...new Set(changes.tag_list)]),
    ...set('destination_team_ids', changes.destination_team_ids),
    ...set('destination_router_ids', changes.destination_router_ids),
    ...set('destination_schedule_ids', changes.destination_schedule_ids),
    ...(changes.destination_account_user_ids !== undefined
      ? { destination_account_user_ids: changes.destination_account_user_ids, destination_users: destinationUsers! }
      : {}),
    meta: changes.meta === null ? {} : mergeKeys(current.meta, changes.meta, 'meta'),
    version: current.version + 1,
    updated_at: now,
  };
}

async function applyChanges(
  { accountId, actor }: { accountId: string; actor: Actor },
  alert: AlertRecord,
  changes: AlertChanges,
  destinationFields: string,
): Promise<AlertRecord> {
  const destinationUsers =
    changes.destination_account_user_ids !== undefined ? await usersOfAccountUsers(accountId, changes.destination_account_user_ids) : null;
  const now = () => new Date().toISOString();
  let time = now();
  let fields: (keyof AlertRecord)[] = [];
  return updateWithRetry<AlertRecord>({
    attempts: 5,
    load: (attempt) => (attempt === 0 ? alert : getAlert(accountId, alert.id)),
    edit: (current) => {
      if (!current) throw new NotFound('Alert not found'); // gone meanwhile
      time = now();
      const next = changed(current, changes, destinationUsers, time);
      const destinations =
        next.destination_team_ids.length +
        next.destination_router_ids.length +
        next.destination_account_user_ids.length +
        next.destination_schedule_ids.length;
      if (destinations === 0) throw new Invalid(`${destinationFields} must name at least one destination`);
      fields = (Object.keys(next) as (keyof AlertRecord)[]).filter(
        (key) =>
          !['version', 'updated_at', 'destination_users'].includes(key) && JSON.stringify(next[key]) !== JSON.stringify(current[key]),
      );
      return fields.length === 0 ? done(current) : next;
    },
    save: (next, current) => saveAlert(current, next),
    saved: async (next, current) => {
      await recordChange('updated', current, next, actor, time, { changed: fields });
      return next;
    },
    exhausted: () => {
      throw new Conflict('The alert was changed by other requests meanwhile; try again');
    },
  });
}

export async function updateAlertV4(principal: Principal, rawId: string, body: unknown): Promise<AlertRecord> {
  const alert = await findAlert(principal, rawId);
  const input = parseInput(v4UpdateInput, body);
  const destinations = await resolveV4Destinations(principal.accountId, input);
  const { tags, ...changes } = input;
  return applyChanges(
    { accountId: principal.accountId, actor: actorOf(principal) },
    alert,
    { ...changes, tag_list: input.tag_list ?? tags, ...destinations },
    'destination_team_ids, destination_router_ids or destination_account_user_ids',
  );
}

export async function updateAlertEarlier(principal: Principal, rawId: string, body: unknown, view?: AlertView): Promise<AlertRecord> {
  const alert = await findAlert(principal, rawId, view);
  const input = parseInput(earlierUpdateInput, body);
  const destinations = input.destination_ids ? await resolveEarlierDestinations(principal.accountId, input.destination_ids) : {};
  const { tags, destination_ids: _ids, ...changes } = input;
  return applyChanges(
    { accountId: principal.accountId, actor: actorOf(principal) },
    alert,
    { ...changes, tag_list: tags, ...destinations },
    'destination_ids',
  );
}

/**
 * Adds a paragraph to the alert's description as `actor`, not a request's principal (a live call's
 * voicemail link, lib/voice-calls): the same versioned write and timeline entry as an edit. Null when
 * the alert is gone.
 */
export async function appendToAlertDescription(
  accountId: string,
  alertId: string,
  paragraph: string,
  actor: Actor,
): Promise<AlertRecord | null> {
  const alert = await getAlert(accountId, alertId);
  if (!alert) return null;
  const description = [alert.description.trim(), paragraph].filter(Boolean).join('\n\n');
  return applyChanges({ accountId, actor }, alert, { description }, 'destinations');
}
