// The stored router (api-v4.md "Router", api-earlier.md "Router" of type router, docs/api.md#routers): its
// rules YAML exactly as sent, and its default receivers. The v4 interface names three default
// receivers (team, account user, router); the earlier one names one `default_receiver` of any
// receiver kind, schedules included. Routing sends an alert that no rule takes to every default
// receiver the router has.
import { prefixId } from '../ids';
import type { RouterDefinition } from '../rule-engine';

export interface RouterRecord {
  id: string;
  account_id: string;
  tiny_id: number;
  version: number;
  name: string;
  enabled: boolean;
  /** The YAML as sent (null: no rules, every alert goes to the default receivers). */
  rules: string | null;
  default_receiver_team_id: string | null;
  default_receiver_account_user_id: string | null;
  /** The user behind the account user: rule receivers and the earlier interface name people `usr_…`. */
  default_receiver_user_id: string | null;
  default_receiver_router_id: string | null;
  /** Only the earlier interface can name a schedule (`skd_…`). */
  default_receiver_schedule_id: string | null;
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export type DefaultReceivers = Pick<
  RouterRecord,
  | 'default_receiver_team_id'
  | 'default_receiver_account_user_id'
  | 'default_receiver_user_id'
  | 'default_receiver_router_id'
  | 'default_receiver_schedule_id'
>;

export const NO_DEFAULT_RECEIVERS: DefaultReceivers = {
  default_receiver_team_id: null,
  default_receiver_account_user_id: null,
  default_receiver_user_id: null,
  default_receiver_router_id: null,
  default_receiver_schedule_id: null,
};

/** The default receivers as the rule engine names receivers: prefix ids, team first. */
export function defaultReceiversOf(record: DefaultReceivers): string[] {
  const out: string[] = [];
  if (record.default_receiver_team_id) out.push(prefixId('team', record.default_receiver_team_id));
  if (record.default_receiver_user_id) out.push(prefixId('user', record.default_receiver_user_id));
  if (record.default_receiver_router_id) out.push(prefixId('router', record.default_receiver_router_id));
  if (record.default_receiver_schedule_id) out.push(prefixId('schedule', record.default_receiver_schedule_id));
  return out;
}

export function hasDefaultReceiver(record: DefaultReceivers): boolean {
  return Boolean(
    record.default_receiver_team_id ||
    record.default_receiver_account_user_id ||
    record.default_receiver_router_id ||
    record.default_receiver_schedule_id,
  );
}

/** A router as the rule engine reads it; a router without rules sends everything to its defaults.
 * Here beside the record, not with the router test's use case: routing reads routers, and importing
 * the test's input schemas put zod's classic API in the routing worker's start. */
export function routerDefinition(record: RouterRecord): RouterDefinition {
  return {
    id: prefixId('router', record.id),
    enabled: record.enabled,
    rules: record.rules ?? 'rules: []\n',
    default_receivers: defaultReceiversOf(record),
  };
}
