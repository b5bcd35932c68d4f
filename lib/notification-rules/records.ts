// The stored notification rule (api-v4.md "Notification rule", docs/api.md#escalation-and-notifications): how an account user is
// paged, as YAML stored exactly as sent. Assigned through an account user's notification_rule_id.
// The earlier interface shows it as a router of type notification (the real service's earlier name
// for it): one object behind /api/v4/notification_rules and /router.
export interface NotificationRuleRecord {
  id: string;
  account_id: string;
  version: number;
  name: string;
  enabled: boolean;
  /** The YAML as sent (null: no rules yet; the user's default channels apply). */
  rules: string | null;
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
