// The routes of the `scim` function (functions/http/scim.ts): SCIM 2.0 provisioning (RFC 7644) for
// the account's identity provider, authenticated by a SCIM token alone; every error in SCIM's body.
import type { RouteDeclaration } from '../http/route-contract';
import { declareRoutes } from '../http/route-contract';
import { ScimDocument, ScimGroup, ScimListResponse, ScimPatchInput, ScimResourceInput, ScimUser } from './schemas';

export { SCIM_BASE_PATH } from './represent';

const TAG = 'SCIM provisioning';
const common = { tag: TAG, credentials: 'scim' } as const satisfies Partial<RouteDeclaration>;
const READ = [401, 404, 429] as const;
const WRITE = [400, 401, 404, 409, 413, 429] as const;

const discovery = (path: string, summary: string) =>
  ({
    ...common,
    method: 'GET',
    path: `/scim/v2/${path}`,
    summary,
    success: [{ status: 200, description: summary, schema: ScimDocument }],
    errors: [401, 429],
  }) as const;

export const scimRoutes = declareRoutes('scim', {
  serviceProviderConfig: discovery('ServiceProviderConfig', 'What this SCIM service supports'),
  resourceTypes: discovery('ResourceTypes', 'The resource types (User, Group)'),
  schemas: discovery('Schemas', 'The attributes kept of Users and Groups'),
  listUsers: {
    ...common,
    method: 'GET',
    path: '/scim/v2/Users',
    summary: 'List Users',
    description:
      'Account users, oldest first; filter=userName eq "…" (the value in any case) finds one. Other filters are 400 invalidFilter.',
    query: [
      { name: 'filter', required: false, description: 'userName eq "<e-mail>"', example: 'userName eq "ada@example.com"' },
      { name: 'startIndex', required: false, description: '1-based index of the first result' },
      { name: 'count', required: false, description: 'Results per page (at most 200)' },
    ],
    success: [{ status: 200, description: 'A ListResponse of Users', schema: ScimListResponse }],
    errors: [400, 401, 429],
  },
  createUser: {
    ...common,
    method: 'POST',
    path: '/scim/v2/Users',
    summary: 'Create a User',
    description:
      'A new account user (or a person of another account joining this one), with no roles. A userName already in the account is 409 uniqueness.',
    body: ScimResourceInput,
    success: [{ status: 201, description: 'The User', schema: ScimUser }],
    errors: [400, 401, 409, 413, 429],
  },
  getUser: {
    ...common,
    method: 'GET',
    path: '/scim/v2/Users/{id}',
    summary: 'Read a User',
    success: [{ status: 200, description: 'The User', schema: ScimUser }],
    errors: [...READ],
  },
  replaceUser: {
    ...common,
    method: 'PUT',
    path: '/scim/v2/Users/{id}',
    summary: 'Replace a User',
    body: ScimResourceInput,
    success: [{ status: 200, description: 'The User', schema: ScimUser }],
    errors: [...WRITE],
  },
  patchUser: {
    ...common,
    method: 'PATCH',
    path: '/scim/v2/Users/{id}',
    summary: 'Change a User (PatchOp)',
    description: 'active: false deactivates the person: no sign-in, no pages, no turns in rotations from now on.',
    body: ScimPatchInput,
    success: [{ status: 200, description: 'The User', schema: ScimUser }],
    errors: [...WRITE],
  },
  deleteUser: {
    ...common,
    method: 'DELETE',
    path: '/scim/v2/Users/{id}',
    summary: 'Delete a User',
    description: 'Deletes the account user, as DELETE /api/v4/account_users/{id} does.',
    success: [{ status: 204, description: 'Deleted' }],
    errors: [...READ],
  },
  listGroups: {
    ...common,
    method: 'GET',
    path: '/scim/v2/Groups',
    summary: 'List Groups',
    description: 'Teams; filter=displayName eq "…" finds one; excludedAttributes=members leaves members out.',
    query: [
      { name: 'filter', required: false, description: 'displayName eq "<name>"', example: 'displayName eq "Payments"' },
      { name: 'startIndex', required: false, description: '1-based index of the first result' },
      { name: 'count', required: false, description: 'Results per page (at most 200)' },
      { name: 'excludedAttributes', required: false, description: 'members: leave them out' },
    ],
    success: [{ status: 200, description: 'A ListResponse of Groups', schema: ScimListResponse }],
    errors: [400, 401, 429],
  },
  createGroup: {
    ...common,
    method: 'POST',
    path: '/scim/v2/Groups',
    summary: 'Create a Group',
    description: 'A new team (with its schedule and escalation policy) and its members; a displayName in use is 409 uniqueness.',
    body: ScimResourceInput,
    success: [{ status: 201, description: 'The Group', schema: ScimGroup }],
    errors: [400, 401, 409, 413, 429],
  },
  getGroup: {
    ...common,
    method: 'GET',
    path: '/scim/v2/Groups/{id}',
    summary: 'Read a Group',
    query: [{ name: 'excludedAttributes', required: false, description: 'members: leave them out' }],
    success: [{ status: 200, description: 'The Group', schema: ScimGroup }],
    errors: [...READ],
  },
  replaceGroup: {
    ...common,
    method: 'PUT',
    path: '/scim/v2/Groups/{id}',
    summary: 'Replace a Group',
    body: ScimResourceInput,
    success: [{ status: 200, description: 'The Group', schema: ScimGroup }],
    errors: [...WRITE],
  },
  patchGroup: {
    ...common,
    method: 'PATCH',
    path: '/scim/v2/Groups/{id}',
    summary: 'Change a Group (PatchOp)',
    body: ScimPatchInput,
    success: [{ status: 200, description: 'The Group', schema: ScimGroup }],
    errors: [...WRITE],
  },
  deleteGroup: {
    ...common,
    method: 'DELETE',
    path: '/scim/v2/Groups/{id}',
    summary: 'Delete a Group',
    description: 'Deletes the team; its schedule and escalation policy stay.',
    success: [{ status: 204, description: 'Deleted' }],
    errors: [...READ],
  },
});
