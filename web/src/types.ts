// The API objects the console reads, by their names in the service's OpenAPI document: generated
// into ./api-types.ts (npm run generate:api-types), never copied by hand, so the console compiles
// against what the service answers.
import type { components } from './api-types';

type Schemas = components['schemas'];

export type AlertV4 = Schemas['AlertV4'];
/** The earlier interface's alert: it alone shows the assignee and the handoffs. */
export type AlertEarlier = Schemas['AlertEarlier'];
export type AlertStatus = AlertV4['status'];
export type Urgency = AlertV4['urgency'];
export type AccountUser = Schemas['AccountUserV4'];
export type UserProfile = AccountUser['user'];
export type Team = Schemas['TeamV4'];
export type Schedule = Schemas['ScheduleV4'];
/** GET /api/v4/schedules/:id/coverage: gaps per layer and each person's time in a window. */
export type ScheduleCoverage = Schemas['ScheduleCoverageV4'];
/** GET /api/v4/schedules/:id/fairness: each person's hours, night hours and weekend hours in a window. */
export type ScheduleFairness = Schemas['ScheduleFairnessV4'];
/** POST /api/v4/schedules/:id/calendar: a secret iCalendar address. */
export type CalendarAddress = Schemas['CalendarAddressV4'];
export type EscalationPolicy = Schemas['EscalationPolicyV4'];
export type IntegrationType = Schemas['IntegrationTypeV4'];
export type Integration = Schemas['IntegrationV4'];
export type LogEntry = Schemas['LogEarlier'];
export type Comment = Schemas['CommentV4'];
export type Router = Schemas['RouterV4'];
/** POST /api/v4/routers/:id/test. */
export type RouterExplanation = Schemas['RouterExplanation'];
/** One condition of a dry run: what it compared, whether it held (and what it expected and saw). */
export type ConditionReport = RouterExplanation['tried'][number]['failed_condition'] & {};
export type NotificationRule = Schemas['NotificationRuleV4'];
export type Notification = Schemas['NotificationV4'];
export type Channel = Notification['channel'];
/** POST /api/v4/notification_rules/:id/test. */
export type NotificationRuleExplanation = Schemas['NotificationRuleExplanation'];
/** GET /api/v4/slack: the connected workspace. */
export type SlackConnection = Schemas['SlackConnectionV4'];
/** GET /api/v4/slack/install: "Add to Slack"'s authorize URL. */
export type SlackInstall = Schemas['SlackInstallV4'];
/** GET /api/v4/sso: the account's single sign-on (never the client secret). */
export type SsoSettings = Schemas['SsoSettingsV4'];
/** GET /api/v4/scim_tokens: the account's SCIM tokens (never their secret). */
export type ScimToken = Schemas['ScimTokenV4'];
/** POST /api/v4/scim_tokens: the new token with its secret, shown once, and the SCIM base URL. */
export type ScimTokenCreated = Schemas['ScimTokenCreatedV4'];
/** GET /public/sso/accounts: the accounts an address signs in to with single sign-on. */
export type SsoAccountChoices = Schemas['SsoAccountChoices'];

// Free-form in the document (JSON objects), read by the console as the service writes them.

/** What the ingest worker wrote on an inbound request's log (data.result). */
export type IngestResult = {
  alert_ids?: string[];
  actions?: { action: string; outcome: string; alert_id?: string }[];
  failure?: string;
};

/** A router dry run's planned action (lib/rule-engine PlannedAction): its type and its resolved values. */
export type PlannedAction = { type: string } & Record<string, unknown>;

/** A router dry run's receiver (lib/rule-engine PlannedAssignment). */
export type PlannedAssignment = {
  receiver: string;
  kind?: string;
  delay_ms?: number;
  source?: string;
};
/** GET /api/v4/reports/alerts: per day or week, the alerts created and what they came to. */
export type AlertReport = Schemas['AlertReportV4'];
export type AlertReportRow = AlertReport['total'];
/** GET /api/v4/reports/pages: per person, pages per channel, night pages, acknowledgements. */
export type PageReport = Schemas['PageReportV4'];
export type AuditEvent = Schemas['AuditEventV4'];
export type ImportReport = Schemas['ImportReportV4'];
