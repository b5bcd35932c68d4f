// What the service keeps about Slack beyond the connection (lib/slack-client/records.ts): the team
// channel messages of each alert (channel and ts, so each change updates them in place).

/** The subscriber id of the account's alert events while Slack is connected (lib/slack/connection.ts):
 * here, not with the connection's use cases, so the webhook worker that passes it over does not load
 * their input schemas. */
export const SLACK_SUBSCRIBER = 'slack';

/** One team's message about an alert in the team's channel. */
export interface TeamPost {
  channel: string;
  ts: string;
  /** What was last sent (a digest of text and blocks): an update is made only when it would differ. */
  digest: string;
}

/** The last change of the alert's status or assignee the messages show. */
export interface ShownChange {
  /** The timeline's action: acknowledged, resolved, handoff, dropped, routed, … */
  action: string;
  /** `usr_…`, `int_…`, or null for the service's own steps (routing, escalation). */
  by: string | null;
  at: string;
}

/**
 * The team messages of one alert, advanced by one worker at a time (a lease); a change that arrives
 * while another worker holds it marks it dirty and that worker goes round again. A sync that Slack
 * refused or rate-limited is due again at `due_at` (the sweeper's pending index).
 */
export interface TeamPostsRecord {
  account_id: string;
  alert_id: string;
  /** By team id. */
  posts: Record<string, TeamPost>;
  change: ShownChange | null;
  lease_until: number;
  dirty: boolean;
  /** Retry of a failed sync (epoch ms, service clock); null when nothing is pending. */
  due_at: number | null;
  attempts: number;
  last_error: string | null;
  updated_at: string;
  version: number;
}
