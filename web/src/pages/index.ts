// The console's pages: the navigation bar lists those with a `nav` label, in this order. A page is
// one module under pages/ and one entry here.
import type { ComponentType } from 'preact';
import type { PageProps } from '../router';
import { AlertPage } from './alert';
import { AlertsPage } from './alerts';
import { AuditPage } from './audit';
import { EscalationPoliciesPage, EscalationPolicyPage } from './escalation-policies';
import { ImportPage } from './import';
import { IntegrationPage, IntegrationsPage } from './integrations';
import { NotificationRulePage, NotificationRulesPage } from './notification-rules';
import { NotificationsPage } from './notifications';
import { OnCallPage } from './on-call';
import { ProfilePage } from './profile';
import { ReportsPage } from './reports';
import { RouterPage, RoutersPage } from './routers';
import { SchedulePage, SchedulesPage } from './schedules';
import { SlackPage } from './slack';
import { SsoPage } from './sso';
import { TeamPage, TeamsPage } from './teams';
import { UserPage, UsersPage } from './users';

export interface PageRoute {
  pattern: string;
  component: ComponentType<PageProps>;
  /** The navigation bar's link name, for the top page of each area. */
  nav?: string;
  /** The nav entry this page belongs under (highlighted while it is open). */
  area: string;
  /** Listed in the navigation bar for admins only (others may still open it, and see what they may). */
  adminOnly?: boolean;
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
  { pattern: '/routers', component: RoutersPage, nav: 'Routers', area: '/routers' },
  { pattern: '/routers/:id', component: RouterPage, area: '/routers' },
  { pattern: '/notifications', component: NotificationsPage, nav: 'Notifications', area: '/notifications' },
  { pattern: '/reports', component: ReportsPage, nav: 'Reports', area: '/reports' },
  { pattern: '/users', component: UsersPage, nav: 'Users', area: '/users' },
  { pattern: '/users/:id', component: UserPage, area: '/users' },
  { pattern: '/notification-rules', component: NotificationRulesPage, area: '/users' },
  { pattern: '/notification-rules/:id', component: NotificationRulePage, area: '/users' },
  { pattern: '/slack', component: SlackPage, nav: 'Slack', area: '/slack', adminOnly: true },
  { pattern: '/single-sign-on', component: SsoPage, nav: 'Single sign-on', area: '/single-sign-on', adminOnly: true },
  { pattern: '/audit', component: AuditPage, nav: 'Audit', area: '/audit', adminOnly: true },
  { pattern: '/import', component: ImportPage, nav: 'Import', area: '/import', adminOnly: true },
  { pattern: '/profile', component: ProfilePage, nav: 'Profile', area: '/profile' },
];

export const LANDING_PAGE = '/alerts';
