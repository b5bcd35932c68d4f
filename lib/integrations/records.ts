// The stored integration (api-v4.md "Integration", api-earlier.md "Integration"): one record behind
// both representations. Destinations are kept as ULIDs per kind; the earlier interface shows them as
// prefix ids in one `destination_ids` list.
import type { Urgency } from '../alerts/records';

export interface IntegrationRecord {
  id: string;
  account_id: string;
  tiny_id: number;
  version: number;
  name: string;
  enabled: boolean;
  urgency: Urgency;
  /** ULID of the catalogue type (lib/integrations/integration-types.ts). */
  integration_type_id: string;
  /** Type options (token, capture_additional_data, wrapper_key) and service options (rate_limit_per_minute, rate_limit_burst). */
  options: Record<string, unknown>;
  account_user_ids: string[];
  router_ids: string[];
  team_ids: string[];
  /** Only the earlier interface names schedules (`skd_…` in destination_ids). */
  schedule_ids: string[];
  /** account user → its user: the earlier interface shows account-user destinations as `usr_…`. */
  account_user_user_ids: Record<string, string>;
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
