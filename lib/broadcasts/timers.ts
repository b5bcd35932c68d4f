// A broadcast's timers ride the escalation queue (lib/queues/definitions.ts `escalation`) as `broadcast`
// messages: its delivery (due at once on create) and its response deadline (response_requested_by,
// an absolute time: TIME_SCALE does not divide it). Delayed messages are chained past SQS's 15
// minutes by their consumer; the broadcast's due_at is mirrored into the due index, so the sweeper
// runs a timer whose message was lost (sweep-broadcasts.ts).
import { now as clockNow } from '../clock';
import { config } from '../config';
import { logger } from '../log';
import { sendAt } from '../queues/delayed';

export interface BroadcastMessage {
  kind: 'broadcast';
  account_id: string;
  broadcast_id: string;
  due_at: number;
}

/** Asks for the broadcast's step at `dueAt`. A send that fails is logged: the sweeper re-drives it. */
export async function scheduleBroadcast(accountId: string, broadcastId: string, dueAt: number): Promise<void> {
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) {
    logger.warn('ESCALATION_QUEUE_URL is not configured: broadcast timers fire through the sweeper only');
    return;
  }
  const body: BroadcastMessage = { kind: 'broadcast', account_id: accountId, broadcast_id: broadcastId, due_at: dueAt };
  try {
    await sendAt(queueUrl, JSON.stringify(body), dueAt, clockNow());
  } catch (error) {
    logger.warn('broadcast timer not sent; the sweeper will re-drive it', { broadcastId, dueAt, error: error as Error });
  }
}

/** Sends a message on again (it arrived early: SQS delays at most 15 minutes). */
export async function chainBroadcastMessage(message: BroadcastMessage): Promise<void> {
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) throw new Error('ESCALATION_QUEUE_URL is not configured');
  await sendAt(queueUrl, JSON.stringify(message), message.due_at, clockNow());
}

export function parseBroadcastMessage(body: string): BroadcastMessage | null {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (
      parsed?.kind === 'broadcast' &&
      typeof parsed.account_id === 'string' &&
      typeof parsed.broadcast_id === 'string' &&
      typeof parsed.due_at === 'number'
    ) {
      return { kind: 'broadcast', account_id: parsed.account_id, broadcast_id: parsed.broadcast_id, due_at: parsed.due_at };
    }
  } catch {
    // not ours
  }
  return null;
}
