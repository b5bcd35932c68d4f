// A log is a record owned by another object (docs/api.md#alerts, docs/api.md#integrations, api-earlier.md "Log"): an alert's
// timeline entries, and every inbound webhook request as it was received.

export type LogSubtype = 'INCOMING' | 'OUTGOING';

/** Processing state of an INCOMING (webhook) log; absent on other logs. */
export type IngestStatus = 'pending' | 'processed' | 'ignored' | 'failed';

export interface LogRecord {
  id: string;
  account_id: string;
  tiny_id?: number;
  /** What kind of log: 'alert' (a change of an alert), 'integration' (a webhook request), 'note', … */
  type: string;
  subtype: LogSubtype | null;
  /** Message or data, as the earlier interface shows it. */
  content: string;
  /** Prefix id of the owning object (`alt_…`, `int_…`). */
  owner_id: string;
  /** Prefix id of what created the log (`usr_…` for a person, `int_…` for an integration). */
  source_id: string;
  level: number;
  meta: Record<string, unknown>;
  /** Structured details, e.g. {action, actor, old_status, new_status} for alert changes, or the
   * request (body, headers, received_at) for webhooks. */
  data: Record<string, unknown>;
  status?: IngestStatus;
  reason?: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** What the ingest worker records on an inbound request's log when it is done with it (data.result). */
export interface IngestResult {
  actions?: Array<Record<string, unknown>>;
  /** How many actions there were, when the log keeps only the first of them. */
  actions_total?: number;
  alert_ids?: string[];
  subscribe_url?: string;
  /** SNS SubscriptionConfirmation: whether fetching its SubscribeURL confirmed it, and what SNS answered. */
  subscription_confirmed?: boolean;
  subscription_arn?: string;
  /** Why the SubscribeURL was not fetched (not an https SNS URL). */
  confirmation_skipped?: string;
  /** The fetch was attempted and did not confirm: SNS's status, or the network failure. */
  confirmation_failed?: string;
  /** `unreadable` (the body), `signature` (an SNS message that does not verify), `configuration`
   * (integration gone, unknown type), `exhausted` (retries). */
  failure?: 'unreadable' | 'signature' | 'configuration' | 'exhausted';
  maintenance_window_ids?: string[];
}
