// Entry point: the webhooks queue's consumer. Each record is an alert event to fan out to the
// account's outgoing webhooks, teams' chat webhooks and, when the account connected Slack, its team
// messages; or a delivery's next try; or a Slack team message sync's retry. Failures are reported
// per record (partial batch response) and a record that keeps failing rests in the DLQ.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { AlertEventMessage } from '../../lib/alerts/alert-events';
import { logger } from '../../lib/log';
import { flushedAtEnd } from '../../lib/metrics';
import { attemptDelivery } from '../../lib/outgoing-webhooks/deliver';
import { fanOutAlertEvent } from '../../lib/outgoing-webhooks/fan-out';
import { parseWebhookMessage } from '../../lib/outgoing-webhooks/webhook-queue';
import { SLACK_SUBSCRIBER } from '../../lib/slack/records';
import { parseTeamMessageRetry } from '../../lib/slack/sync-queue';
import { retryTeamMessages, syncForAlertEvent } from '../../lib/slack/team-messages';

/** An alert event: to the outgoing webhooks and chat teams among its subscribers, and to Slack's team messages. */
async function handleAlertEvent(event: AlertEventMessage): Promise<void> {
  const webhooks = event.subscribers.filter((id) => id !== SLACK_SUBSCRIBER);
  await Promise.all([
    webhooks.length > 0 ? fanOutAlertEvent({ ...event, subscribers: webhooks }) : undefined,
    webhooks.length < event.subscribers.length ? syncForAlertEvent(event) : undefined,
  ]);
}

async function handleRecord(record: SQSRecord): Promise<void> {
  try {
    const retry = parseTeamMessageRetry(record.body);
    if (retry) {
      await retryTeamMessages(retry.account_id, retry.alert_id);
      return;
    }
    const message = parseWebhookMessage(record.body);
    if (!message) throw new Error(`webhook message ${record.messageId} is neither an alert event, a delivery nor a Slack retry`);
    if (message.kind === 'event') await handleAlertEvent(message);
    else await attemptDelivery(message.account_id, message.delivery_id);
  } catch (error) {
    logger.error('webhook delivery failed', { error: error as Error, messageId: record.messageId });
    throw error;
  }
}

export const handler = flushedAtEnd(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, handleRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false }),
);
