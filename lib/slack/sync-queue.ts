// Retries of a team message sync travel on the webhooks queue beside the alert events (delayed up
// to SQS's 15 minutes; a later one is chained by its consumer). A lost message is re-driven by the
// sweeper from the record's due time (sweep-team-messages.ts).
import { config } from '../config';
import { sendDelayed } from '../queues/client';

export interface TeamMessageRetry {
  kind: 'slack_sync';
  account_id: string;
  alert_id: string;
}

export function parseTeamMessageRetry(body: string): TeamMessageRetry | null {
  try {
    const parsed = JSON.parse(body) as Partial<TeamMessageRetry>;
    if (parsed?.kind === 'slack_sync' && typeof parsed.account_id === 'string' && typeof parsed.alert_id === 'string') {
      return parsed as TeamMessageRetry;
    }
  } catch {
    // not ours
  }
  return null;
}

export async function sendTeamMessageRetry(accountId: string, alertId: string, delayMs: number): Promise<void> {
  const queueUrl = config().WEBHOOK_QUEUE_URL;
  if (!queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not configured: Slack messages cannot be retried');
  const message: TeamMessageRetry = { kind: 'slack_sync', account_id: accountId, alert_id: alertId };
  await sendDelayed(queueUrl, JSON.stringify(message), Math.min(900, Math.max(0, Math.floor(delayMs / 1000))));
}
