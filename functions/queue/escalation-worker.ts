// Entry point: the escalation queue's consumer. Each record is a timer (`due`), a storm-bundle
// flush, a broadcast's timer (its delivery, its response deadline: lib/broadcasts), a Slack click
// accepted by POST /public/slack/interactions (lib/slack/run-interaction.ts) or a slow /oncall
// command (lib/slack/commands.ts); failures are
// reported per record (partial batch response) and records run side by side, so one slow alert never
// holds up another's timer. A record that keeps failing rests in the DLQ; the
// due index still re-drives its alert.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { parseBroadcastMessage } from '../../lib/broadcasts/timers';
import { processEscalationMessage } from '../../lib/escalation/process-message';
import { parseEscalationMessage } from '../../lib/escalation/timers';
import { logger } from '../../lib/log';
import { flushedAtEnd } from '../../lib/metrics';
import { parseSlackCommandMessage, parseSlackInteractionMessage } from '../../lib/slack/interaction-queue';
import { loadOnce } from '../../lib/load-once';

const loadSlackRunInteraction = /* @__PURE__ */ loadOnce(() => import('../../lib/slack/run-interaction'));
const loadSlackCommands = /* @__PURE__ */ loadOnce(() => import('../../lib/slack/commands'));
const loadBroadcastsRunBroadcast = /* @__PURE__ */ loadOnce(() => import('../../lib/broadcasts/run-broadcast'));

/** Runs one record's work; a failure is logged with the record and thrown (the record is retried, then rests in the DLQ). */
async function logFailure(what: string, record: SQSRecord, work: Promise<unknown>, details: Record<string, string> = {}): Promise<void> {
  try {
    await work;
  } catch (error) {
    logger.error(what, { error: error as Error, messageId: record.messageId, ...details });
    throw error;
  }
}

async function processRecord(record: SQSRecord): Promise<void> {
  const click = parseSlackInteractionMessage(record.body);
  // A click and a broadcast's timer load their code with the first one (test/infra/bundles.test.ts):
  // a cold start for an alert's timer does not load them.
  if (click)
    return logFailure(
      'slack: a click failed',
      record,
      loadSlackRunInteraction().then(({ runSlackInteraction }) => runSlackInteraction(click)),
    );
  const command = parseSlackCommandMessage(record.body);
  // A slash command is rare beside pages and clicks: its code (alert creation, the on-call lookup)
  // loads with the first one, not with every cold start (test/infra/bundles.test.ts).
  if (command)
    return logFailure(
      'slack: a command failed',
      record,
      loadSlackCommands().then(({ runSlackCommand }) => runSlackCommand(command)),
    );
  const broadcast = parseBroadcastMessage(record.body);
  if (broadcast)
    return logFailure(
      'broadcast step failed',
      record,
      loadBroadcastsRunBroadcast().then(({ processBroadcastMessage }) => processBroadcastMessage(broadcast)),
    );
  const message = parseEscalationMessage(record.body);
  if (!message)
    throw new Error(
      `escalation message ${record.messageId} is not a due, flush, delivery_failed, broadcast, slack_interaction or slack_command message`,
    );
  return logFailure('escalation step failed', record, processEscalationMessage(message), { kind: message.kind });
}

export const handler = flushedAtEnd(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, processRecord, new BatchProcessor(EventType.SQS), {
    context,
    throwOnFullBatchFailure: false,
    processInParallel: true,
  }),
);
