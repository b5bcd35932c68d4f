// PUT /api/v4/alerts/:id, PUT /alert/:id and PUT /incident/:id: a partial update (only the fields
// sent change; meta merges its keys, null removes one). A read-modify-write checked on version:
// when a transition or routing changed the alert meanwhile, the update is re-applied to the new
// state, so neither change is lost.
import type { Principal } from '../auth/principal';
import { Conflict, Invalid } from '../http/errors';
import { actorOf } from './actor';
import { usersOfAccountUsers } from './create-alert';
import { resolveEarlierDestinations, resolveV4Destinations, type Destinations } from './destinations';
import type { AlertRecord, Urgency } from './records';
import type { AlertView } from './list-source';
import { findAlert } from './read-alerts';
import { earlierUpdateInput, parseWith, v4UpdateInput } from './schemas';
import { getAlert, saveAlert } from './store';
import { recordTimeline } from './timeline';

interface AlertChanges extends Partial<Destinations> {
  title?: string;
  description?: string;
  urgency?: Urgency;
  tag_list?: string[];
  /** Keys to set; null removes a key. `null` as a whole clears meta. */
  meta?: Record<string, unknown> | null;
}

function mergeMeta(current: Record<string, unknown>, changes: Record<string, unknown> | null | undefined) {
  if (changes === undefined) return current;
  if (changes === null) return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  return next;
}

async function applyChanges(principal: Principal, alert: AlertRecord, changes: AlertChanges, destinationFields: string): Promise<AlertRecord> {
  const accountUsersChanged = changes.destination_account_user_ids !== undefined;
  const destinationUsers = accountUsersChanged
    ? await usersOfAccountUsers(principal.accountId, changes.destination_account_user_ids!)
    : null;
  let current = alert;
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date().toISOString();
    const next: AlertRecord = {
      ...current,
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.urgency !== undefined ? { urgency: changes.urgency } : {}),
      ...(changes.tag_list !== undefined ? { tag_list: [...new Set(changes.tag_list)] } : {}),
      ...(changes.destination_team_ids !== undefined ? { destination_team_ids: changes.destination_team_ids } : {}),
      ...(changes.destination_router_ids !== undefined ? { destination_router_ids: changes.destination_router_ids } : {}),
      ...(changes.destination_schedule_ids !== undefined ? { destination_schedule_ids: changes.destination_schedule_ids } : {}),
      ...(changes.destination_account_user_ids !== undefined
        ? { destination_account_user_ids: changes.destination_account_user_ids, destination_users: destinationUsers! }
        : {}),
      meta: mergeMeta(current.meta, changes.meta),
      version: current.version + 1,
      updated_at: now,
    };
    const destinations =
      next.destination_team_ids.length +
      next.destination_router_ids.length +
      next.destination_account_user_ids.length +
      next.destination_schedule_ids.length;
    if (destinations === 0) throw new Invalid(`${destinationFields} must name at least one destination`);
    const changed = (Object.keys(next) as (keyof AlertRecord)[]).filter(
      (key) => !['version', 'updated_at', 'destination_users'].includes(key) && JSON.stringify(next[key]) !== JSON.stringify(current[key]),
    );
    if (changed.length === 0) return current;
    if (await saveAlert(current, next)) {
      await recordTimeline({
        alert: next,
        action: 'updated',
        actor: actorOf(principal),
        oldStatus: current.status,
        newStatus: next.status,
        time: now,
        details: { changed },
      });
      return next;
    }
    const reread = await getAlert(principal.accountId, alert.id);
    if (!reread) return findAlert(principal, alert.id); // gone meanwhile: 404
    current = reread;
  }
  throw new Conflict('The alert was changed by other requests meanwhile; try again');
}

export async function updateAlertV4(principal: Principal, rawId: string, body: unknown): Promise<AlertRecord> {
  const alert = await findAlert(principal, rawId);
  const input = parseWith(v4UpdateInput, body);
  const destinations = await resolveV4Destinations(principal.accountId, input);
  return applyChanges(
    principal,
    alert,
    {
      title: input.title,
      description: input.description === null ? '' : input.description,
      urgency: input.urgency,
      tag_list: input.tag_list ?? input.tags,
      meta: input.meta,
      ...destinations,
    },
    'destination_team_ids, destination_router_ids or destination_account_user_ids',
  );
}

export async function updateAlertEarlier(
  principal: Principal,
  rawId: string,
  body: unknown,
  view?: AlertView,
): Promise<AlertRecord> {
  const alert = await findAlert(principal, rawId, view);
  const input = parseWith(earlierUpdateInput, body);
  const destinations = input.destination_ids
    ? await resolveEarlierDestinations(principal.accountId, input.destination_ids)
    : {};
  return applyChanges(
    principal,
    alert,
    {
      title: input.title,
      description: input.description === null ? '' : input.description,
      urgency: input.urgency,
      tag_list: input.tags,
      meta: input.meta,
      ...destinations,
    },
    'destination_ids',
  );
}
