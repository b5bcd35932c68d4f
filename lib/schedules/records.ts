// The stored schedule (api-v4.md "Schedule"): a named calendar; its events point to it.
export interface ScheduleRecord {
  id: string;
  account_id: string;
  tiny_id: number;
  version: number;
  name: string;
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
