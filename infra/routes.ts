// The route table: every HTTP route of both interfaces, the function that serves it and the
// operation inside that function. The CDK stack creates one API Gateway route per entry and the
// local server matches requests with the same entries, so the two can never disagree.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type HttpFunctionName =
  | 'public'
  | 'account'
  | 'apiKeys'
  | 'accountUsers'
  | 'alerts'
  | 'logs'
  | 'teams'
  | 'schedules'
  | 'events'
  | 'escalationPolicies'
  | 'integrations'
  | 'maintenanceWindows'
  | 'broadcasts'
  | 'routers'
  | 'notificationRules'
  | 'automations'
  | 'inbound'
  | 'notifications'
  | 'respond'
  | 'smsInbound'
  | 'slack'
  | 'notFound';

export interface Route {
  method: HttpMethod;
  path: string;
  fn: HttpFunctionName;
  op: string;
  /** No credentials (login, signup, health, inbound webhooks). */
  public?: boolean;
}

type Ops = Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;

/** The five standard operations (api-v4.md "Standard operations") on a collection path. */
function standard(fn: HttpFunctionName, collection: string, ops: Ops = {}): Route[] {
  const routes: Route[] = [];
  const add = (method: HttpMethod, path: string, op: keyof Ops) => {
    const name = ops[op] ?? op;
    if (name !== '-') routes.push({ method, path, fn, op: name });
  };
  add('GET', collection, 'list');
  add('POST', collection, 'create');
  add('GET', `${collection}/{id}`, 'get');
  add('PUT', `${collection}/{id}`, 'update');
  add('DELETE', `${collection}/{id}`, 'delete');
  return routes;
}

const v4 = '/api/v4';

export const ROUTES: Route[] = [
  // Platform
  { method: 'GET', path: '/health', fn: 'public', op: 'health', public: true },
  { method: 'POST', path: '/public/login', fn: 'public', op: 'login', public: true },
  { method: 'POST', path: '/public/signup', fn: 'public', op: 'signup', public: true },
  { method: 'POST', path: '/public/password_reset', fn: 'public', op: 'requestPasswordReset', public: true },
  { method: 'POST', path: '/public/password_reset/{token}', fn: 'public', op: 'resetPassword', public: true },
  { method: 'GET', path: '/api/v4/openapi.json', fn: 'public', op: 'openapi', public: true },
  { method: 'GET', path: '/account/{id}', fn: 'account', op: 'get' },
  { method: 'PUT', path: '/account/{id}', fn: 'account', op: 'update' },
  ...standard('apiKeys', `${v4}/api_keys`, { update: '-' }),
  ...standard('accountUsers', `${v4}/account_users`),
  { method: 'POST', path: `${v4}/account_users/{id}/password`, fn: 'accountUsers', op: 'changePassword' },
  // Web Push: a person's browser subscriptions, and the VAPID public key a console subscribes with
  { method: 'GET', path: `${v4}/account_users/{id}/push_subscriptions`, fn: 'accountUsers', op: 'listPushSubscriptions' },
  { method: 'POST', path: `${v4}/account_users/{id}/push_subscriptions`, fn: 'accountUsers', op: 'createPushSubscription' },
  { method: 'DELETE', path: `${v4}/account_users/{id}/push_subscriptions`, fn: 'accountUsers', op: 'deletePushSubscriptionByEndpoint' },
  {
    method: 'DELETE',
    path: `${v4}/account_users/{id}/push_subscriptions/{subscriptionId}`,
    fn: 'accountUsers',
    op: 'deletePushSubscription',
  },
  { method: 'GET', path: `${v4}/web_push`, fn: 'accountUsers', op: 'webPush' },

  // Alerts, v4
  ...standard('alerts', `${v4}/alerts`),
  { method: 'POST', path: `${v4}/alerts/{id}/acknowledge`, fn: 'alerts', op: 'acknowledge' },
  { method: 'POST', path: `${v4}/alerts/{id}/resolve`, fn: 'alerts', op: 'resolve' },
  { method: 'POST', path: `${v4}/alerts/{id}/reject`, fn: 'alerts', op: 'reject' },
  { method: 'GET', path: `${v4}/alerts/{id}/comments`, fn: 'alerts', op: 'listComments' },
  { method: 'POST', path: `${v4}/alerts/{id}/comments`, fn: 'alerts', op: 'createComment' },
  { method: 'GET', path: `${v4}/teams/{id}/alerts`, fn: 'alerts', op: 'teamAlerts' },
  // Alerts, earlier interface, and its deprecated views
  ...standard('alerts', '/alert', {
    list: 'earlierList',
    create: 'earlierCreate',
    get: 'earlierGet',
    update: 'earlierUpdate',
    delete: 'earlierDelete',
  }),
  { method: 'POST', path: '/alert/{id}/acknowledge', fn: 'alerts', op: 'earlierAcknowledge' },
  { method: 'POST', path: '/alert/{id}/reject', fn: 'alerts', op: 'earlierReject' },
  { method: 'POST', path: '/alert/{id}/resolve', fn: 'alerts', op: 'earlierResolve' },
  { method: 'POST', path: '/alert/{id}/archive', fn: 'alerts', op: 'earlierArchive' },
  { method: 'POST', path: '/alert/{id}/handoff', fn: 'alerts', op: 'earlierHandoff' },
  ...standard('alerts', '/broadcast', {
    list: 'broadcastList',
    create: 'broadcastCreate',
    get: 'broadcastGet',
    update: '-',
    delete: 'broadcastDelete',
  }),
  ...standard('alerts', '/incident', {
    list: 'incidentList',
    create: 'incidentCreate',
    get: 'incidentGet',
    update: 'incidentUpdate',
    delete: 'incidentDelete',
  }),
  { method: 'GET', path: '/incident/{id}/logs', fn: 'alerts', op: 'incidentLogs' },
  ...standard('logs', '/log', { update: '-', delete: '-' }),

  // Broadcasts, v4 (the earlier /broadcast above is a view of alerts: docs/api.md#broadcasts)
  ...standard('broadcasts', `${v4}/broadcasts`),
  { method: 'POST', path: `${v4}/broadcasts/{id}/respond`, fn: 'broadcasts', op: 'respond' },

  // Notifications: read only on both interfaces (no route creates, changes or deletes one: 404)
  ...standard('notifications', `${v4}/notifications`, { create: '-', update: '-', delete: '-' }),
  ...standard('notifications', '/notification', { list: 'earlierList', get: 'earlierGet', create: '-', update: '-', delete: '-' }),
  // One-click responses from a page: GET shows what the click will do, POST does it (the signed
  // token is the credential)
  { method: 'GET', path: '/public/respond/{token}', fn: 'respond', op: 'show', public: true },
  { method: 'POST', path: '/public/respond/{token}', fn: 'respond', op: 'respond', public: true },
  // Replies to pages by SMS: End User Messaging's inbound SMS, delivered by SNS over HTTPS (the SNS
  // signature and the topic are the credential)
  { method: 'POST', path: '/public/sms/inbound', fn: 'smsInbound', op: 'receive', public: true },

  // Slack (docs/api.md#slack): the account's workspace, "Add to Slack", and what Slack sends (signed
  // with the workspace's signing secret: the signature is the credential)
  { method: 'PUT', path: `${v4}/slack`, fn: 'slack', op: 'connect' },
  { method: 'GET', path: `${v4}/slack`, fn: 'slack', op: 'get' },
  { method: 'DELETE', path: `${v4}/slack`, fn: 'slack', op: 'disconnect' },
  { method: 'GET', path: `${v4}/slack/install`, fn: 'slack', op: 'install' },
  { method: 'GET', path: '/public/slack/oauth', fn: 'slack', op: 'oauth', public: true },
  { method: 'POST', path: '/public/slack/interactions', fn: 'slack', op: 'interactions', public: true },
  { method: 'POST', path: '/public/slack/commands', fn: 'slack', op: 'commands', public: true },

  // Teams, schedules, events, escalation policies
  ...standard('teams', `${v4}/teams`),
  { method: 'GET', path: `${v4}/teams/{id}/current_oncall`, fn: 'teams', op: 'currentOncall' },
  ...standard('schedules', `${v4}/schedules`),
  { method: 'GET', path: `${v4}/schedules/{id}/events`, fn: 'schedules', op: 'events' },
  { method: 'DELETE', path: `${v4}/schedule/{id}/flush`, fn: 'schedules', op: 'flush' },
  { method: 'GET', path: `${v4}/schedule/{id}/current_oncall`, fn: 'schedules', op: 'currentOncall' },
  { method: 'GET', path: `${v4}/schedule/{id}/window_events`, fn: 'schedules', op: 'windowEvents' },
  ...standard('events', `${v4}/events`),
  { method: 'GET', path: `${v4}/events/time_zones`, fn: 'events', op: 'timeZones' },
  { method: 'POST', path: `${v4}/events/{id}/override`, fn: 'events', op: 'override' },
  { method: 'POST', path: `${v4}/events/{id}/add_exception`, fn: 'events', op: 'addException' },
  { method: 'POST', path: `${v4}/events/{id}/terminate_on`, fn: 'events', op: 'terminateOn' },
  ...standard('events', '/event', {
    list: 'earlierList',
    create: 'earlierCreate',
    get: 'earlierGet',
    update: 'earlierUpdate',
    delete: 'earlierDelete',
  }),
  ...standard('escalationPolicies', `${v4}/escalation_policies`),

  // Integrations, maintenance windows, inbound webhooks
  ...standard('integrations', `${v4}/integrations`),
  { method: 'GET', path: `${v4}/integration_types`, fn: 'integrations', op: 'listTypes' },
  { method: 'GET', path: `${v4}/integration_types/{id}`, fn: 'integrations', op: 'getType' },
  ...standard('integrations', '/integration', {
    list: 'earlierList',
    create: 'earlierCreate',
    get: 'earlierGet',
    update: 'earlierUpdate',
    delete: 'earlierDelete',
  }),
  ...standard('maintenanceWindows', `${v4}/maintenance_windows`),
  { method: 'POST', path: '/integration/{id}', fn: 'inbound', op: 'receive', public: true },
  // PagerDuty Events API v2 drop-in: the routing key in the body names the integration.
  { method: 'POST', path: '/v2/enqueue', fn: 'inbound', op: 'enqueue', public: true },

  // Routers, notification rules, automations
  ...standard('routers', `${v4}/routers`),
  { method: 'POST', path: `${v4}/routers/{id}/test`, fn: 'routers', op: 'test' },
  ...standard('routers', '/router', {
    list: 'earlierList',
    create: 'earlierCreate',
    get: 'earlierGet',
    update: 'earlierUpdate',
    delete: 'earlierDelete',
  }),
  { method: 'GET', path: '/router/default-template/{type}', fn: 'routers', op: 'defaultTemplate' },
  ...standard('notificationRules', `${v4}/notification_rules`),
  { method: 'POST', path: `${v4}/notification_rules/{id}/test`, fn: 'notificationRules', op: 'test' },
  ...standard('automations', '/automation'),
  { method: 'POST', path: '/automation/{id}/run', fn: 'automations', op: 'run' },
];

export const routeKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The routes one function serves. */
export function routesOf(fn: HttpFunctionName): Route[] {
  return ROUTES.filter((route) => route.fn === fn);
}

/** Every HTTP function that serves at least one route, plus the catch-all. */
export const HTTP_FUNCTIONS: HttpFunctionName[] = [...new Set([...ROUTES.map((r) => r.fn), 'notFound' as const])];
