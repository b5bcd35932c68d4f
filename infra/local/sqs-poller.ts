// Feeds a queue's worker the way a Lambda SQS event source mapping does: batches of up to
// `batchSize`, the handler's `batchItemFailures` left on the queue (visible again after the
// visibility timeout, redriven to the DLQ by the queue after maxReceiveCount), the rest deleted.
// A handler that throws leaves its whole batch on the queue.
import { setMaxListeners } from 'node:events';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ContextSlot } from '../../lib/async-context';
import { runInBackground } from '../../lib/sdk';

/**
 * The worker function whose batch the code now running belongs to (undefined in the API and the
 * scheduled functions): lets a meter (bench/capacity-meter.ts) attribute DynamoDB calls to a step.
 */
export const invocation = new ContextSlot<{ functionName: string }>('invocation');

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  client: SQSClient;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  /** Parallel pollers, like the concurrent invocations a mapping scales to. */
  concurrency: number;
  functionName: string;
  loadHandler: () => Promise<SqsHandler>;
  onError?: (error: unknown) => void;
}

export interface Poller {
  readonly functionName: string;
  stop(): Promise<void>;
  /**
   * Batches received from now on wait before their handler runs until the returned function is
   * called (tests that stage what a crashed worker left, while this worker must not take the work
   * first). A batch already running goes on; a held one is not `busy`.
   */
  hold(): () => void;
  /** Batches handled so far (tests wait on it). */
  readonly batches: number;
  /** Batches being handled now, from their receipt to their deletion (tests wait for none). */
  readonly busy: number;
}

/** A received message as the record a Lambda SQS event carries. */
export function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? '000000000000',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          stringValue: value.StringValue,
          binaryValue: value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined,
          stringListValues: [],
          binaryListValues: [],
          dataType: value.DataType ?? 'String',
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: process.env.AWS_REGION ?? 'us-east-1',
  };
}

/**
 * One batch handed to a worker's handler as Lambda hands it over: a context with the function's name
 * and the first message's id, inside the function's invocation context (what the service's clients
 * and the benchmarks attribute calls to). The poller's batches, and the cost benchmark's timers.
 */
export function invokeWorker(run: SqsHandler, records: SQSRecord[], functionName: string) {
  const context = {
    functionName,
    awsRequestId: records[0].messageId,
    getRemainingTimeInMillis: () => 30_000,
  } as unknown as Context;
  return invocation.run({ functionName }, () => runInBackground(() => run({ Records: records }, context)));
}

export function startPoller(options: PollerOptions): Poller {
  const abort = new AbortController();
  // Every receive loop listens on the one signal (the SDK adds a listener per request in flight).
  setMaxListeners(options.concurrency * 4 + 10, abort.signal);
  let running = true;
  let batches = 0;
  let busy = 0;
  let handler: Promise<SqsHandler> | undefined;
  let held: { until: Promise<void>; release: () => void } | null = null;

  async function handle(messages: Message[]): Promise<void> {
    const records = messages.map((m) => toRecord(m, options.queueArn));
    let failed = new Set<string>();
    try {
      handler ??= options.loadHandler();
      const response = await invokeWorker(await handler, records, options.functionName);
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      options.onError?.(error);
      return; // the whole batch stays on the queue
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length > 0) {
      await options.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
        }),
      );
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      try {
        const out = await options.client.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            // The longest poll, as the event source mapping polls: a message sent wakes it at once and a
            // delayed one when it becomes visible, so a shorter wait only adds empty receives (at 1 s,
            // the 20 idle receive loops of a test's service cost 8 % of a core between its requests).
            WaitTimeSeconds: 20,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        if (out.Messages?.length) {
          while (held) await held.until;
          busy += 1;
          try {
            await handle(out.Messages);
          } finally {
            busy -= 1;
          }
          batches += 1;
        }
      } catch (error) {
        if (!running) return;
        options.onError?.(error);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  const loops = Array.from({ length: options.concurrency }, () => loop());
  return {
    functionName: options.functionName,
    hold() {
      if (!held) {
        let release = () => {};
        const until = new Promise<void>((resolve) => {
          release = resolve;
        });
        held = { until, release };
      }
      const mine = held;
      return () => {
        if (held === mine) held = null;
        mine.release();
      };
    },
    get batches() {
      return batches;
    },
    get busy() {
      return busy;
    },
    async stop() {
      running = false;
      abort.abort();
      await Promise.allSettled(loops);
    },
  };
}
