// Entry point: the routing queue's consumer. Each record is one {account_id, alert_id}; failures
// are reported per record (partial batch response), so one bad alert never holds up the others,
// and the queue moves a record that keeps failing to its DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { routeAlert } from '../../lib/alerts/route-alert';
import { parseRoutingMessage } from '../../lib/alerts/routing-queue';
import { logger } from '../../lib/log';

async function routeRecord(record: SQSRecord): Promise<void> {
  const message = parseRoutingMessage(record.body);
  // Unreadable messages fail too: after the retries they rest in the DLQ, where someone can look.
  if (!message) throw new Error(`routing message ${record.messageId} is not {account_id, alert_id}`);
  try {
    await routeAlert(message);
  } catch (error) {
    logger.error('routing failed', { error: error as Error, messageId: record.messageId, alertId: message.alert_id });
    throw error;
  }
}

// A processor per invocation: the local runtime runs several batches of one handler at once, and a
// shared processor would mix their failure lists.
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, routeRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
