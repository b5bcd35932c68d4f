// The routes of the `scimTokens` function (functions/http/scim-tokens.ts): the account's SCIM tokens.
import { declareRoutes } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { createScimTokenInput, ScimTokenCreatedV4, ScimTokenV4 } from './token-schemas';

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
  { only: ['list', 'get', 'delete'] },
);

export const scimTokenRoutes = declareRoutes('scimTokens', {
  list: { ...tokens.list, errors: [...tokens.list.errors, 403] },
  create: {
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
  get: { ...tokens.get, errors: [...tokens.get.errors, 403] },
  delete: tokens.delete,
});
