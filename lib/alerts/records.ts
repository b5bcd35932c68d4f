// The stored alert: one domain object behind both interfaces (docs/api.md#interfaces, docs/api.md#alerts). The v4 and earlier
// representations are serializers over this record.

export type AlertStatus = 'queued' | 'open' | 'acknowledged' | 'resolved' | 'dropped' | 'suppressed' | 'archived';
export const ALERT_STATUSES: readonly AlertStatus[] = ['queued', 'open', 'acknowledged', 'resolved', 'dropped', 'suppressed', 'archived'];
export type Urgency = 'silent' | 'low' | 'medium' | 'high' | 'critical';
export const URGENCIES: Urgency[] = ['silent', 'low', 'medium', 'high', 'critical'];
export const INCIDENT_SEVERITIES = ['SEV-1', 'SEV-2', 'SEV-3', 'SEV-4', 'SEV-5', 'SEV-UNKNOWN'] as const;

/** Who changed an alert: a person (through the API) or an integration (a webhook). */
export type Actor = { type: 'AccountUser'; accountUserId: string; userId: string } | { type: 'Integration'; integrationId: string };

export interface Handoff {
  /** Prefix ids (`usr_…` / `tem_…`). */
  to: string;
  from: string;
  /** Unix seconds. */
  time: number;
  acknowledged: boolean;
}

/**
 * A status change as the alert item remembers it, written by the change itself, so that a write whose
 * answer was lost (the SDK retries it, and the retry fails the status condition) and a request
 * delivered twice (a redelivered Slack interaction, an SMS reply SNS sends again) each recognise the
 * change they made (lib/alerts/store.ts changeStatus).
 */
export interface TransitionMark {
  /** The request's idempotency key: a second change with the same key is refused. */
  key: string;
  /** The one call of a use case that wrote it: its retried write recognises its own change by it. */
  call: string;
  /** The status the change found (written by the change itself, from the item). */
  from: AlertStatus;
  to: AlertStatus;
  /** The change's time (updated_at as it left the alert). */
  at: string;
}

/** Marks kept on an alert: a lost answer is retried within seconds, a redelivery within minutes. */
export const MAX_TRANSITION_MARKS = 5;

/** The marks of an alert with one more change (a read-modify-write that changes the status: a hand-off). */
export function withTransitionMark(alert: Pick<AlertRecord, 'transitions'>, mark: TransitionMark): TransitionMark[] {
  return [mark, ...alert.transitions].slice(0, MAX_TRANSITION_MARKS);
}

/** One assignee decided by routing (docs/api.md#escalation-and-notifications: teams escalate, account users are paged alone). */
export interface Assignment {
  type: 'team' | 'account_user';
  /** ULID of the team or the account user. */
  id: string;
  /** The user behind an account user (the earlier interface's d_user_id); null for teams. */
  user_id: string | null;
  /** Delay before paging, as the rule wrote it (not divided by TIME_SCALE). */
  delay_ms: number;
  /** The router whose rule named it (`rtr_…`), or null for the alert's own destinations. */
  via: string | null;
}

/** What routing decided for the alert, kept so a redelivered message finishes without deciding again. */
export interface RoutingDecision {
  outcome: 'routed' | 'suppressed' | 'dropped' | 'aggregated';
  reason: string | null;
  /** The status routing found and the one it set (equal when the alert had moved on meanwhile). */
  from_status: AlertStatus;
  to_status: AlertStatus;
  hops: {
    router_id: string;
    depth: number;
    via: string | null;
    outcome: string;
    rule_index: number | null;
    actions: Record<string, unknown>[];
    used_default: boolean;
    warnings: string[];
  }[];
  skipped: { receiver: string; reason: string; via: string | null }[];
  /** Automation actions to run once each, in order. */
  automations: { id: string; router_id: string; rule_index: number | null }[];
  aggregate: { key: string; router_id: string; rule_index: number | null; parent_id: string | null } | null;
}

export interface AlertRecord {
  id: string;
  account_id: string;
  tiny_id: number;
  version: number;
  title: string;
  description: string;
  urgency: Urgency;
  status: AlertStatus;
  /** 'alert' | 'broadcast' | 'page' (earlier interface). */
  subtype: string;
  type: string | null;
  tag_list: string[];
  thirdparty_id: string | null;
  dedup_keys: string[];
  /** 1 at creation; +1 for every deduplicated create (docs/api.md#deduplication). */
  dedup_count: number;
  meta: Record<string, unknown>;
  destination_team_ids: string[];
  destination_router_ids: string[];
  destination_account_user_ids: string[];
  destination_schedule_ids: string[];
  /** The user (ULID) behind each destination account user, so the earlier interface can show
   * `usr_` ids without a read per alert; account users that were already gone are absent. */
  destination_users: Record<string, string>;
  /** d_team_id / d_user_id: whom the alert is assigned to now (ULIDs of a team / a user). */
  assigned_team_id: string | null;
  assigned_user_id: string | null;
  source_type: 'AccountUser' | 'Integration';
  /** ULID of the account user or integration that created it. */
  source_id: string;
  /** The user (ULID) behind an AccountUser source: the earlier interface shows it as `usr_…`. */
  source_user_id: string | null;
  source_log_id: string | null;
  parent_id: string | null;
  acknowledged_at: string | null;
  /** Prefix id of who acknowledged (`usr_…` or `int_…`). */
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  archived_at: string | null;
  archived_by: string | null;
  /** When the routing worker handed the alert on (null until then), and the id of its 'routed'
   * timeline log, chosen before the write so a redelivered message can finish a crashed attempt (its
   * sequence tells whether the routers' entries are packed with it: lib/alert-routing/route-alert.ts). */
  routed_at: string | null;
  routing_log_id: string | null;
  /** Everyone routing assigned the alert to (every destination team and user, not only the first). */
  assignments: Assignment[];
  routing: RoutingDecision | null;
  handoffs: Handoff[];
  /** The last status changes, newest first (at most MAX_TRANSITION_MARKS; stored in slots, lib/alerts/store.ts). */
  transitions: TransitionMark[];
  additional_data: { type: string; label: string; value: unknown }[];
  stakeholder_ids: string[];
  created_at: string;
  updated_at: string;
}

export function isIncident(alert: Pick<AlertRecord, 'meta'>): boolean {
  return alert.meta?.incident === true;
}

/** Teams an alert belongs to: those it was sent to and the one it is assigned to now. */
export function teamsOf(alert: Pick<AlertRecord, 'destination_team_ids' | 'assigned_team_id'>): string[] {
  const teams = new Set(alert.destination_team_ids);
  if (alert.assigned_team_id) teams.add(alert.assigned_team_id);
  return [...teams];
}

/** A comment on an alert (POST/GET /api/v4/alerts/:id/comments). */
export interface CommentRecord {
  id: string;
  account_id: string;
  alert_id: string;
  account_user_id: string;
  text: string;
  created_at: string;
  updated_at: string;
  version: number;
}
