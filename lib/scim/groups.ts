// /scim/v2/Groups (RFC 7644 §3): teams as SCIM Groups: displayName is the team's name, members its
// members. Changes go through the team use cases (lib/teams/provisioned-team.ts, deleteTeam). PATCH
// takes the forms Okta and Microsoft Entra ID send: `add` / `remove` on `members` with a list of
// `{value}`, `remove` on `members[value eq "<id>"]`, `replace` of `members` or `displayName`, with or
// without a path, `op` in any case.
import { getAccountUsers } from '../account-users/store';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { ScimError } from '../http/scim-errors';
import { parseId } from '../ids';
import { createProvisionedTeam, updateProvisionedTeam, type ProvisionedTeamChanges } from '../teams/provisioned-team';
import { deleteTeam } from '../teams/delete-team';
import type { TeamRecord } from '../teams/records';
import { getTeam, listAllTeams } from '../teams/store';
import { pageOf, parseEqualityFilter } from './filter';
import { listResponse, scimGroupOf } from './represent';
import { MAX_RESULTS } from './users';
import { patchOperations } from './user-state';

async function findGroup(principal: Principal, rawId: string): Promise<TeamRecord> {
  const id = parseId('team', rawId);
  const record = id ? await getTeam(principal.accountId, id) : null;
  if (!record) throw new NotFound(`Group ${rawId} not found`);
  return record;
}

/** The members' names, for `display`. */
async function memberNames(accountId: string, teams: readonly TeamRecord[]): Promise<Map<string, string>> {
  const ids = [...new Set(teams.flatMap((team) => team.member_account_user_ids ?? []))];
  const people = ids.length ? await getAccountUsers(accountId, ids) : [];
  return new Map(people.map((person) => [person.id, person.user.name]));
}

/** Whether the request leaves members out (`excludedAttributes=members`, as Entra asks). */
const withoutMembers = (query: URLSearchParams) =>
  (query.get('excludedAttributes') ?? '').split(',').some((name) => name.trim().toLowerCase() === 'members');

export async function scimGroupAnswer(principal: Principal, team: TeamRecord, base: string, query = new URLSearchParams()) {
  return scimGroupOf(team, await memberNames(principal.accountId, [team]), base, !withoutMembers(query));
}

export async function listScimGroups(principal: Principal, query: URLSearchParams, base: string) {
  const page = pageOf(query, MAX_RESULTS);
  const filter = query.get('filter');
  let teams = (await listAllTeams(principal.accountId)).sort((a, b) => (a.id < b.id ? -1 : 1));
  if (filter !== null && filter.trim() !== '') {
    const { value } = parseEqualityFilter(filter, ['displayName']);
    teams = teams.filter((team) => team.name.toLowerCase() === value.toLowerCase());
  }
  const shown = teams.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  const names = withoutMembers(query) ? new Map<string, string>() : await memberNames(principal.accountId, shown);
  const answer = listResponse(
    shown.map((team) => scimGroupOf(team, names, base, !withoutMembers(query))),
    { startIndex: 1, count: page.count },
  );
  return { ...answer, totalResults: teams.length, startIndex: page.startIndex };
}

export const getScimGroup = findGroup;

function displayNameOf(value: unknown, field = 'displayName'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ScimError(400, 'invalidValue', `${field} must be a non-empty string`);
  return value.trim();
}

/** The ids of a `members` value: a list of `{value}` (a single one counts as a list of one). */
function memberValues(value: unknown, field: string): string[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry: unknown, index) => {
    const id = entry && typeof entry === 'object' ? (entry as Record<string, unknown>).value : undefined;
    if (typeof id !== 'string' || id.trim() === '') throw new ScimError(400, 'invalidValue', `${field}[${index}].value must be a User id`);
    return id.trim();
  });
}

export async function createScimGroup(principal: Principal, body: Record<string, unknown>): Promise<TeamRecord> {
  return createProvisionedTeam(principal, displayNameOf(body.displayName), memberValues(body.members, 'members'));
}

export async function replaceScimGroup(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<TeamRecord> {
  const current = await findGroup(principal, rawId);
  return updateProvisionedTeam(principal, current.id, {
    name: displayNameOf(body.displayName),
    members: memberValues(body.members, 'members'),
  });
}

const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

export async function patchScimGroup(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<TeamRecord> {
  const current = await findGroup(principal, rawId);
  const changes: Required<Pick<ProvisionedTeamChanges, 'add' | 'remove'>> & ProvisionedTeamChanges = { add: [], remove: [] };
  const apply = (op: 'add' | 'replace' | 'remove', path: string, value: unknown) => {
    const one = MEMBER_FILTER.exec(path);
    if (one) {
      if (op !== 'remove') throw new ScimError(400, 'invalidPath', `${path} may only be removed`);
      changes.remove.push(one[1]);
      return;
    }
    switch (path.toLowerCase()) {
      case 'members':
        if (op === 'add') changes.add.push(...memberValues(value, 'members'));
        else if (op === 'remove' && value !== undefined && value !== null) changes.remove.push(...memberValues(value, 'members'));
        else {
          // A replace (or a remove of them all) starts the list again; adds after it come on top.
          changes.members = op === 'remove' ? [] : memberValues(value, 'members');
          changes.add = [];
          changes.remove = [];
        }
        return;
      case 'displayname':
        if (op === 'remove') throw new ScimError(400, 'mutability', 'displayName cannot be removed');
        changes.name = displayNameOf(value);
        return;
      // Ours are the ids; the identity provider's own group id is not kept.
      case 'externalid':
      case 'id':
      case 'schemas':
      case 'meta':
        return;
      default:
        throw new ScimError(400, 'invalidPath', `path ${path} names no attribute of a Group this service keeps`);
    }
  };
  for (const { op, path, value } of patchOperations(body)) {
    if (path !== null) apply(op, path, value);
    else for (const [key, part] of Object.entries(value as Record<string, unknown>)) apply(op, key, part);
  }
  // Members named in a remove are dropped from the replaced list too.
  const { members, add, remove, name } = changes;
  return updateProvisionedTeam(principal, current.id, {
    ...(name !== undefined ? { name } : {}),
    ...(members !== undefined ? { members } : {}),
    ...(add.length ? { add } : {}),
    ...(remove.length ? { remove } : {}),
  });
}

export async function deleteScimGroup(principal: Principal, rawId: string): Promise<void> {
  const current = await findGroup(principal, rawId);
  await deleteTeam(principal, current.id);
}
