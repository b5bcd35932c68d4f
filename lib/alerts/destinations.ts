// Where an alert goes, read from either interface and checked against the caller's account
// (contract §4: an unknown reference is 422 on v4, 400 on the earlier interface, naming the field).
import { accountUserOfUserInAccount } from '../account-users/store';
import { HttpError, Invalid } from '../http/errors';
import { parsePrefixedId, prefixId, type EntityKind } from '../ids';
import { ENTITY_TYPES } from '../store/items';
import { resolveReferences, type ReferenceCheck } from '../store/references';

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
    { field: 'destination_team_ids', kind: 'team', type: ENTITY_TYPES.team },
    { field: 'destination_router_ids', kind: 'router', type: ENTITY_TYPES.router },
    { field: 'destination_account_user_ids', kind: 'accountUser', type: ENTITY_TYPES.accountUser },
  ] as const;
  const sent = fields.filter((f) => input[f.field] !== undefined);
  const resolved = await resolveReferences(
    accountId,
    sent.map((f) => ({ field: f.field, kind: f.kind, type: f.type, ids: input[f.field] })),
  );
  return Object.fromEntries(sent.map((f, i) => [f.field, resolved[i]]));
}

const KIND_NAMES: Partial<Record<EntityKind, string>> = {
  team: 'team (tem_)',
  user: 'user (usr_)',
  router: 'router (rtr_)',
  schedule: 'schedule (skd_)',
};

/**
 * Resolves the earlier interface's mixed destination_ids (`tem_`, `usr_`, `rtr_`, `skd_`; `acu_`
 * too). A `usr_` id names a person: the destination is that person's account user in this account.
 */
export async function resolveEarlierDestinations(
  accountId: string,
  ids: string[],
  options: { field?: string; kinds?: EntityKind[] } = {},
): Promise<Destinations> {
  const field = options.field ?? 'destination_ids';
  const kinds = options.kinds ?? ['team', 'user', 'router', 'schedule', 'accountUser'];
  const messages: string[] = [];
  const byKind = new Map<EntityKind, string[]>();
  for (const raw of ids) {
    const parsed = parsePrefixedId(raw.trim());
    if (!parsed || !kinds.includes(parsed.kind)) {
      const allowed = kinds.map((k) => KIND_NAMES[k]).filter(Boolean).join(', ');
      messages.push(`${field} contains an id that is not a ${allowed} id: ${raw}`);
      continue;
    }
    const list = byKind.get(parsed.kind) ?? [];
    if (!list.includes(parsed.id)) list.push(parsed.id);
    byKind.set(parsed.kind, list);
  }

  const userIds = byKind.get('user') ?? [];
  const usersAccountUsers = await Promise.all(userIds.map((userId) => accountUserOfUserInAccount(userId, accountId)));
  const accountUserIds = [...(byKind.get('accountUser') ?? [])];
  usersAccountUsers.forEach((accountUser, i) => {
    if (!accountUser) messages.push(`${field} contains an unknown user: ${prefixId('user', userIds[i])}`);
    else if (!accountUserIds.includes(accountUser.id)) accountUserIds.push(accountUser.id);
  });

  const checks: ReferenceCheck[] = [
    { field, kind: 'team', type: ENTITY_TYPES.team, ids: byKind.get('team') ?? [] },
    { field, kind: 'router', type: ENTITY_TYPES.router, ids: byKind.get('router') ?? [] },
    { field, kind: 'schedule', type: ENTITY_TYPES.schedule, ids: byKind.get('schedule') ?? [] },
    { field, kind: 'accountUser', type: ENTITY_TYPES.accountUser, ids: byKind.get('accountUser') ?? [] },
  ];
  let resolved: string[][] = checks.map(() => []);
  try {
    resolved = await resolveReferences(accountId, checks);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    messages.push(...error.messages);
  }
  if (messages.length > 0) throw new Invalid(messages);
  return {
    destination_team_ids: resolved[0],
    destination_router_ids: resolved[1],
    destination_schedule_ids: resolved[2],
    destination_account_user_ids: accountUserIds,
  };
}
