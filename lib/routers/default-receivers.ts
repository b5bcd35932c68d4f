// A router's default receivers as each interface names them, checked against the caller's account
// (docs/api.md#errors: a reference to an object that does not exist is a validation error naming the field).
// v4: default_receiver_team_id, default_receiver_account_user_id, default_receiver_router_id (ULIDs or
// prefix ids; null clears one). Earlier: one default_receiver, a prefix id of a team, user, router or
// schedule (an account user's acu_ id too).
import { usersOfAccountUsers } from '../account-users/read-account-users';
import { resolveEarlierDestinations } from '../alerts/destinations';
import { Invalid } from '../http/errors';
import { resolveReferences } from '../http/references';
import { NO_DEFAULT_RECEIVERS, hasDefaultReceiver, type DefaultReceivers } from './records';

export const NO_DEFAULT_RECEIVER =
  'default_receiver_team_id, default_receiver_account_user_id or default_receiver_router_id must name at least one default receiver';

export interface V4DefaultReceiverInput {
  default_receiver_team_id?: string | null;
  default_receiver_account_user_id?: string | null;
  default_receiver_router_id?: string | null;
}

/** The fields sent replace the current ones (null clears); the result must name someone. */
export async function v4DefaultReceivers(
  accountId: string,
  input: V4DefaultReceiverInput,
  current: DefaultReceivers = NO_DEFAULT_RECEIVERS,
  selfId?: string,
): Promise<DefaultReceivers> {
  const one = (value: string | null | undefined) => (value ? [value] : []);
  const [teams, accountUsers, routers] = await resolveReferences(accountId, [
    { field: 'default_receiver_team_id', kind: 'team', ids: one(input.default_receiver_team_id) },
    { field: 'default_receiver_account_user_id', kind: 'accountUser', ids: one(input.default_receiver_account_user_id) },
    { field: 'default_receiver_router_id', kind: 'router', ids: one(input.default_receiver_router_id) },
  ]);
  const next: DefaultReceivers = { ...current };
  if (input.default_receiver_team_id !== undefined) next.default_receiver_team_id = teams[0] ?? null;
  if (input.default_receiver_router_id !== undefined) next.default_receiver_router_id = routers[0] ?? null;
  if (input.default_receiver_account_user_id !== undefined) {
    const accountUserId = accountUsers[0] ?? null;
    next.default_receiver_account_user_id = accountUserId;
    next.default_receiver_user_id = accountUserId ? ((await usersOfAccountUsers(accountId, [accountUserId]))[accountUserId] ?? null) : null;
  }
  if (selfId && next.default_receiver_router_id === selfId) {
    throw new Invalid('default_receiver_router_id names this router itself: its alerts would go round in a loop');
  }
  if (!hasDefaultReceiver(next)) throw new Invalid(NO_DEFAULT_RECEIVER);
  return next;
}

/** The earlier interface's one default receiver: it replaces every default receiver. */
export async function earlierDefaultReceiver(accountId: string, raw: string, selfId?: string): Promise<DefaultReceivers> {
  const found = await resolveEarlierDestinations(accountId, [raw], { field: 'default_receiver' });
  const accountUserId = found.destination_account_user_ids[0] ?? null;
  const next: DefaultReceivers = {
    default_receiver_team_id: found.destination_team_ids[0] ?? null,
    default_receiver_account_user_id: accountUserId,
    default_receiver_user_id: accountUserId ? ((await usersOfAccountUsers(accountId, [accountUserId]))[accountUserId] ?? null) : null,
    default_receiver_router_id: found.destination_router_ids[0] ?? null,
    default_receiver_schedule_id: found.destination_schedule_ids[0] ?? null,
  };
  if (selfId && next.default_receiver_router_id === selfId) {
    throw new Invalid('default_receiver names this router itself: its alerts would go round in a loop');
  }
  if (!hasDefaultReceiver(next)) throw new Invalid('default_receiver must name a team, user, router or schedule');
  return next;
}
