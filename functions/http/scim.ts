// Entry point: SCIM tokens (/api/v4/scim_tokens) and SCIM 2.0 provisioning (/scim/v2/{resource}…,
// answered in application/scim+json); `resource` picks Users, Groups or a discovery document.
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf } from '../../lib/http/base-url';
import type { JsonReply } from '../../lib/http/route-contract';
import { created, noContent, ok } from '../../lib/http/replies';
import { SCIM_CONTENT_TYPE } from '../../lib/http/scim-errors';
import { createScimToken } from '../../lib/scim/create-scim-token';
import { deleteScimToken } from '../../lib/scim/delete-scim-token';
import { discoveryEntry, resourceTypesList, schemasList, serviceProviderConfig } from '../../lib/scim/discovery';
import { listScimTokensOf } from '../../lib/scim/read-scim-tokens';
import { SCIM_BASE_PATH, scimUserOf } from '../../lib/scim/represent';
import { resourceOf } from '../../lib/scim/resources';
import { scimRoutes } from '../../lib/scim/routes';
import { scimTokenToV4 } from '../../lib/scim/token-represent';
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from '../../lib/scim/users';
import { loadOnce } from '../../lib/load-once';

// Groups (teams: their members, and a team's delete with its chat webhooks' address guard) load with
// the first request for one: an identity provider pushing users loads none of it (issue 21).
const loadGroups = /* @__PURE__ */ loadOnce(() => import('../../lib/scim/groups'));

const scim = <Status extends number, Body>(status: Status, body: Body): JsonReply<Status, Body> => ({
  status,
  body,
  headers: { 'content-type': SCIM_CONTENT_TYPE },
});

const WRITABLE = ['Users', 'Groups'] as const;

export const handler = httpHandler(scimRoutes, {
  listTokens: async (req) => ok(await listScimTokensOf(req.principal, req.query)),
  createToken: async (req) => {
    const { record, token } = await createScimToken(req.principal, req.body());
    return created({ ...scimTokenToV4(record), token, scim_base_url: `${baseUrlOf(req)}${SCIM_BASE_PATH}` });
  },
  deleteToken: async (req) => {
    await deleteScimToken(req.principal, req.params.id);
    return noContent();
  },
  list: async (req) => {
    const base = baseUrlOf(req);
    switch (resourceOf(req.params.resource)) {
      case 'Users':
        return scim(200, await listScimUsers(req.principal, req.query, base));
      case 'Groups':
        return scim(200, await (await loadGroups()).listScimGroups(req.principal, req.query, base));
      case 'ServiceProviderConfig':
        return scim(200, serviceProviderConfig(base));
      case 'ResourceTypes':
        return scim(200, resourceTypesList(base));
      case 'Schemas':
        return scim(200, schemasList(base));
    }
  },
  create: async (req) => {
    if (resourceOf(req.params.resource, WRITABLE) === 'Users')
      return scim(201, scimUserOf(await createScimUser(req.principal, req.body()), baseUrlOf(req)));
    const { createScimGroup, scimGroupAnswer } = await loadGroups();
    return scim(201, await scimGroupAnswer(req.principal, await createScimGroup(req.principal, req.body()), baseUrlOf(req)));
  },
  get: async (req) => {
    const base = baseUrlOf(req);
    const resource = resourceOf(req.params.resource, ['Users', 'Groups', 'ResourceTypes', 'Schemas']);
    if (resource === 'Users') return scim(200, scimUserOf(await getScimUser(req.principal, req.params.id), base));
    if (resource === 'Groups') {
      const { getScimGroup, scimGroupAnswer } = await loadGroups();
      return scim(200, await scimGroupAnswer(req.principal, await getScimGroup(req.principal, req.params.id), base, req.query));
    }
    return scim(200, discoveryEntry(resource, req.params.id, base));
  },
  replace: async (req) => {
    if (resourceOf(req.params.resource, WRITABLE) === 'Users')
      return scim(200, scimUserOf(await replaceScimUser(req.principal, req.params.id, req.body()), baseUrlOf(req)));
    const { replaceScimGroup, scimGroupAnswer } = await loadGroups();
    return scim(
      200,
      await scimGroupAnswer(req.principal, await replaceScimGroup(req.principal, req.params.id, req.body()), baseUrlOf(req)),
    );
  },
  patch: async (req) => {
    if (resourceOf(req.params.resource, WRITABLE) === 'Users')
      return scim(200, scimUserOf(await patchScimUser(req.principal, req.params.id, req.body()), baseUrlOf(req)));
    const { patchScimGroup, scimGroupAnswer } = await loadGroups();
    return scim(200, await scimGroupAnswer(req.principal, await patchScimGroup(req.principal, req.params.id, req.body()), baseUrlOf(req)));
  },
  delete: async (req) => {
    if (resourceOf(req.params.resource, WRITABLE) === 'Users') await deleteScimUser(req.principal, req.params.id);
    else await (await loadGroups()).deleteScimGroup(req.principal, req.params.id);
    return noContent();
  },
});
