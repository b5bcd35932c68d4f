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
import { loadOnce } from '../../lib/load-once';

// A click's and a command's message readers (zod/mini) load with the first such message: a cold start
// for an alert's timer reads its message by hand and loads no zod (test/infra/bundles.test.ts).
const loadSlackInteractionQueue = /* @__PURE__ */ loadOnce(() => import('../../lib/slack/interaction-queue'));
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

/** The `kind` a message names (null: not JSON, or none): which reader, and which code, it needs. */
function kindOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { kind?: unknown } | null)?.kind ?? null;
  } catch {
    return null;
  }
}

async function processRecord(record: SQSRecord): Promise<void> {
  const kind = kindOf(record.body);
  if (kind === 'slack_interaction' || kind === 'slack_command') {
    const { parseSlackInteractionMessage, parseSlackCommandMessage } = await loadSlackInteractionQueue();
    const click = kind === 'slack_interaction' ? parseSlackInteractionMessage(record.body) : null;
    // A click and a broadcast's timer load their code with the first one (test/infra/bundles.test.ts):
    // a cold start for an alert's timer does not load them.
    if (click)
      return logFailure(
        'slack: a click failed',
        record,
        loadSlackRunInteraction().then(({ runSlackInteraction }) => runSlackInteraction(click)),
      );
    const command = kind === 'slack_command' ? parseSlackCommandMessage(record.body) : null;
    // A slash command is rare beside pages and clicks: its code (alert creation, the on-call lookup)
    // loads with the first one, not with every cold start (test/infra/bundles.test.ts).
    if (command)
      return logFailure(
        'slack: a command failed',
        record,
        loadSlackCommands().then(({ runSlackCommand }) => runSlackCommand(command)),
      );
  }
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
