// The stored maintenance window (api-v4.md "Maintenance window"): while it lasts, webhooks to the
// integrations it lists are logged and ignored (docs/api.md#integrations).

export interface MaintenanceWindowRecord {
  id: string;
  account_id: string;
  version: number;
  name: string;
  /** Accepted on create, not shown (api-v4.md). */
  description: string | null;
  /** ISO 8601 UTC with milliseconds. */
  start_datetime: string;
  end_datetime: string;
  /** As the client gave it (a friendly name or an IANA zone). */
  time_zone: string;
  integration_ids: string[];
  created_at: string;
  updated_at: string;
}
