// Default destinations of an integration: the v4 lists (account_user_ids, router_ids, team_ids) and
// the earlier interface's one mixed list of prefix ids (`tem_`, `usr_`, `rtr_`, `skd_`; contract §2:
// a `usr_` id names a user, which inside one account is one account user).
import { accountUserOfUserInAccount } from '../account-users/store';
import type { AccountUserRecord } from '../account-users/records';
import { Invalid } from '../http/errors';
import { parsePrefixedId, prefixId } from '../ids';
import { batchGet, entityKey, ENTITY_TYPES, keyString } from '../store/items';
import { resolveReferences } from '../store/references';

export interface Destinations {
  account_user_ids: string[];
  router_ids: string[];
  team_ids: string[];
  schedule_ids: string[];
  account_user_user_ids: Record<string, string>;
}

async function usersOfAccountUsers(accountId: string, accountUserIds: string[]): Promise<Record<string, string>> {
  if (accountUserIds.length === 0) return {};
  const keys = accountUserIds.map((id) => entityKey(accountId, ENTITY_TYPES.accountUser, id));
  const found = await batchGet(keys);
  const users: Record<string, string> = {};
  for (const [i, id] of accountUserIds.entries()) {
    const item = found.get(keyString(keys[i])) as unknown as AccountUserRecord | undefined;
    if (item) users[id] = item.user_id;
  }
  return users;
}

/** v4 lists: each id (ULID or prefix id) must name an object of the account (422 naming the field). */
export async function resolveV4Destinations(
  accountId: string,
  input: { account_user_ids?: string[]; router_ids?: string[]; team_ids?: string[] },
  current?: Destinations,
): Promise<Destinations> {
  const [accountUserIds, routerIds, teamIds] = await resolveReferences(accountId, [
    { field: 'account_user_ids', kind: 'accountUser', type: ENTITY_TYPES.accountUser, ids: input.account_user_ids },
    { field: 'router_ids', kind: 'router', type: ENTITY_TYPES.router, ids: input.router_ids },
    { field: 'team_ids', kind: 'team', type: ENTITY_TYPES.team, ids: input.team_ids },
  ]);
  const account_user_ids = input.account_user_ids ? accountUserIds : (current?.account_user_ids ?? []);
  return {
    account_user_ids,
    router_ids: input.router_ids ? routerIds : (current?.router_ids ?? []),
    team_ids: input.team_ids ? teamIds : (current?.team_ids ?? []),
    schedule_ids: current?.schedule_ids ?? [],
    account_user_user_ids: await usersOfAccountUsers(accountId, account_user_ids),
  };
}

/** The earlier interface's destination_ids: prefix ids of teams, users, routers, schedules (or account users). */
export async function resolveEarlierDestinations(accountId: string, destinationIds: string[]): Promise<Destinations> {
  const field = 'destination_ids';
  const messages: string[] = [];
  const byKind = { team: [] as string[], accountUser: [] as string[], router: [] as string[], schedule: [] as string[] };
  const users: Record<string, string> = {};
  for (const raw of destinationIds) {
    const parsed = parsePrefixedId(raw);
    if (!parsed) {
      messages.push(`${field} contains an id that is not a team, user, router or schedule id: ${raw}`);
      continue;
    }
    switch (parsed.kind) {
      case 'team':
      case 'router':
      case 'schedule':
      case 'accountUser':
        byKind[parsed.kind].push(parsed.id);
        break;
      case 'user': {
        const accountUser = await accountUserOfUserInAccount(parsed.id, accountId);
        if (!accountUser) messages.push(`${field} contains an unknown user: ${prefixId('user', parsed.id)}`);
        else {
          byKind.accountUser.push(accountUser.id);
          users[accountUser.id] = parsed.id;
        }
        break;
      }
      default:
        messages.push(`${field} contains an id that is not a team, user, router or schedule id: ${raw}`);
    }
  }
  if (messages.length > 0) throw new Invalid(messages);
  const [teamIds, accountUserIds, routerIds, scheduleIds] = await resolveReferences(accountId, [
    { field, kind: 'team', type: ENTITY_TYPES.team, ids: byKind.team },
    { field, kind: 'accountUser', type: ENTITY_TYPES.accountUser, ids: byKind.accountUser },
    { field, kind: 'router', type: ENTITY_TYPES.router, ids: byKind.router },
    { field, kind: 'schedule', type: ENTITY_TYPES.schedule, ids: byKind.schedule },
  ]);
  const missingUsers = accountUserIds.filter((id) => !users[id]);
  return {
    team_ids: teamIds,
    account_user_ids: accountUserIds,
    router_ids: routerIds,
    schedule_ids: scheduleIds,
    account_user_user_ids: { ...users, ...(await usersOfAccountUsers(accountId, missingUsers)) },
  };
}

export function hasDestination(d: Pick<Destinations, 'account_user_ids' | 'router_ids' | 'team_ids' | 'schedule_ids'>): boolean {
  return d.account_user_ids.length + d.router_ids.length + d.team_ids.length + d.schedule_ids.length > 0;
}
