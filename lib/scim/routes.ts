// The routes of the `scim` function (functions/http/scim.ts): the account's SCIM tokens
// (/api/v4/scim_tokens, admins), and SCIM 2.0 provisioning (RFC 7644) for the account's identity
// provider, authenticated by a SCIM token alone, every error in SCIM's body. One function for both:
// each function costs the stack a role, a policy, a log group, alarms and an integration, and the
// stack is close to CloudFormation's 500 resources.
import type { OwnErrorDoc, RouteDeclaration } from '../http/route-contract';
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { createScimTokenInput, ScimTokenCreatedV4, ScimTokenV4 } from './token-schemas';
import { ScimErrorBody, ScimListOrDocument, ScimPatchInput, ScimReadAnswer, ScimResourceInput, ScimUserOrGroup } from './schemas';

export { SCIM_BASE_PATH } from './represent';

const TAG = 'SCIM provisioning';
const common = { tag: TAG, credentials: 'scim' } as const satisfies Partial<RouteDeclaration>;
const SCIM_ERROR_TEXT = {
  400: 'invalidFilter, invalidValue, invalidSyntax, invalidPath, noTarget or mutability (scimType), the field named in detail',
  401: 'No SCIM token, or one that is invalid or revoked (API keys and login tokens are not accepted here)',
  404: "No such resource in the token's account",
  409: 'uniqueness: the userName or displayName is in use',
  413: 'The body is larger than 256 KiB',
  429: 'Rate limited; retry after the Retry-After seconds',
} as const;

/** Every error of a SCIM route is SCIM's error body. */
const errors = (...statuses: (keyof typeof SCIM_ERROR_TEXT)[]) => ({
  errors: [],
  ownErrors: [...statuses, 429 as const].map((status): OwnErrorDoc => ({
    status,
    description: SCIM_ERROR_TEXT[status],
    schema: ScimErrorBody,
  })),
});
const READ = errors(401, 404);
const WRITE = errors(400, 401, 404, 409, 413);

// SCIM's resource types share one route per method and depth ({resource}: Users, Groups, or a
// discovery document): each API Gateway route is a resource of the stack, which is close to
// CloudFormation's 500, and the handler tells the types apart (another name is SCIM's 404).
const RESOURCE_WORDS = 'resource is Users or Groups (or, to read, ServiceProviderConfig, ResourceTypes, Schemas)';

const tokens = standardRoutes(
  '/api/v4/scim_tokens',
  {
    tag: 'SCIM tokens',
    noun: 'SCIM token',
    plural: "the account's SCIM tokens",
    item: ScimTokenV4,
    form: true,
    writers: { delete: ADMIN_ONLY },
    descriptions: {
      list: 'Without secrets. Account admins only (403 otherwise).',
      get: 'Without its secret. Account admins only (403 otherwise).',
      delete: 'Revokes the token at once: the identity provider using it is refused from then on.',
    },
  },
  { only: ['list', 'delete'] },
);

export const scimRoutes = declareRoutes('scim', {
  listTokens: { ...tokens.list, errors: [...tokens.list.errors, 403] },
  createToken: {
    method: 'POST',
    path: '/api/v4/scim_tokens',
    summary: 'Create a SCIM token',
    description:
      "A bearer token for the account's identity provider (Okta, Microsoft Entra ID) to provision people and teams through /scim/v2. It is shown in this response only and stored only as a hash; it is accepted under /scim/v2 alone. Account admins only (403 otherwise).",
    tag: 'SCIM tokens',
    body: createScimTokenInput,
    form: true,
    success: [{ status: 201, description: 'The new token with its secret and the SCIM base URL', schema: ScimTokenCreatedV4 }],
    errors: [400, 401, 403, 413, 'invalid'],
  },
  deleteToken: tokens.delete,
  list: {
    ...common,
    method: 'GET',
    path: '/scim/v2/{resource}',
    summary: 'List Users or Groups, or read a discovery document',
    description: `${RESOURCE_WORDS}. Users: oldest first; filter=userName eq "…" (the value in any case) finds one. Groups: filter=displayName eq "…"; excludedAttributes=members leaves members out. Other filters are 400 invalidFilter. ServiceProviderConfig, ResourceTypes and Schemas need no parameters.`,
    query: [
      {
        name: 'filter',
        required: false,
        description: 'userName eq "<e-mail>" (Users), displayName eq "<name>" (Groups)',
        example: 'userName eq "ada@example.com"',
      },
      { name: 'startIndex', required: false, description: '1-based index of the first result' },
      { name: 'count', required: false, description: 'Results per page (at most 200)' },
      { name: 'excludedAttributes', required: false, description: 'members: leave them out (Groups)' },
    ],
    success: [{ status: 200, description: 'A ListResponse, or the discovery document', schema: ScimListOrDocument }],
    ...errors(400, 401, 404),
  },
  create: {
    ...common,
    method: 'POST',
    path: '/scim/v2/{resource}',
    summary: 'Create a User or a Group',
    description: `${RESOURCE_WORDS.split(' (')[0]}. A User is a new account user (or a person of another account joining this one) with no roles; a Group a new team (with its schedule and escalation policy) and its members. A userName or displayName in use is 409 uniqueness.`,
    body: ScimResourceInput,
    success: [{ status: 201, description: 'The User or Group', schema: ScimUserOrGroup }],
    ...errors(400, 401, 404, 409, 413),
  },
  get: {
    ...common,
    method: 'GET',
    path: '/scim/v2/{resource}/{id}',
    summary: 'Read a User or a Group',
    query: [{ name: 'excludedAttributes', required: false, description: 'members: leave them out (Groups)' }],
    success: [
      {
        status: 200,
        description: 'The User or Group, or one resource type or schema',
        schema: ScimReadAnswer,
      },
    ],
    ...READ,
  },
  replace: {
    ...common,
    method: 'PUT',
    path: '/scim/v2/{resource}/{id}',
    summary: 'Replace a User or a Group',
    body: ScimResourceInput,
    success: [{ status: 200, description: 'The User or Group', schema: ScimUserOrGroup }],
    ...WRITE,
  },
  patch: {
    ...common,
    method: 'PATCH',
    path: '/scim/v2/{resource}/{id}',
    summary: 'Change a User or a Group (PatchOp)',
    description:
      "A User's active: false deactivates the person: no sign-in, no pages, no turns in rotations from now on. A Group's members are added and removed as Okta and Microsoft Entra ID send them.",
    body: ScimPatchInput,
    success: [{ status: 200, description: 'The User or Group', schema: ScimUserOrGroup }],
    ...WRITE,
  },
  delete: {
    ...common,
    method: 'DELETE',
    path: '/scim/v2/{resource}/{id}',
    summary: 'Delete a User or a Group',
    description:
      'A User: the account user is deleted, as DELETE /api/v4/account_users/{id} does. A Group: the team; its schedule and escalation policy stay.',
    success: [{ status: 204, description: 'Deleted' }],
    ...READ,
  },
});
