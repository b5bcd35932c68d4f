// The routes of the `apiKeys` function (functions/http/api-keys.ts): the caller's API keys.
import { declareRoutes } from '../http/route-contract';
import { standardRoutes } from '../http/standard-routes';
import { ApiKeyCreatedV4, ApiKeyV4, createApiKeyInput } from './schemas';

const keys = standardRoutes(
  '/api/v4/api_keys',
  {
    tag: 'API keys',
    noun: 'API key',
    plural: "the caller's API keys",
    item: ApiKeyV4,
    form: true,
    descriptions: {
      list: 'Without secrets.',
      get: "One of the caller's own keys.",
      delete: "Revokes the key at once: the caller's own, or (admins) any key of the account.",
    },
  },
  { only: ['list', 'get', 'delete'] },
);

export const apiKeyRoutes = declareRoutes('apiKeys', {
  list: keys.list,
  create: {
    method: 'POST',
    path: '/api/v4/api_keys',
    summary: 'Create an API key',
    description:
      'The key acts as the caller, or (admins) as the account user named by account_user_id. The token is shown in this response only and stored only as a hash. Naming another account user needs the admin role (403 otherwise).',
    tag: 'API keys',
    body: createApiKeyInput,
    form: true,
    success: [{ status: 201, description: 'The new key with its token', schema: ApiKeyCreatedV4 }],
    errors: [400, 401, 403, 413, 'invalid'],
  },
  get: keys.get,
  delete: keys.delete,
});
