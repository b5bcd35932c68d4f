// GET /api/v4/slack: the connected workspace, never its bot token or signing secret.
import type * as z from 'zod';
import type { SlackConnectionRecord } from '../slack-client/records';
import type { SlackConnectionV4 } from './schemas';

export function slackConnectionToV4(record: SlackConnectionRecord): z.input<typeof SlackConnectionV4> {
  return {
    connected: true as const,
    team_id: record.team_id,
    team_name: record.team_name,
    bot_user_id: record.bot_user_id,
    connected_at: record.connected_at,
  };
}
