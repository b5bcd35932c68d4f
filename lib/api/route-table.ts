// The route table: every HTTP route of both interfaces, flattened from the declarations of each
// function (lib/<area>/routes.ts), in the order the OpenAPI document lists them. The CDK stack creates
// one API Gateway route per entry, the local server matches requests with the same entries, and
// the OpenAPI document describes them, so the three can never disagree. Only infra/, the `public`
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
import { eventRoutes } from '../events/routes';
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
  accountUserRoutes,
  alertRoutes,
  logRoutes,
  broadcastRoutes,
  notificationRoutes,
  respondRoutes,
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

export const routeKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** Every HTTP function that serves at least one route, plus the catch-all. */
export const HTTP_FUNCTIONS: HttpFunctionName[] = [...CONTRACTS.map((contract) => contract.fn), 'notFound'];
