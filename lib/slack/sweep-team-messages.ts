// The sweeper's part for Slack team messages: a sync whose retry is due (its delayed message lost,
// or a worker that held its lease died) is run now. Running one twice is harmless: one worker holds
// an alert's messages at a time, and a message is sent only when its content changed.
import { now } from '../clock';
import { logger } from '../log';
import { listDueTeamPosts } from './post-store';
import { syncTeamMessages } from './team-messages';

const PER_SHARD = 100;

export async function sweepTeamMessages(): Promise<{ due: number; synced: number }> {
  const due = await listDueTeamPosts(now(), PER_SHARD);
  let synced = 0;
  await Promise.all(
    due.map(async ({ account_id, alert_id }) => {
      try {
        await syncTeamMessages(account_id, alert_id, null);
        synced += 1;
      } catch (error) {
        logger.warn('sweeper: Slack team message sync failed', { alertId: alert_id, error: error as Error });
      }
    }),
  );
  return { due: due.length, synced };
}
