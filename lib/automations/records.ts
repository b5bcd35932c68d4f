// The stored automation (api-earlier.md "Automation", docs/api.md#automations): an HTTP request to a third-party
// system, described by its settings YAML (stored exactly as sent), run by hand or by a router's
// automation action.
export interface AutomationRecord {
  id: string;
  account_id: string;
  version: number;
  name: string;
  enabled: boolean;
  settings: string;
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
