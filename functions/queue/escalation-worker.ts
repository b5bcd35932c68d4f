// Entry point: the escalation queue's consumer. Each record is a timer (`due`), a storm-bundle
// flush, a broadcast's timer (its delivery, its response deadline: lib/broadcasts) or a Slack click
// accepted by POST /public/slack/interactions (lib/slack/run-interaction.ts); failures are
// reported per record (partial batch response) and records run side by side, so one slow alert never
// holds up another's timer. A record that keeps failing rests in the DLQ; the
// due index still re-drives its alert.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { processBroadcastMessage } from '../../lib/broadcasts/run-broadcast';
import { parseBroadcastMessage } from '../../lib/broadcasts/timers';
import { processEscalationMessage } from '../../lib/escalation/process-message';
import { parseEscalationMessage } from '../../lib/escalation/timers';
import { logger } from '../../lib/log';
import { parseSlackInteractionMessage } from '../../lib/slack/interaction-queue';
import { runSlackInteraction } from '../../lib/slack/run-interaction';

async function processRecord(record: SQSRecord): Promise<void> {
  const click = parseSlackInteractionMessage(record.body);
  if (click) {
    try {
      await runSlackInteraction(click);
    } catch (error) {
      logger.error('slack: a click failed', { error: error as Error, messageId: record.messageId });
      throw error;
    }
    return;
  }
  const broadcast = parseBroadcastMessage(record.body);
  if (broadcast) {
    try {
      await processBroadcastMessage(broadcast);
    } catch (error) {
      logger.error('broadcast step failed', { error: error as Error, messageId: record.messageId });
      throw error;
    }
    return;
  }
  const message = parseEscalationMessage(record.body);
  if (!message)
    throw new Error(`escalation message ${record.messageId} is not a due, flush, delivery_failed, broadcast or slack_interaction message`);
  try {
    await processEscalationMessage(message);
  } catch (error) {
    logger.error('escalation step failed', { error: error as Error, messageId: record.messageId, kind: message.kind });
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, processRecord, new BatchProcessor(EventType.SQS), {
    context,
    throwOnFullBatchFailure: false,
    processInParallel: true,
  });
