// Entry point: API keys (/api/v4/api_keys).
import { routesOf } from '../../infra/routes';
import { apiKeysOf } from '../../lib/auth/api-keys';
import { apiKeyToV4, createApiKey, listApiKeys, revokeApiKey } from '../../lib/auth/manage-api-keys';
import { NotFound } from '../../lib/http/errors';
import { httpHandler } from '../../lib/http/handler';
import { created, noContent, ok } from '../../lib/http/responses';
import { parseId } from '../../lib/ids';

export const handler = httpHandler(routesOf('apiKeys'), {
  list: async (req) => ok(await listApiKeys(req.principal, req.query, req.iface)),
  create: async (req) => created(await createApiKey(req.principal, req.body())),
  get: async (req) => {
    const id = parseId('apiKey', req.params.id);
    const key = (await apiKeysOf(req.principal.accountId, req.principal.accountUserId)).find((k) => k.id === id);
    if (!key) throw new NotFound('API key not found');
    return ok(apiKeyToV4(key));
  },
  delete: async (req) => {
    await revokeApiKey(req.principal, req.params.id);
    return noContent();
  },
});
