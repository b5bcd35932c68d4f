// SCIM's representations (RFC 7643): an account user as a core User, a team as a Group, and the
// ListResponse around a page of either. Every one carries `meta` (resourceType, created,
// lastModified, location, and the record's version as a weak ETag).
import type * as z from 'zod';
import type { AccountUserRecord } from '../account-users/records';
import type { TeamRecord } from '../teams/records';
import type { ScimUserState } from './user-state';
import type { ScimGroup, ScimListResponse, ScimUser } from './schemas';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** Where the SCIM resources are, on this API's host (the base URL identity providers are given). */
export const SCIM_BASE_PATH = '/scim/v2';

export function userState(record: AccountUserRecord): ScimUserState {
  const emails = [...record.user.emails].sort((a, b) => Number(b.primary) - Number(a.primary));
  const phones = [...record.user.phones].sort((a, b) => Number(b.primary) - Number(a.primary));
  return {
    userName: emails[0]?.email ?? '',
    otherEmails: emails.slice(1).map((e) => e.email),
    givenName: record.name_parts?.given ?? null,
    familyName: record.name_parts?.family ?? null,
    formatted: record.user.name,
    displayName: record.user.name,
    phones: phones.map((p) => p.phone),
    active: !record.deactivated_at,
    externalId: record.external_id ?? null,
  };
}

const etag = (version: number) => `W/"${version}"`;

export function scimUserOf(record: AccountUserRecord, base: string): z.input<typeof ScimUser> {
  const state = userState(record);
  return {
    schemas: [USER_SCHEMA],
    id: record.id,
    ...(state.externalId ? { externalId: state.externalId } : {}),
    userName: state.userName,
    name: {
      formatted: record.user.name,
      ...(state.givenName ? { givenName: state.givenName } : {}),
      ...(state.familyName ? { familyName: state.familyName } : {}),
    },
    displayName: record.user.name,
    active: state.active,
    emails: [
      { value: state.userName, type: 'work', primary: true },
      ...state.otherEmails.map((value) => ({ value, type: 'other', primary: false })),
    ],
    phoneNumbers: state.phones.map((value, index) => ({ value, type: index === 0 ? 'mobile' : 'work', primary: index === 0 })),
    meta: {
      resourceType: 'User',
      created: record.created_at,
      lastModified: record.updated_at,
      location: `${base}${SCIM_BASE_PATH}/Users/${record.id}`,
      version: etag(record.version),
    },
  };
}

export function scimGroupOf(
  team: TeamRecord,
  names: ReadonlyMap<string, string>,
  base: string,
  withMembers = true,
): z.input<typeof ScimGroup> {
  return {
    schemas: [GROUP_SCHEMA],
    id: team.id,
    displayName: team.name,
    ...(withMembers
      ? {
          members: (team.member_account_user_ids ?? []).map((id) => ({
            // No `$ref` (optional in RFC 7643): a property of that name reads as a reference to OpenAPI tools.
            value: id,
            type: 'User',
            ...(names.has(id) ? { display: names.get(id) } : {}),
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: team.created_at,
      lastModified: team.updated_at,
      location: `${base}${SCIM_BASE_PATH}/Groups/${team.id}`,
      version: etag(team.version),
    },
  };
}

export function listResponse<T>(
  all: readonly T[],
  page: { startIndex: number; count: number },
): z.input<typeof ScimListResponse> & { Resources: T[] } {
  const resources = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return {
    schemas: [LIST_SCHEMA],
    totalResults: all.length,
    startIndex: page.startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
