// GET /api/v4/slack: the connected workspace, never its bot token or signing secret.
import type { SlackConnectionRecord } from '../slack-client/records';

export function slackConnectionToV4(record: SlackConnectionRecord) {
  return {
    connected: true as const,
    team_id: record.team_id,
    team_name: record.team_name,
    bot_user_id: record.bot_user_id,
    connected_at: record.connected_at,
  };
}
