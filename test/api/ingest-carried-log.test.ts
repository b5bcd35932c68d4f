// A small inbound request travels in its ingest message as it was stored (lib/integrations/ingest/
// ingest-queue.ts): the message's first delivery reads no log; a redelivery, and the sweeper's re-send
// (the ids alone), read the log as it is now, so a request another run processed is not processed again.
import type { Context, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/queue/ingest-worker';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { CARRIED_LOG_MAX_BYTES, ingestMessageOf, parseIngestMessage } from '../../lib/integrations/ingest/ingest-queue';
import { itemKeyOf, dynamoCallsDuring, type AwsCall } from '../support/aws-calls';
import { drainQueue } from '../support/queues';
import { useService, type TestService } from '../support/runtime';
import { alertsWithThirdpartyId, createIntegration, postRaw, storePendingLog } from '../integrations/support';

let service: TestService;
let integration: { id: string; prefix_id: string; account_id: string };

useService(
  async (started) => {
    service = started;
    integration = (await createIntegration(service.admin, { urgency: 'high' })) as typeof integration;
  },
  { pollerConcurrency: 0 },
);

const uid = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;

const stored = (body: unknown) => storePendingLog(integration, body, { dueAt: Date.now() + 3_600_000 });

/** Reads of one log (a GetItem of its key, or a BatchGetItem asking for it). */
const readsOf = (calls: AwsCall[], log: { id: string }) =>
  calls.filter((call) =>
    call.operation === 'GetItem'
      ? itemKeyOf(call)?.sk === log.id
      : call.operation === 'BatchGetItem' && JSON.stringify(call.input.RequestItems).includes(`"${log.id}"`),
  ).length;

const record = (body: string, receiveCount: number): SQSRecord => ({
  messageId: uid('m'),
  receiptHandle: 'r',
  body,
  attributes: {
    ApproximateReceiveCount: String(receiveCount),
    SentTimestamp: '0',
    SenderId: 'test',
    ApproximateFirstReceiveTimestamp: '0',
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:ingest',
  awsRegion: 'us-east-1',
});
const context = { functionName: 'ingestWorker', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

describe('the log an ingest message carries', () => {
  it('is the log as stored, small ones only, and only its own pending log is taken from a message', async () => {
    const log = await stored({ id: uid('as-stored'), title: 'As stored' });
    // What the worker would read is what the message carries.
    expect(await getIncomingLog(log.account_id, log.id)).toEqual(log);
    const message = ingestMessageOf(log);
    expect(message.log).toEqual(log);
    expect(parseIngestMessage(JSON.stringify(message))).toEqual(message);

    const large = await stored({ id: uid('large'), title: 'Large', details: 'x'.repeat(CARRIED_LOG_MAX_BYTES) });
    expect(ingestMessageOf(large)).toEqual({ account_id: large.account_id, log_id: large.id });
    // Bytes, not characters: 3 000 characters of 3 bytes each are over the bound.
    const wide = await stored({ id: uid('wide'), title: 'Wide', details: '\u20ac'.repeat(3_000) });
    expect(ingestMessageOf(wide).log).toBeUndefined();

    const ids = { account_id: log.account_id, log_id: log.id };
    for (const foreign of [
      { ...log, id: large.id },
      { ...log, account_id: 'another' },
      { ...log, status: 'processed' },
      { ...log, data: { ...log.data, body: 7 } },
      { ...log, version: '1' },
      'a string',
      null,
    ]) {
      expect(parseIngestMessage(JSON.stringify({ ...ids, log: foreign }))).toEqual(ids);
    }
  });

  it("a webhook's first delivery reads no log, and its alert is made", async () => {
    const thirdpartyId = uid('first');
    const res = await postRaw(
      service.url,
      `/integration/${integration.prefix_id}`,
      JSON.stringify({ id: thirdpartyId, title: 'First delivery' }),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.status).toBe(202);
    const { result, calls } = await dynamoCallsDuring(() => drainQueue(service, 'ingest'));
    expect(result).toEqual({ handled: 1, failed: [] });
    expect(await alertsWithThirdpartyId(service.admin, thirdpartyId)).toHaveLength(1);
    // No read of any log (the partition A#<account>#LOG): the one it processed came with its message.
    const logReads = calls.filter(
      (call) => (call.operation === 'GetItem' || call.operation === 'BatchGetItem') && JSON.stringify(call.input).includes('#LOG"'),
    );
    expect(logReads).toEqual([]);
  });

  it('a redelivery reads the log as it is now: a request processed meanwhile is not processed again', async () => {
    const thirdpartyId = uid('again');
    const log: IncomingLog = await stored({ id: thirdpartyId, title: 'Processed once' });
    const body = JSON.stringify(ingestMessageOf(log));
    expect(JSON.parse(body).log).toBeDefined();
    const first = await dynamoCallsDuring(() => handler({ Records: [record(body, 1)] }, context));
    expect(first.result.batchItemFailures).toEqual([]);
    expect(readsOf(first.calls, log)).toBe(0);
    const after = await getIncomingLog(log.account_id, log.id);
    expect(after?.status).toBe('processed');

    // The same message again (its delete was lost, say): it carries the log as pending, but this is
    // not its first delivery, so the stored log is read and the request is skipped.
    const again = await dynamoCallsDuring(() => handler({ Records: [record(body, 2)] }, context));
    expect(again.result.batchItemFailures).toEqual([]);
    expect(readsOf(again.calls, log)).toBeGreaterThan(0);
    expect(await getIncomingLog(log.account_id, log.id)).toEqual(after);
    expect(await alertsWithThirdpartyId(service.admin, thirdpartyId)).toHaveLength(1);
  });
});
