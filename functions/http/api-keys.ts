// Entry point: API keys (/api/v4/api_keys).
import { apiKeyRoutes } from '../../lib/api-keys/routes';
import { httpHandler } from '../../lib/api/handler';
import { createApiKey } from '../../lib/api-keys/create-api-key';
import { deleteApiKey } from '../../lib/api-keys/delete-api-key';
import { findApiKey, listApiKeys } from '../../lib/api-keys/read-api-keys';
import { apiKeyToV4 } from '../../lib/api-keys/represent';
import { created, noContent, ok } from '../../lib/http/replies';

export const handler = httpHandler(apiKeyRoutes, {
  list: async (req) => ok(await listApiKeys(req.principal, req.query, req.iface)),
  create: async (req) => created(await createApiKey(req.principal, req.body())),
  get: async (req) => ok(apiKeyToV4(await findApiKey(req.principal, req.params.id))),
  delete: async (req) => {
    await deleteApiKey(req.principal, req.params.id);
    return noContent();
  },
});
