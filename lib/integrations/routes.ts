// The routes of the `integrations` function (functions/http/integrations.ts): integrations on both
// interfaces and the integration type catalogue.
import { declareRoutes, LIST_ERRORS, READ_ERRORS } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import {
  createIntegrationEarlierInput,
  createIntegrationV4Input,
  IntegrationEarlier,
  integrationOptionFields,
  IntegrationTypeV4,
  IntegrationV4,
  updateIntegrationEarlierInput,
  updateIntegrationV4Input,
} from './schemas';
import { InboundAccepted } from './inbound-schemas';

const v4 = '/api/v4';

const earlierRoutes = standardRoutes(
  '/integration',
  {
    tag: 'Integrations (earlier)',
    noun: 'integration',
    plural: 'integrations',
    item: IntegrationEarlier,
    create: createIntegrationEarlierInput,
    update: updateIntegrationEarlierInput,
    bodyExtra: integrationOptionFields,
    form: false,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: { create: 'type is an integration type slug (or id); destination_ids are team, user, router or schedule prefix ids.' },
  },
  { prefix: 'earlier' },
);

export const integrationRoutes = declareRoutes('integrations', {
  ...standardRoutes(`${v4}/integrations`, {
    tag: 'Integrations',
    noun: 'integration',
    plural: 'integrations',
    item: IntegrationV4,
    create: createIntegrationV4Input,
    update: updateIntegrationV4Input,
    bodyExtra: integrationOptionFields,
    form: true,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: {
      create: 'Needs at least one destination. enabled defaults to true. Options arrive in options or as top-level option_<name> fields.',
    },
  }),
  listTypes: {
    method: 'GET',
    path: `${v4}/integration_types`,
    summary: 'List the integration types',
    description: 'The read-only catalogue, the same in every account.',
    tag: 'Integrations',
    list: IntegrationTypeV4,
    success: [{ status: 200, description: 'A page of integration types' }],
    errors: LIST_ERRORS,
  },
  getType: {
    method: 'GET',
    path: `${v4}/integration_types/{id}`,
    summary: 'Get an integration type',
    description: 'By ULID, itt_ prefix id or slug.',
    tag: 'Integrations',
    success: [{ status: 200, description: 'The integration type', schema: IntegrationTypeV4 }],
    errors: READ_ERRORS,
  },
  ...earlierRoutes,
  // The earlier interface's read of an integration is also its inbound address: without credentials,
  // a GET of a heartbeat integration is a beat (docs/api.md#heartbeats).
  earlierGet: {
    ...earlierRoutes.earlierGet,
    credentials: 'optional',
    description:
      'With credentials: the integration. Without any credential header: a beat when the integration is a heartbeat ' +
      '(202, as POST /integration/{id}; its token and rate limit apply), else 401.',
    success: [
      ...earlierRoutes.earlierGet.success,
      { status: 202, description: 'A beat of a heartbeat integration (sent without credentials)', schema: InboundAccepted },
    ],
    errors: [401, 403, 404, 405, 413, 429],
  },
});
