// The stored broadcast (api-v4.md "Broadcast", docs/api.md#broadcasts): a message to teams and account
// users, optionally asking each addressee for one answer among its response options. Its addressees
// and their answers are items of their own (store.ts): the answers are never counted into the
// broadcast, their counts are derived from them on every read, so no count can drift from them.

export const BROADCAST_STATUSES = ['queued', 'open', 'closed', 'errored'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

export interface BroadcastResponseOption {
  /** ULID; requests may name it by ULID or `bro_` prefix id. */
  id: string;
  value: string;
  /** 0, 1, … in the order given on create. */
  position: number;
}

export interface BroadcastRecord {
  id: string;
  account_id: string;
  version: number;
  tiny_id: number;
  title: string;
  description: string | null;
  tag_list: string[];
  destination_team_ids: string[];
  destination_account_user_ids: string[];
  status: BroadcastStatus;
  response_requested: boolean;
  /** ISO 8601 UTC with milliseconds; the broadcast closes when it passes. */
  response_requested_by: string | null;
  response_options: BroadcastResponseOption[];
  /** The account user who created it (the source, as alerts name theirs). */
  created_by: string;
  /** How many people it was delivered to, once delivered. */
  recipients_count: number | null;
  sent_at: string | null;
  closed_at: string | null;
  /** Delivery in progress until (epoch ms): a crashed delivery is resumed after it. */
  lease_until: number | null;
  /** Its next timer (delivery, a stalled delivery, the response deadline), mirrored into the due index. */
  due_at: number | null;
  created_at: string;
  updated_at: string;
}

/** One addressee's answer (one per person: a second answer replaces the first). */
export interface BroadcastResponseRecord {
  /** A new ULID per answer (`brr_`). */
  id: string;
  account_id: string;
  broadcast_id: string;
  account_user_id: string;
  broadcast_response_option_id: string;
  /** How the answer came: `web` (a login token: the console) or `api` (an API key). */
  channel: string;
  created_at: string;
}

/** A broadcast as the representations show it: the record and its answers. */
export interface BroadcastView extends BroadcastRecord {
  responses: BroadcastResponseRecord[];
}

/** The record closed now (by a person or by its deadline): nothing is due any more. */
export function closedRecord(record: BroadcastRecord, now: number): BroadcastRecord {
  const iso = new Date(now).toISOString();
  return {
    ...record,
    status: 'closed',
    closed_at: iso,
    lease_until: null,
    due_at: null,
    updated_at: iso,
    version: record.version + 1,
  };
}
