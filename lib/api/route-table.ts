// The route table: every HTTP route of both interfaces, flattened from the declarations of each
// function (lib/<area>/routes.ts), in the order the OpenAPI document lists them. The CDK stack creates
// API Gateway's routes from the entries (GATEWAY_ROUTES: the methods one function serves on one path
// merged into one ANY route), the local server matches requests with the same entries and sends the
// same route keys, and the OpenAPI document describes them, so the three can never disagree. Only infra/, the `public`
// function (for the document) and tests import it: a function bundles its own declarations alone.
import { accountUserRoutes } from '../account-users/routes';
import { accountRoutes } from '../accounts/routes';
import { alertRoutes } from '../alerts/routes';
import { apiKeyRoutes } from '../api-keys/routes';
import { auditEventRoutes } from '../audit-events/routes';
import { automationRoutes } from '../automations/routes';
import { broadcastRoutes } from '../broadcasts/routes';
import { calendarRoutes } from '../calendars/routes';
import { reportRoutes } from '../reports/routes';
import { deliveryReceiptRoutes } from '../delivery-receipts/routes';
import { escalationPolicyRoutes } from '../escalation-policies/routes';
import { respondRoutes } from '../page-responses/routes';
import { voicemailRoutes } from '../voice-calls/routes';
import { eventRoutes } from '../events/routes';
import { importRoutes } from '../importers/routes';
import type { HttpMethod, RouteContract, RouteDeclaration } from '../http/route-contract';
import { inboundRoutes } from '../integrations/inbound-routes';
import { integrationRoutes } from '../integrations/routes';
import { logRoutes } from '../logs/routes';
import { maintenanceWindowRoutes } from '../maintenance-windows/routes';
import { notificationRuleRoutes } from '../notification-rules/routes';
import { notificationRoutes } from '../notify/routes';
import { routerRoutes } from '../routers/routes';
import { scheduleRoutes } from '../schedules/routes';
import { slackRoutes } from '../slack/routes';
import { ssoRoutes } from '../sso/routes';
import { scimRoutes } from '../scim/routes';
import { smsInboundRoutes } from '../sms-replies/routes';
import { teamRoutes } from '../teams/routes';
import { publicRoutes } from './public-routes';

export type { HttpMethod };

/** Every function's declaration. A new function's declaration goes here, where its routes belong in the document. */
const CONTRACTS = [
  publicRoutes,
  ssoRoutes,
  scimRoutes,
  accountRoutes,
  apiKeyRoutes,
  auditEventRoutes,
  importRoutes,
  accountUserRoutes,
  alertRoutes,
  logRoutes,
  broadcastRoutes,
  notificationRoutes,
  respondRoutes,
  voicemailRoutes,
  smsInboundRoutes,
  deliveryReceiptRoutes,
  slackRoutes,
  teamRoutes,
  scheduleRoutes,
  calendarRoutes,
  eventRoutes,
  escalationPolicyRoutes,
  integrationRoutes,
  maintenanceWindowRoutes,
  inboundRoutes,
  routerRoutes,
  notificationRuleRoutes,
  automationRoutes,
  reportRoutes,
] as const satisfies readonly RouteContract[];

/** The functions that serve routes, plus the catch-all (API Gateway's $default route). */
export type HttpFunctionName = (typeof CONTRACTS)[number]['fn'] | 'notFound';

/** A route of the table: its declaration, the function that serves it and its name in that function's handler map. */
export type Route = RouteDeclaration & { fn: HttpFunctionName; op: string };

export const ROUTES: readonly Route[] = CONTRACTS.flatMap((contract) =>
  Object.entries(contract.routes as Record<string, RouteDeclaration>).map(([op, route]) => ({ ...route, fn: contract.fn, op })),
);

export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** Every HTTP function that serves at least one route, plus the catch-all. */
export const HTTP_FUNCTIONS: HttpFunctionName[] = [...CONTRACTS.map((contract) => contract.fn), 'notFound'];

/** A route as API Gateway holds it: one method, or `ANY` for several methods one function serves on one path. */
export interface GatewayRoute {
  method: HttpMethod | 'ANY';
  path: string;
  fn: HttpFunctionName;
  /** The declared routes it serves. */
  routes: Route[];
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParameter = (segment: string) => segment.startsWith('{');

/** Whether some URL that `path` matches has a literal segment where `other` has a parameter: API
 * Gateway's documented choice is the literal route when both name the method, but not between an
 * `ANY` route and a route of a named method with a parameter there. */
function moreLiteralThan(path: string, other: string): boolean {
  const a = segmentsOf(path);
  const b = segmentsOf(other);
  if (a.length !== b.length) return false;
  let literalWhereParameter = false;
  for (let i = 0; i < a.length; i++) {
    if (!isParameter(a[i]) && !isParameter(b[i]) && a[i] !== b[i]) return false;
    if (!isParameter(a[i]) && isParameter(b[i])) literalWhereParameter = true;
  }
  return literalWhereParameter;
}

/**
 * API Gateway's routes: the routes one function serves on one path become one `ANY` route (a stack
 * has at most 500 resources and a route is one), so its function picks the operation by method
 * (lib/api/handler.ts). Where API Gateway's choice would be undocumented — another path matches the
 * same URLs with a parameter where this one has a literal — the methods stay apart. A method no
 * operation declares on the path reaches the function, which answers what the catch-all answers.
 * Another function's method on the same path keeps its own route: `ANY` takes only the methods a
 * path does not name.
 */
export function gatewayRoutes(routes: readonly Route[]): GatewayRoute[] {
  const groups = new Map<string, Route[]>();
  for (const route of routes) {
    const key = `${route.fn} ${route.path}`;
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  const paths = [...new Set(routes.map((route) => route.path))];
  return [...groups.values()].flatMap((group): GatewayRoute[] => {
    const { path, fn } = group[0];
    const shadowing = paths.some((other) => other !== path && moreLiteralThan(path, other));
    if (group.length < 2 || shadowing) return group.map((route) => ({ method: route.method, path, fn, routes: [route] }));
    return [{ method: 'ANY', path, fn, routes: group }];
  });
}

export const GATEWAY_ROUTES: readonly GatewayRoute[] = gatewayRoutes(ROUTES);

const gatewayKeys = new Map<Route, string>(GATEWAY_ROUTES.flatMap((gateway) => gateway.routes.map((route) => [route, routeKey(gateway)])));

/** The route key API Gateway sends for a declared route (`ANY /path` when it was merged). */
export const gatewayRouteKey = (route: Route): string => gatewayKeys.get(route) ?? routeKey(route);
