// The stored alert: one domain object behind both interfaces (contract §1, §6). The v4 and earlier
// representations are serializers over this record.

export type AlertStatus = 'queued' | 'open' | 'acknowledged' | 'resolved' | 'dropped' | 'suppressed' | 'archived';
export type Urgency = 'silent' | 'low' | 'medium' | 'high' | 'critical';
export const URGENCIES: Urgency[] = ['silent', 'low', 'medium', 'high', 'critical'];
export const INCIDENT_SEVERITIES = ['SEV-1', 'SEV-2', 'SEV-3', 'SEV-4', 'SEV-5', 'SEV-UNKNOWN'] as const;

/** Who changed an alert: a person (through the API) or an integration (a webhook). */
export type Actor =
  | { type: 'AccountUser'; accountUserId: string; userId: string }
  | { type: 'Integration'; integrationId: string };

export interface Handoff {
  /** Prefix ids (`usr_…` / `tem_…`). */
  to: string;
  from: string;
  /** Unix seconds. */
  time: number;
  acknowledged: boolean;
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
  /** 1 at creation; +1 for every deduplicated create (contract §9). */
  dedup_count: number;
  meta: Record<string, unknown>;
  destination_team_ids: string[];
  destination_router_ids: string[];
  destination_account_user_ids: string[];
  destination_schedule_ids: string[];
  /** d_team_id / d_user_id: whom the alert is assigned to now (ULIDs of a team / a user). */
  assigned_team_id: string | null;
  assigned_user_id: string | null;
  source_type: 'AccountUser' | 'Integration';
  /** ULID of the account user or integration that created it. */
  source_id: string;
  source_log_id: string | null;
  parent_id: string | null;
  acknowledged_at: string | null;
  /** Prefix id of who acknowledged (`usr_…` or `int_…`). */
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  archived_at: string | null;
  archived_by: string | null;
  handoffs: Handoff[];
  additional_data: { type: string; label: string; value: unknown }[];
  stakeholder_ids: string[];
  created_at: string;
  updated_at: string;
}
