// Entry point: the webhooks queue's consumer. Each record is an alert event to fan out to the
// account's outgoing webhooks and teams' chat webhooks, or a delivery's next try; failures are reported per record (partial
// batch response) and a record that keeps failing rests in the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../lib/log';
import { attemptDelivery } from '../../lib/outgoing-webhooks/deliver';
import { fanOutAlertEvent } from '../../lib/outgoing-webhooks/fan-out';
import { parseWebhookMessage } from '../../lib/outgoing-webhooks/webhook-queue';

async function handleRecord(record: SQSRecord): Promise<void> {
  const message = parseWebhookMessage(record.body);
  if (!message) throw new Error(`webhook message ${record.messageId} is neither an alert event nor a delivery`);
  try {
    if (message.kind === 'event') await fanOutAlertEvent(message);
    else await attemptDelivery(message.account_id, message.delivery_id);
  } catch (error) {
    logger.error('webhook delivery failed', { error: error as Error, messageId: record.messageId });
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, handleRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
