// Entry point: the routing queue's consumer. Each record is one {account_id, alert_id}; failures
// are reported per record (partial batch response), so one bad alert never holds up the others,
// and the queue moves a record that keeps failing to its DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { AlertRecord } from '../../lib/alerts/records';
import { prefetchAlerts, routeAlert } from '../../lib/alert-routing/route-alert';
import { parseRoutingMessage, type RoutingMessage } from '../../lib/alerts/routing-queue';
import { logger } from '../../lib/log';
import { flushedAtEnd } from '../../lib/metrics';

async function routeRecord(record: SQSRecord, prefetched: Map<string, AlertRecord | null>): Promise<void> {
  const message = parseRoutingMessage(record.body);
  // Unreadable messages fail too: after the retries they rest in the DLQ, where someone can look.
  if (!message) throw new Error(`routing message ${record.messageId} is not {account_id, alert_id}`);
  try {
    await routeAlert(message, prefetched.get(message.alert_id), Number(record.attributes?.ApproximateReceiveCount ?? '1') <= 1);
  } catch (error) {
    logger.error('routing failed', { error: error as Error, messageId: record.messageId, alertId: message.alert_id });
    throw error;
  }
}

// A processor per invocation: the local runtime runs several batches of one handler at once, and a
// shared processor would mix their failure lists.
export const handler = flushedAtEnd(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const messages = event.Records.map((r) => parseRoutingMessage(r.body)).filter((m): m is RoutingMessage => m !== null);
  // A failed prefetch only costs speed: every record then reads for itself.
  const prefetched = await prefetchAlerts(messages).catch((error: unknown) => {
    logger.warn('routing: batch prefetch failed', { error: error as Error });
    return new Map<string, AlertRecord | null>();
  });
  return processPartialResponse(event, (record: SQSRecord) => routeRecord(record, prefetched), new BatchProcessor(EventType.SQS), {
    context,
    throwOnFullBatchFailure: false,
  });
});
