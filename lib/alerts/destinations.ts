// Where an alert goes, read from either interface and checked against the caller's account
// (docs/api.md#errors: an unknown reference is 422 on v4, 400 on the earlier interface, naming the field).
// Integrations name their default destinations the same way (lib/integrations/destinations.ts).
import { getAccountUserOfUser } from '../account-users/store';
import { Invalid } from '../http/errors';
import { checkReferences, resolveReferences } from '../http/references';
import { parsePrefixedId, prefixId, type EntityKind } from '../ids';

export interface Destinations {
  destination_team_ids: string[];
  destination_router_ids: string[];
  destination_account_user_ids: string[];
  destination_schedule_ids: string[];
}

export interface V4DestinationInput {
  destination_team_ids?: string[];
  destination_router_ids?: string[];
  destination_account_user_ids?: string[];
}

/** Resolves the v4 lists that were sent (ULIDs or prefix ids) to ULIDs; lists not sent stay absent. */
export async function resolveV4Destinations(accountId: string, input: V4DestinationInput): Promise<Partial<Destinations>> {
  const fields = [
    { field: 'destination_team_ids', kind: 'team' },
    { field: 'destination_router_ids', kind: 'router' },
    { field: 'destination_account_user_ids', kind: 'accountUser' },
  ] as const;
  const sent = fields.filter((f) => input[f.field] !== undefined);
  const resolved = await resolveReferences(
    accountId,
    sent.map((f) => ({ field: f.field, kind: f.kind, ids: input[f.field] })),
  );
  return Object.fromEntries(sent.map((f, i) => [f.field, resolved[i]]));
}

const KIND_NAMES: Partial<Record<EntityKind, string>> = {
  team: 'team (tem_)',
  user: 'user (usr_)',
  router: 'router (rtr_)',
  schedule: 'schedule (skd_)',
};

const DESTINATION_KINDS: EntityKind[] = ['team', 'user', 'router', 'schedule', 'accountUser'];

/**
 * Resolves the earlier interface's mixed destination_ids (`tem_`, `usr_`, `rtr_`, `skd_`; `acu_`
 * too), in the order given. A `usr_` id names a person: the destination is that person's account
 * user in this account (docs/api.md#ids). Every fault is named at once.
 */
export async function resolveEarlierDestinations(
  accountId: string,
  ids: string[],
  options: { field?: string; kinds?: EntityKind[] } = {},
): Promise<Destinations> {
  const field = options.field ?? 'destination_ids';
  const kinds = options.kinds ?? DESTINATION_KINDS;
  const messages: string[] = [];
  const named: { kind: EntityKind; id: string }[] = [];
  for (const raw of ids) {
    const parsed = parsePrefixedId(raw.trim());
    if (!parsed || !kinds.includes(parsed.kind)) {
      const allowed = kinds
        .map((k) => KIND_NAMES[k])
        .filter(Boolean)
        .join(', ');
      messages.push(`${field} contains an id that is not a ${allowed} id: ${raw}`);
      continue;
    }
    named.push(parsed);
  }

  // Each user's account user, looked up once and in parallel; the list keeps the order given.
  const users = [...new Set(named.filter((n) => n.kind === 'user').map((n) => n.id))];
  const accountUsersOfUsers = new Map(
    await Promise.all(users.map(async (userId) => [userId, await getAccountUserOfUser(userId, accountId)] as const)),
  );
  const byKind = new Map<EntityKind, string[]>();
  const add = (kind: EntityKind, id: string) => {
    const list = byKind.get(kind) ?? [];
    if (!list.includes(id)) list.push(id);
    byKind.set(kind, list);
  };
  for (const { kind, id } of named) {
    if (kind !== 'user') add(kind, id);
    else {
      const accountUser = accountUsersOfUsers.get(id);
      if (accountUser) add('accountUser', accountUser.id);
      else if (!messages.includes(`${field} contains an unknown user: ${prefixId('user', id)}`)) {
        messages.push(`${field} contains an unknown user: ${prefixId('user', id)}`);
      }
    }
  }
  const fromUsers = new Set([...accountUsersOfUsers.values()].flatMap((acu) => (acu ? [acu.id] : [])));
  const named_ = (kind: 'team' | 'router' | 'schedule' | 'accountUser') => byKind.get(kind) ?? [];
  const { resolved, messages: unknown } = await checkReferences(accountId, [
    { field, kind: 'team', ids: named_('team') },
    { field, kind: 'router', ids: named_('router') },
    { field, kind: 'schedule', ids: named_('schedule') },
    // Account users found through their user exist already.
    { field, kind: 'accountUser', ids: named_('accountUser').filter((id) => !fromUsers.has(id)) },
  ]);
  messages.push(...unknown);
  if (messages.length > 0) throw new Invalid(messages);
  return {
    destination_team_ids: resolved[0],
    destination_router_ids: resolved[1],
    destination_schedule_ids: resolved[2],
    destination_account_user_ids: named_('accountUser'),
  };
}
