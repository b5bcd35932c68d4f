// The hand-off of a new alert to the routing pipeline (docs/api.md#alerts): a message {account_id,
// alert_id} on the routing queue (`decided: true` from a create that stored the decision itself).
import { config } from '../config';
import { sendBatch } from '../queues/client';
import { GroupCommit } from '../group-commit';

export interface RoutingMessage {
  account_id: string;
  alert_id: string;
  /** Sent by the create that stored the alert's routing decision (lib/alerts/direct-routing.ts). */
  decided?: true;
}

// Sends are group-committed: concurrent hand-offs share one SendMessageBatch (at most 10).
const sends = new GroupCommit<RoutingMessage>(
  async (messages) => {
    const queueUrl = config().ROUTING_QUEUE_URL;
    if (!queueUrl) throw new Error('ROUTING_QUEUE_URL is not configured: alerts cannot be routed');
    return sendBatch(
      queueUrl,
      messages.map((message) => JSON.stringify(message)),
    );
  },
  10,
  4,
);

export function sendToRouting(message: RoutingMessage): Promise<void> {
  return sends.add(message);
}

/** Reads a routing message; null when the body is not one (it can never succeed). */
export function parseRoutingMessage(body: string): RoutingMessage | null {
  try {
    const parsed = JSON.parse(body) as Partial<RoutingMessage>;
    if (typeof parsed?.account_id === 'string' && typeof parsed.alert_id === 'string') {
      return { account_id: parsed.account_id, alert_id: parsed.alert_id, ...(parsed.decided === true ? { decided: true } : {}) };
    }
  } catch {
    // fall through
  }
  return null;
}
