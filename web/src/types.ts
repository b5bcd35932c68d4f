// The API objects the console reads (api-v4.md, api-earlier.md, contract), only the fields it uses.

export type AlertStatus = 'queued' | 'open' | 'acknowledged' | 'resolved' | 'dropped' | 'suppressed' | 'archived';
export type Urgency = 'silent' | 'low' | 'medium' | 'high' | 'critical';

export interface AlertV4 {
  id: string;
  prefix_id: string;
  tiny_id: number;
  title: string;
  description: string;
  urgency: Urgency;
  status: AlertStatus;
  tag_list: string[];
  source_type: string;
  source_id: string;
  source_log_id: string | null;
  thirdparty_id: string | null;
  dedup_count: number;
  dedup_keys: string[];
  meta: { incident?: boolean; incident_severity?: string | null; incident_message?: string | null };
  destination_team_ids: string[];
  destination_router_ids: string[];
  destination_account_user_ids: string[];
  acknowledged_at: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The earlier interface's alert: it alone shows the assignee and the handoffs. */
export interface AlertEarlier {
  id: string;
  tinyId: number;
  title: string;
  urgency: Urgency;
  status: AlertStatus;
  d_team_id: string | null;
  d_user_id: string | null;
  createdAt: string;
  updatedAt: string;
  acknowledgedby?: string | null;
  resolvedby?: string | null;
  handoffs?: { to: string; from: string; time: number; acknowledged: boolean }[];
}

export interface UserProfile {
  id: string;
  prefix_id: string;
  name: string;
  time_zone: string;
  notify_push: boolean;
  notify_email: boolean;
  notify_sms: boolean;
  notify_voice: boolean;
  emails: { id: string; email: string; primary: boolean }[];
  phones: { id: string; phone: string; primary: boolean; country: string | null; blocked: boolean }[];
}

export interface AccountUser {
  id: string;
  prefix_id: string;
  user_id: string;
  roles: Record<'admin' | 'billing' | 'broadcaster' | 'communicator', boolean>;
  notification_rule_id: string | null;
  user: UserProfile;
}

export interface Team {
  id: string;
  prefix_id: string;
  tiny_id: number;
  name: string;
  schedule_id: string | null;
  escalation_policy_id: string | null;
  member_account_user_ids: string[];
  admin_account_user_ids: string[];
  drop_notifications: string;
  handoff_notifications: string;
  notes: string;
}

export interface Schedule {
  id: string;
  prefix_id: string;
  tiny_id: number;
  name: string;
}

export interface EscalationPolicy {
  id: string;
  prefix_id: string;
  name: string;
  repeat: number;
  reassign_team_ids: string[];
  reassign_account_user_ids: string[];
  escalation_layers: { id?: string; layer: number; timeout: number; timeout_unit: 'minutes' | 'hours' }[];
}

export interface IntegrationType {
  id: string;
  prefix_id: string;
  name: string;
  slug: string;
  description: string;
}

export interface Integration {
  id: string;
  prefix_id: string;
  tiny_id: number;
  name: string;
  enabled: boolean;
  urgency: Urgency;
  integration_type_id: string;
  integration_type: IntegrationType | null;
  account_user_ids: string[];
  router_ids: string[];
  team_ids: string[];
  created_at: string;
}

export interface LogEntry {
  id: string;
  createdAt: string;
  content: string;
  type: string;
  subtype: string | null;
  owner_id: string;
  source_id: string;
  data: {
    action?: string;
    result?: { alert_ids?: string[]; actions?: { action: string; outcome: string; alert_id?: string }[]; failure?: string };
    [key: string]: unknown;
  };
  status?: 'pending' | 'processed' | 'ignored' | 'failed';
  reason?: string;
}

export interface Comment {
  id: string;
  account_user_id: string | null;
  text: string;
  created_at: string;
}

export interface Router {
  id: string;
  prefix_id: string;
  tiny_id: number;
  name: string;
  enabled: boolean;
  rules: string | null;
  default_receiver_account_user_id: string | null;
  default_receiver_router_id: string | null;
  default_receiver_team_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One condition of a dry run: what it compared, what it expected, what it saw, whether it held. */
export interface ConditionReport {
  condition: string;
  expected?: unknown;
  saw?: unknown;
  held: boolean;
}

/** POST /api/v4/routers/:id/test. */
export interface RouterExplanation {
  router_id: string | null;
  enabled: boolean;
  evaluated_at: string;
  matched_rule: { index: number; conditions: ConditionReport[] } | null;
  tried: { index: number; failed_condition: ConditionReport | null }[];
  plan: {
    outcome: 'matched' | 'no_match' | 'disabled' | 'invalid_rules';
    rule_index: number | null;
    actions: ({ type: string } & Record<string, unknown>)[];
    suppressed: boolean;
    assignments: { receiver: string; kind?: string; delay_ms?: number; source?: string }[];
    used_default: boolean;
    alert_changes: Record<string, unknown>;
    warnings: string[];
  };
}

export interface NotificationRule {
  id: string;
  prefix_id: string;
  name: string;
  enabled: boolean;
  rules: string | null;
  created_at: string;
  updated_at: string;
}

export type Channel = 'push' | 'email' | 'sms' | 'voice' | 'slack' | 'whatsapp';

export interface Notification {
  id: string;
  prefix_id: string;
  account_user_id: string | null;
  alert_id: string | null;
  broadcast_id: string | null;
  workflow_id: string | null;
  channel: Channel;
  provider: string | null;
  template: string;
  to: string;
  subject: string | null;
  message: string;
  status: 'queued' | 'sent' | 'delivered' | 'failed';
  sent_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** POST /api/v4/notification_rules/:id/test. */
export interface NotificationRuleExplanation {
  notification_rule_id: string | null;
  enabled: boolean;
  type: string;
  matched_rule: { index: number; conditions: ConditionReport[] } | null;
  tried: { index: number; skipped_for_type?: string[]; failed_condition: ConditionReport | null }[];
  plan: {
    source: 'rule' | 'default';
    reason: 'matched' | 'ignored' | 'no_rule' | 'disabled' | 'no_match' | 'invalid_rules';
    steps: { at_offset_ms: number; channels: string[] }[];
  };
}
