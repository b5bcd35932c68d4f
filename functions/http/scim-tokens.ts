// Entry point: SCIM tokens (/api/v4/scim_tokens).
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf } from '../../lib/http/base-url';
import { created, noContent, ok } from '../../lib/http/replies';
import { createScimToken } from '../../lib/scim/create-scim-token';
import { deleteScimToken } from '../../lib/scim/delete-scim-token';
import { findScimToken, listScimTokensOf } from '../../lib/scim/read-scim-tokens';
import { scimTokenToV4 } from '../../lib/scim/token-represent';
import { SCIM_BASE_PATH } from '../../lib/scim/routes';
import { scimTokenRoutes } from '../../lib/scim/token-routes';

export const handler = httpHandler(scimTokenRoutes, {
  list: async (req) => ok(await listScimTokensOf(req.principal, req.query)),
  create: async (req) => {
    const { record, token } = await createScimToken(req.principal, req.body());
    return created({ ...scimTokenToV4(record), token, scim_base_url: `${baseUrlOf(req)}${SCIM_BASE_PATH}` });
  },
  get: async (req) => ok(scimTokenToV4(await findScimToken(req.principal, req.params.id))),
  delete: async (req) => {
    await deleteScimToken(req.principal, req.params.id);
    return noContent();
  },
});
