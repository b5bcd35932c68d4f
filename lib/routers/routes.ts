// The routes of the `routers` function (functions/http/routers.ts): routers on v4 and their dry run;
// the earlier /router, which shows routers and notification rules alike, and the default templates.
import { declareRoutes, READ_ERRORS } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { RouterEarlier } from '../notification-rules/schemas';
import {
  createRouterEarlierInput,
  createRouterV4Input,
  DefaultTemplate,
  RouterExplanation,
  routerTestInput,
  RouterV4,
  updateRouterEarlierInput,
  updateRouterV4Input,
} from './schemas';

const v4 = '/api/v4';

export const routerRoutes = declareRoutes('routers', {
  ...standardRoutes(`${v4}/routers`, {
    tag: 'Routers',
    noun: 'router',
    plural: 'routers',
    item: RouterV4,
    create: createRouterV4Input,
    update: updateRouterV4Input,
    form: true,
    writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
    descriptions: {
      create:
        'Needs a name and at least one default receiver (default_receiver_team_id, default_receiver_account_user_id or default_receiver_router_id: objects of the account, ULID or prefix id). rules is router YAML (docs/api.md#routers), validated (line and column in messages) and stored exactly as sent.',
      update: 'rules is validated as on create; a null default receiver clears it, and at least one must remain.',
    },
  }),
  test: {
    method: 'POST',
    path: `${v4}/routers/{id}/test`,
    summary: 'Dry-run a router',
    description:
      'Evaluates the router for the given alert (and optionally the request that made it, as log {data, headers}) and explains the decision: the rule that matched with each condition, whether it held and the value it saw; the rules tried before it with the first condition that failed; the actions that would run with their values resolved and the receivers. No side effects.',
    tag: 'Routers',
    body: routerTestInput,
    form: false,
    success: [{ status: 200, description: 'The explanation', schema: RouterExplanation }],
    errors: [400, 401, 404, 413, 'invalid'],
  },
  ...standardRoutes(
    '/router',
    {
      tag: 'Routers (earlier)',
      noun: 'router',
      plural: 'routers and notification rules',
      item: RouterEarlier,
      create: createRouterEarlierInput,
      update: updateRouterEarlierInput,
      form: false,
      writers: { create: ADMIN_ONLY, update: ADMIN_ONLY, delete: ADMIN_ONLY },
      descriptions: {
        create:
          'type router is a router (default_receiver required: a team, user, router or schedule prefix id); type notification is a notification rule, the same object as /api/v4/notification_rules. The YAML arrives as settings or rules and is shown under both.',
        get: 'A router (rtr_) or a notification rule (nrl_).',
        update: 'type cannot change.',
      },
    },
    { prefix: 'earlier' },
  ),
  defaultTemplate: {
    method: 'GET',
    path: '/router/default-template/{type}',
    summary: 'The starting YAML of a router or a notification rule',
    description:
      'type is router or notification (404 otherwise). The body is the YAML as a JSON string, which POST /router accepts as settings.',
    tag: 'Routers (earlier)',
    success: [{ status: 200, description: 'The template', schema: DefaultTemplate }],
    errors: READ_ERRORS,
  },
});
