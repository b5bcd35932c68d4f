// Default destinations of an integration: the v4 lists (account_user_ids, router_ids, team_ids) and
// the earlier interface's one mixed list of prefix ids, read as an alert's destinations are
// (lib/alerts/destinations.ts), plus the user behind each account user (the earlier interface shows
// account-user destinations as `usr_…`).
import { usersOfAccountUsers } from '../account-users/read-account-users';
import { resolveEarlierDestinations as resolveAlertDestinations } from '../alerts/destinations';
import { resolveReferences } from '../http/references';

export interface Destinations {
  account_user_ids: string[];
  router_ids: string[];
  team_ids: string[];
  schedule_ids: string[];
  account_user_user_ids: Record<string, string>;
}

/** v4 lists: each id (ULID or prefix id) must name an object of the account (422 naming the field). */
export async function resolveV4IntegrationDestinations(
  accountId: string,
  input: { account_user_ids?: string[]; router_ids?: string[]; team_ids?: string[] },
  current?: Destinations,
): Promise<Destinations> {
  const [accountUserIds, routerIds, teamIds] = await resolveReferences(accountId, [
    { field: 'account_user_ids', kind: 'accountUser', ids: input.account_user_ids },
    { field: 'router_ids', kind: 'router', ids: input.router_ids },
    { field: 'team_ids', kind: 'team', ids: input.team_ids },
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
export async function resolveEarlierIntegrationDestinations(accountId: string, destinationIds: string[]): Promise<Destinations> {
  const resolved = await resolveAlertDestinations(accountId, destinationIds);
  return {
    team_ids: resolved.destination_team_ids,
    account_user_ids: resolved.destination_account_user_ids,
    router_ids: resolved.destination_router_ids,
    schedule_ids: resolved.destination_schedule_ids,
    account_user_user_ids: await usersOfAccountUsers(accountId, resolved.destination_account_user_ids),
  };
}

export function hasDestination(d: Pick<Destinations, 'account_user_ids' | 'router_ids' | 'team_ids' | 'schedule_ids'>): boolean {
  return d.account_user_ids.length + d.router_ids.length + d.team_ids.length + d.schedule_ids.length > 0;
}
