// The stored account (api-earlier.md "Account"): the tenant every other object belongs to.
export interface AccountRecord {
  id: string;
  name: string;
  token_id: string;
  meta: Record<string, unknown>;
  sso: Record<string, unknown>;
  notification_templates: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  version: number;
}
