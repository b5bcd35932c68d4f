// Entry point: the ingest queue's consumer. Flow: SQS batch → read the batch's logs and dedup items
// at once → one stored request per record (lib/integrations/ingest/process-incoming-log) → partial
// batch response. Records never throw out of the loop: Powertools' BatchProcessor turns a failed
// record into a batchItemFailure, which SQS retries and, after maxReceiveCount, moves to the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { QUEUES } from '../../lib/queues/definitions';
import { parseIngestMessage } from '../../lib/integrations/ingest/ingest-queue';
import { emptyPrefetch, prefetchBatch, type Prefetched } from '../../lib/integrations/ingest/prefetch';
import { processAttempt } from '../../lib/integrations/ingest/process-incoming-log';
import { logger } from '../../lib/log';
import { flushedAtEnd } from '../../lib/metrics';

const receiveCountOf = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount ?? '1');

async function handleRecord(record: SQSRecord, prefetched: Prefetched): Promise<void> {
  const message = parseIngestMessage(record.body);
  if (!message) {
    // Not ours: no attempt can ever succeed, so it is dropped rather than retried into the DLQ.
    logger.error('ingest: unreadable queue message dropped', { messageId: record.messageId });
    return;
  }
  await processAttempt(
    message.account_id,
    message.log_id,
    {
      receiveCount: receiveCountOf(record),
      maxReceiveCount: QUEUES.ingest.maxReceiveCount,
    },
    prefetched,
  );
}

export const handler = flushedAtEnd(async (event: SQSEvent, context: Context) => {
  // A log its message carries is the log as it was accepted: used on the message's first delivery
  // only; a redelivery reads the log as it is now (another run may have processed it).
  const messages = event.Records.flatMap((record) => {
    const message = parseIngestMessage(record.body);
    if (!message) return [];
    if (receiveCountOf(record) > 1) delete message.log;
    return [message];
  });
  // A failed prefetch only costs speed: every record then reads for itself.
  const prefetched = await prefetchBatch(messages).catch((error: unknown) => {
    logger.warn('ingest: batch prefetch failed', { error: error as Error });
    return emptyPrefetch();
  });
  // A processor per invocation: the local runtime runs several batches of one handler concurrently.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(event, (record: SQSRecord) => handleRecord(record, prefetched), processor, {
    context,
    throwOnFullBatchFailure: false,
  });
});
