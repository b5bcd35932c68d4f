// The console's pages: the navigation bar lists those with a `nav` label, in this order. A page is
// one module under pages/ and one entry here (phase 2 adds Routers and Notifications the same way).
import type { ComponentType } from 'preact';
import { AlertPage } from './alert';
import { AlertsPage } from './alerts';
import { EscalationPoliciesPage, EscalationPolicyPage } from './escalation-policies';
import { IntegrationPage, IntegrationsPage } from './integrations';
import { OnCallPage } from './on-call';
import { ProfilePage } from './profile';
import { SchedulePage, SchedulesPage } from './schedules';
import { TeamPage, TeamsPage } from './teams';
import { UserPage, UsersPage } from './users';

export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface PageRoute {
  pattern: string;
  component: ComponentType<PageProps>;
  /** The navigation bar's link name, for the top page of each area. */
  nav?: string;
  /** The nav entry this page belongs under (highlighted while it is open). */
  area: string;
}

export const PAGES: PageRoute[] = [
  { pattern: '/alerts', component: AlertsPage, nav: 'Alerts', area: '/alerts' },
  { pattern: '/alerts/:id', component: AlertPage, area: '/alerts' },
  { pattern: '/on-call', component: OnCallPage, nav: 'On call', area: '/on-call' },
  { pattern: '/schedules', component: SchedulesPage, nav: 'Schedules', area: '/schedules' },
  { pattern: '/schedules/:id', component: SchedulePage, area: '/schedules' },
  { pattern: '/teams', component: TeamsPage, nav: 'Teams', area: '/teams' },
  { pattern: '/teams/:id', component: TeamPage, area: '/teams' },
  { pattern: '/escalation-policies', component: EscalationPoliciesPage, nav: 'Escalation policies', area: '/escalation-policies' },
  { pattern: '/escalation-policies/:id', component: EscalationPolicyPage, area: '/escalation-policies' },
  { pattern: '/integrations', component: IntegrationsPage, nav: 'Integrations', area: '/integrations' },
  { pattern: '/integrations/:id', component: IntegrationPage, area: '/integrations' },
  { pattern: '/users', component: UsersPage, nav: 'Users', area: '/users' },
  { pattern: '/users/:id', component: UserPage, area: '/users' },
  { pattern: '/profile', component: ProfilePage, nav: 'Profile', area: '/profile' },
];

export const LANDING_PAGE = '/alerts';
