// Teams as the account's identity provider provisions them (SCIM Groups, docs/api.md#scim-provisioning):
// a name and its members, nothing else. A team made this way has no team admins (account admins edit
// it) and may have no members yet (Okta pushes a group first, then its people), which the v4 create
// refuses; membership edits are versioned writes retried on a lost race (editTeam), so an identity
// provider's concurrent PATCHes never drop each other's members. Admins only (a SCIM token acts as one).
import { requireAdmin } from '../auth/permissions';
import { Conflict, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseId } from '../ids';
import { insertNewTeam } from './create-team';
import { editTeam } from './detach';
import type { TeamRecord } from './records';
import { findTeam } from './read-teams';
import { getTeam, listAllTeams } from './store';

export interface ProvisionedTeamChanges {
  name?: string;
  /** The whole member list (a SCIM replace). */
  members?: string[];
  /** Members to add and to remove (SCIM PATCH add/remove), applied to the list as stored at the write. */
  add?: string[];
  remove?: string[];
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function refuseTakenName(accountId: string, name: string, except: string | null): Promise<void> {
  const taken = (await listAllTeams(accountId)).find((team) => team.id !== except && sameName(team.name, name));
  if (taken) throw new Conflict(`a team named ${JSON.stringify(name)} is already in use`);
}

async function memberIds(principal: Principal, field: string, ids: string[] | undefined): Promise<string[] | undefined> {
  if (ids === undefined) return undefined;
  const [resolved] = await resolveReferences(principal.accountId, [{ field, kind: 'accountUser', ids }]);
  return resolved;
}

export async function createProvisionedTeam(principal: Principal, name: string, members: string[]): Promise<TeamRecord> {
  requireAdmin(principal, 'create teams');
  await refuseTakenName(principal.accountId, name, null);
  const resolved = (await memberIds(principal, 'members', members)) ?? [];
  return insertNewTeam(principal.accountId, {
    name,
    member_account_user_ids: [...new Set(resolved)],
    admin_account_user_ids: [],
    dropIds: [],
    handoffIds: [],
  });
}

export async function updateProvisionedTeam(principal: Principal, rawId: string, changes: ProvisionedTeamChanges): Promise<TeamRecord> {
  requireAdmin(principal, 'edit teams');
  const current = await findTeam(principal, rawId);
  if (changes.name !== undefined && !sameName(changes.name, current.name))
    await refuseTakenName(principal.accountId, changes.name, current.id);
  const [members, add] = await Promise.all([
    memberIds(principal, 'members', changes.members),
    memberIds(principal, 'members', changes.add),
  ]);
  // A member to remove needs no check: one gone already (deleted since) is simply not there.
  const remove = changes.remove?.map((id) => parseId('accountUser', id) ?? id);
  await editTeam(
    principal.accountId,
    current.id,
    (next) => {
      const before = JSON.stringify([next.name, next.member_account_user_ids]);
      if (changes.name !== undefined) next.name = changes.name;
      let list = members ?? next.member_account_user_ids;
      if (add) list = [...list, ...add.filter((id) => !list.includes(id))];
      if (remove) list = list.filter((id) => !remove.includes(id));
      next.member_account_user_ids = [...new Set(list)];
      return JSON.stringify([next.name, next.member_account_user_ids]) !== before;
    },
    'team not saved',
  );
  const saved = await getTeam(principal.accountId, current.id);
  if (!saved) throw new NotFound('Team not found');
  return saved;
}
