// Entry point: SCIM 2.0 provisioning (/scim/v2/*), answered in application/scim+json.
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf } from '../../lib/http/base-url';
import type { JsonReply } from '../../lib/http/route-contract';
import { noContent } from '../../lib/http/replies';
import { SCIM_CONTENT_TYPE } from '../../lib/http/scim-errors';
import { resourceTypesList, schemasList, serviceProviderConfig } from '../../lib/scim/discovery';
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
  scimGroupAnswer,
} from '../../lib/scim/groups';
import { scimUserOf } from '../../lib/scim/represent';
import { scimRoutes } from '../../lib/scim/routes';
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from '../../lib/scim/users';

const scim = <Status extends number, Body>(status: Status, body: Body): JsonReply<Status, Body> => ({
  status,
  body,
  headers: { 'content-type': SCIM_CONTENT_TYPE },
});

export const handler = httpHandler(scimRoutes, {
  serviceProviderConfig: (req) => scim(200, serviceProviderConfig(baseUrlOf(req))),
  resourceTypes: (req) => scim(200, resourceTypesList(baseUrlOf(req))),
  schemas: (req) => scim(200, schemasList(baseUrlOf(req))),
  listUsers: async (req) => scim(200, await listScimUsers(req.principal, req.query, baseUrlOf(req))),
  createUser: async (req) => scim(201, scimUserOf(await createScimUser(req.principal, req.body()), baseUrlOf(req))),
  getUser: async (req) => scim(200, scimUserOf(await getScimUser(req.principal, req.params.id), baseUrlOf(req))),
  replaceUser: async (req) => scim(200, scimUserOf(await replaceScimUser(req.principal, req.params.id, req.body()), baseUrlOf(req))),
  patchUser: async (req) => scim(200, scimUserOf(await patchScimUser(req.principal, req.params.id, req.body()), baseUrlOf(req))),
  deleteUser: async (req) => {
    await deleteScimUser(req.principal, req.params.id);
    return noContent();
  },
  listGroups: async (req) => scim(200, await listScimGroups(req.principal, req.query, baseUrlOf(req))),
  createGroup: async (req) =>
    scim(201, await scimGroupAnswer(req.principal, await createScimGroup(req.principal, req.body()), baseUrlOf(req))),
  getGroup: async (req) =>
    scim(200, await scimGroupAnswer(req.principal, await getScimGroup(req.principal, req.params.id), baseUrlOf(req), req.query)),
  replaceGroup: async (req) =>
    scim(200, await scimGroupAnswer(req.principal, await replaceScimGroup(req.principal, req.params.id, req.body()), baseUrlOf(req))),
  patchGroup: async (req) =>
    scim(200, await scimGroupAnswer(req.principal, await patchScimGroup(req.principal, req.params.id, req.body()), baseUrlOf(req))),
  deleteGroup: async (req) => {
    await deleteScimGroup(req.principal, req.params.id);
    return noContent();
  },
});
