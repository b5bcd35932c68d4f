// The webhook pipeline end to end: POST /integration/:id → log → ingest queue → worker → alert.
// @moto: exactly-once through conditional writes on the dedup item, and batch sends.
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '../../lib/store/commands';
import { afterAll, describe, expect, it } from 'vitest';
import { newId, prefixId } from '../../lib/ids';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { alertIdFor, RetryLater } from '../../lib/integrations/ingest/apply-actions';
import { dedupKey, startGeneration } from '../../lib/alerts/dedup-store';
import { processIncomingLog } from '../../lib/integrations/ingest/process-incoming-log';
import { db, tableName } from '../../lib/store/client';
import { typeOf } from '../../lib/entities';
import { entityKey } from '../../lib/store/items';
import { itemKeyOf, type AwsCall } from '../support/aws-calls';
import { holdAwsCalls } from '../support/aws-gates';
import { testClock } from '../support/dependencies';
import { passTime, settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { createIntegration, eventually, postRaw, settledAlerts, alertsWithThirdpartyId, storePendingLog } from '../integrations/support';

let service: TestService;
let sqs: SQSClient;
let integration: { id: string; prefix_id: string; account_id: string };

useService(async (started) => {
  service = started;
  sqs = new SQSClient({
    endpoint: service.runtime.emulators.sqsEndpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    useQueueUrlAsEndpoint: false,
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY! },
  });
  integration = (await createIntegration(service.admin, { urgency: 'medium' })) as typeof integration;
});
afterAll(async () => {
  sqs?.destroy();
});

const uid = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
const post = (target: { prefix_id: string }, body: unknown, headers: Record<string, string> = {}) =>
  service.anonymous.post(`/integration/${target.prefix_id}`, body, headers);

function ulidOf(logPrefixId: string): string {
  return logPrefixId.replace(/^log_/, '');
}

async function logOf(logPrefixId: string, account = integration.account_id): Promise<IncomingLog> {
  const log = await getIncomingLog(account, ulidOf(logPrefixId));
  if (!log) throw new Error(`no log ${logPrefixId}`);
  return log;
}

async function settledLog(logPrefixId: string, account = integration.account_id): Promise<IncomingLog> {
  return eventually(
    async () => {
      const log = await logOf(logPrefixId, account);
      return log.status === 'pending' ? undefined : log;
    },
    15_000,
    `log ${logPrefixId} to be processed`,
  );
}

/** A stored request that was never queued (as if the queue send had failed). */
function pendingLog(body: unknown, options: { dueAt?: number } = {}): Promise<IncomingLog> {
  return storePendingLog(integration, body, { receivedAt: testClock.now(), ...options });
}

async function sendToQueue(logIds: string[]): Promise<void> {
  await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: service.runtime.queues.ingest.url,
      Entries: logIds.map((logId, i) => ({
        Id: String(i),
        MessageBody: JSON.stringify({ account_id: integration.account_id, log_id: logId }),
      })),
    }),
  );
}

describe('accepting webhooks', () => {
  it('stores the request, answers 202 with its log id, and the worker makes the alert', async () => {
    const id = uid('disk');
    const res = await post(integration, { event_type: 'create', id, title: 'Disk full on db-1', urgency: 'critical', tags: ['db'] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ log_id: expect.stringMatching(/^log_[0-9A-Z]{26}$/) });

    const [alert] = await settledAlerts(service.admin, id);
    expect(alert).toMatchObject({
      title: 'Disk full on db-1',
      urgency: 'critical',
      status: 'open',
      thirdparty_id: id,
      dedup_count: 1,
      source_type: 'Integration',
      source_id: integration.id,
      source_log_id: ulidOf(res.body.log_id),
    });
    const log = await settledLog(res.body.log_id);
    expect(log).toMatchObject({
      subtype: 'INCOMING',
      status: 'processed',
      owner_id: integration.prefix_id,
      source_id: integration.prefix_id,
    });
    expect(log.data.result?.alert_ids).toEqual([alert.id]);
    expect(JSON.parse(log.data.body)).toMatchObject({ id, title: 'Disk full on db-1' });
    // The stored request is an ordinary log object of the account.
    const shown = await service.admin.get(`/log/${res.body.log_id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: res.body.log_id, subtype: 'INCOMING', status: 'processed', owner_id: integration.prefix_id });
    expect(JSON.parse(shown.body.data.body).title).toBe('Disk full on db-1');
  });

  it('accepts JSON, form and plain-text bodies, storing each exactly as received', async () => {
    const bodies: Array<[string, Record<string, string>]> = [
      ['{"title":"json body","id":"b-json"}', { 'content-type': 'application/json' }],
      ['title=form+body&id=b-form&tags[]=x', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['plain text alarm: CPU at 99%', { 'content-type': 'text/plain' }],
    ];
    for (const [body, headers] of bodies) {
      const res = await postRaw(service.url, `/integration/${integration.id}`, body, headers);
      expect(res.status).toBe(202);
      const log = await logOf(res.body.log_id);
      expect(log.data.body).toBe(body);
      expect(log.data.headers['content-type']).toBe(headers['content-type']);
    }
    const [form] = await settledAlerts(service.admin, 'b-form');
    expect(form.title).toBe('form body');
  });

  it('keeps secrets out of the stored headers', async () => {
    const secured = await createIntegration(service.admin, { option_token: 'tok-123' });
    const res = await post(secured, { title: 'secret' }, { 'pagertree-token': 'tok-123' });
    expect(res.status).toBe(202);
    const log = await logOf(res.body.log_id);
    expect(log.data.headers['pagertree-token']).toBe('[redacted]');
    expect(JSON.stringify(log)).not.toContain('tok-123');
  });

  it('marks a body the adapter cannot read failed, with the reason', async () => {
    const prometheus = await createIntegration(service.admin, { type: 'prometheus' });
    const res = await postRaw(service.url, `/integration/${prometheus.prefix_id}`, '{"broken": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(202);
    const log = await settledLog(res.body.log_id);
    expect(log.status).toBe('failed');
    expect(log.reason).toMatch(/invalid JSON/);
  });
});

describe('refusing webhooks', () => {
  it('404 for an unknown integration or an id of another kind', async () => {
    for (const id of [newId(), `int_${newId()}`, `tem_${integration.id}`, 'nonsense']) {
      const res = await service.anonymous.post(`/integration/${id}`, { title: 'x' });
      expect(res.status, id).toBe(404);
      expect(res.body.errors[0].message).toEqual(expect.any(String));
    }
  });

  it('405 for a disabled integration', async () => {
    const disabled = await createIntegration(service.admin, { enabled: false });
    expect((await post(disabled, { title: 'x' })).status).toBe(405);
    await service.admin.put(`/api/v4/integrations/${disabled.id}`, { enabled: true });
    expect((await post(disabled, { title: 'x' })).status).toBe(202);
  });

  it('403 when option_token is set and the pagertree-token header is missing or wrong', async () => {
    const secured = await createIntegration(service.admin, { option_token: 'right' });
    expect((await post(secured, { title: 'x' })).status).toBe(403);
    expect((await post(secured, { title: 'x' }, { 'pagertree-token': 'wrong' })).status).toBe(403);
    expect((await post(secured, { title: 'x' }, { 'pagertree-token': 'right' })).status).toBe(202);
  });

  it('413 for a body over 256 KiB, 202 at exactly 256 KiB', async () => {
    const over = 'x'.repeat(256 * 1024 + 1);
    const res = await postRaw(service.url, `/integration/${integration.prefix_id}`, over, { 'content-type': 'text/plain' });
    expect(res.status).toBe(413);
    const exact = await postRaw(service.url, `/integration/${integration.prefix_id}`, 'x'.repeat(256 * 1024), {
      'content-type': 'text/plain',
    });
    expect(exact.status).toBe(202);
  });

  it('429 with Retry-After once the per-integration limit is used up', async () => {
    const limited = await createIntegration(service.admin, { option_rate_limit_per_minute: 2 });
    // Five requests: whatever minute boundary falls between them, one minute sees three.
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await post(limited, { title: `burst ${i}` });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(4);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another integration has its own allowance.
    expect((await post(integration, { title: 'unaffected' })).status).toBe(202);
  });
});

describe('alert actions', () => {
  it('deduplicates a create with the same id while the alert is open: dedup_count + 1 per request', { tags: ['moto'] }, async () => {
    const id = uid('dup');
    await post(integration, { id, title: 'First' });
    const [first] = await settledAlerts(service.admin, id);
    const second = await post(integration, { id, title: 'Again' });
    await settledLog(second.body.log_id);
    const third = await post(integration, { id, title: 'And again' });
    await settledLog(third.body.log_id);
    const alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: first.id, title: 'First', dedup_count: 3 });
  });

  it('acknowledges and resolves the alert by id; a create after the resolve makes a new alert', async () => {
    const id = uid('ack');
    await post(integration, { id, title: 'Ack me' });
    const [alert] = await settledAlerts(service.admin, id);
    const ack = await post(integration, { event_type: 'acknowledge', id });
    expect((await settledLog(ack.body.log_id)).status).toBe('processed');
    expect((await alertsWithThirdpartyId(service.admin, id))[0]).toMatchObject({ status: 'acknowledged' });
    // A repeat is a no-op, not a failure.
    expect((await settledLog((await post(integration, { event_type: 'acknowledge', id })).body.log_id)).status).toBe('processed');

    const resolve = await post(integration, { event_type: 'resolve', id });
    await settledLog(resolve.body.log_id);
    expect((await alertsWithThirdpartyId(service.admin, id))[0]).toMatchObject({ id: alert.id, status: 'resolved' });

    await post(integration, { id, title: 'It is back' });
    const both = await settledAlerts(service.admin, id, 2);
    expect(both.map((a) => [a.title, a.status, a.dedup_count])).toEqual([
      ['Ack me', 'resolved', 1],
      ['It is back', 'open', 1],
    ]);
  });

  it('after a person deletes the alert, the sender’s next create makes a new alert at once', async () => {
    const id = uid('deleted');
    await post(integration, { id, title: 'Delete me' });
    const [first] = await settledAlerts(service.admin, id);
    expect((await service.admin.delete(`/api/v4/alerts/${first.id}`)).status).toBe(204);
    const again = await post(integration, { id, title: 'Back after delete' });
    expect((await settledLog(again.body.log_id)).status).toBe('processed');
    const [second] = await settledAlerts(service.admin, id);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ title: 'Back after delete', status: 'open', dedup_count: 1 });
  });

  it('resolves straight from open', async () => {
    const id = uid('res');
    await post(integration, { id, title: 'Resolve me' });
    await settledAlerts(service.admin, id);
    await settledLog((await post(integration, { event_type: 'resolve', id })).body.log_id);
    expect((await alertsWithThirdpartyId(service.admin, id))[0].status).toBe('resolved');
  });

  it('records an acknowledge for an unknown id as done, with nothing changed', async () => {
    const log = await settledLog((await post(integration, { event_type: 'resolve', id: uid('ghost') })).body.log_id);
    expect(log.status).toBe('processed');
    expect(log.data.result?.actions?.[0]).toMatchObject({ action: 'resolve', outcome: 'no_alert' });
  });
});

/**
 * Processes every log (each several times at once) as the queue would: a duplicate that raced its
 * alert's creation asks to be processed again later (RetryLater), which the queue does after the
 * visibility timeout. Here "later" is once every process of the round has ended, the creating one
 * included, so no retry depends on how fast the machine is.
 */
async function processLikeTheQueue(deliveries: { account_id: string; id: string }[]): Promise<void> {
  let pending = deliveries;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= 3) throw new Error(`${pending.length} deliveries still asked to be retried after ${round} rounds`);
    const outcomes = await Promise.allSettled(pending.map((log) => processIncomingLog(log.account_id, log.id)));
    const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    const other = failed.find((error) => !(error instanceof RetryLater));
    if (other) throw other instanceof Error ? other : new Error(JSON.stringify(other));
    pending = pending.filter((_, index) => outcomes[index].status === 'rejected');
  }
}

describe('a resolve that overtakes its create', () => {
  // Queues do not keep order: the sender's create and its resolve may be processed the other way
  // round, or side by side in one batch. Either way the sender's last word (resolved) wins.
  const outcomeOf = async (log: IncomingLog) => (await getIncomingLog(log.account_id, log.id))?.data.result?.actions?.[0]?.outcome;

  it('processed first: the create made before it opens nothing, a create made after it opens an alert', { tags: ['moto'] }, async () => {
    const id = uid('overtaken');
    const create = await pendingLog({ id, title: 'Flapped' }, { dueAt: Date.now() + 3_600_000 });
    const resolve = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(resolve.account_id, resolve.id)).toBe('processed');
    expect(await outcomeOf(resolve)).toBe('no_alert');
    expect(await processIncomingLog(create.account_id, create.id)).toBe('processed');
    expect(await outcomeOf(create)).toBe('resolved_before');
    expect(await alertsWithThirdpartyId(service.admin, id)).toEqual([]);
    // Processed again (a redelivery), it still opens nothing.
    expect(await processIncomingLog(create.account_id, create.id)).toBe('skipped');
    expect(await alertsWithThirdpartyId(service.admin, id)).toEqual([]);

    // The sender fires again afterwards: that is a new alert, and its resolve resolves it.
    const again = await pendingLog({ id, title: 'Flapped again' }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(again.account_id, again.id)).toBe('processed');
    expect(await outcomeOf(again)).toBe('created');
    const [alert] = await alertsWithThirdpartyId(service.admin, id);
    expect(alert).toMatchObject({ title: 'Flapped again', status: 'open' });
    const last = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(last.account_id, last.id)).toBe('processed');
    expect((await alertsWithThirdpartyId(service.admin, id)).map((a) => a.status)).toEqual(['resolved']);
  });

  it('side by side (one batch): no alert is left open, however the two interleave', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => uid(`side-${i}`));
    const pairs = [];
    for (const id of ids) {
      const create = await pendingLog({ id, title: 'Side by side' }, { dueAt: Date.now() + 3_600_000 });
      const resolve = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
      pairs.push([create, resolve]);
    }
    // Both at once, half of them with the resolve started first; a batch's prefetch would have read no dedup item for either.
    await processLikeTheQueue(pairs.flatMap(([create, resolve], i) => (i % 2 ? [resolve, create] : [create, resolve])));
    for (const id of ids) {
      const alerts = await alertsWithThirdpartyId(service.admin, id);
      expect(
        alerts.filter((a) => a.status !== 'resolved'),
        id,
      ).toEqual([]);
    }
  });

  it('a create made before the resolve that ended its alert, processed after it, counts onto that alert and opens nothing', async () => {
    const id = uid('late-dup');
    const first = await pendingLog({ id, title: 'Disk full' }, { dueAt: Date.now() + 3_600_000 });
    const repeat = await pendingLog({ id, title: 'Disk full' }, { dueAt: Date.now() + 3_600_000 });
    const resolve = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(first.account_id, first.id)).toBe('processed');
    expect(await processIncomingLog(resolve.account_id, resolve.id)).toBe('processed');
    expect(await outcomeOf(resolve)).toBe('resolved');
    expect(await processIncomingLog(repeat.account_id, repeat.id)).toBe('processed');
    expect(await outcomeOf(repeat)).toBe('deduplicated');
    const alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts.map((a) => [a.status, a.dedup_count])).toEqual([['resolved', 2]]);

    // A create made after the resolve is the next alert, as ever.
    const again = await pendingLog({ id, title: 'Disk full again' }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(again.account_id, again.id)).toBe('processed');
    expect(await outcomeOf(again)).toBe('created');
    expect((await alertsWithThirdpartyId(service.admin, id)).map((a) => a.status).sort()).toEqual(['open', 'resolved']);
  });

  it('a resolve overtaken by the create made after it is outdated: the alert stays open (the sender fired again)', async () => {
    const id = uid('refired');
    const first = await pendingLog({ id, title: 'Flapping' }, { dueAt: Date.now() + 3_600_000 });
    const resolve = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
    const refire = await pendingLog({ id, title: 'Flapping' }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(first.account_id, first.id)).toBe('processed');
    expect(await processIncomingLog(refire.account_id, refire.id)).toBe('processed');
    expect(await processIncomingLog(resolve.account_id, resolve.id)).toBe('processed');
    expect(await outcomeOf(resolve)).toBe('superseded');
    const [alert, ...others] = await alertsWithThirdpartyId(service.admin, id);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ status: 'open', dedup_count: 2 });
    // Redelivered, the outdated resolve is still outdated; the sender's next resolve resolves it.
    await processIncomingLog(resolve.account_id, resolve.id);
    expect((await alertsWithThirdpartyId(service.admin, id)).map((a) => a.status)).toEqual(['open']);
    const last = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(last.account_id, last.id)).toBe('processed');
    expect((await alertsWithThirdpartyId(service.admin, id)).map((a) => a.status)).toEqual(['resolved']);
    // And a create after that opens the next one.
    const next = await pendingLog({ id, title: 'Flapping' }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(next.account_id, next.id)).toBe('processed');
    expect(await outcomeOf(next)).toBe('created');
  });

  it('a flapping sender (fire, clear, fire) processed side by side ends with an alert open, however the three interleave', async () => {
    const runs = [];
    for (let i = 0; i < 6; i++) {
      const id = uid(`flap-${i}`);
      const fire = await pendingLog({ id, title: 'Flap' }, { dueAt: Date.now() + 3_600_000 });
      expect(await processIncomingLog(fire.account_id, fire.id)).toBe('processed');
      const clear = await pendingLog({ event_type: 'resolve', id }, { dueAt: Date.now() + 3_600_000 });
      const refire = await pendingLog({ id, title: 'Flap' }, { dueAt: Date.now() + 3_600_000 });
      runs.push({ id, clear, refire });
    }
    // The clear and the fire after it in one batch, half of them with the fire started first.
    await processLikeTheQueue(runs.flatMap(({ clear, refire }, i) => (i % 2 ? [refire, clear] : [clear, refire])));
    for (const { id } of runs) {
      const alerts = await alertsWithThirdpartyId(service.admin, id);
      expect(
        alerts.filter((a) => a.status === 'open'),
        id,
      ).toHaveLength(1);
      expect(
        alerts.reduce((sum, a) => sum + a.dedup_count, 0),
        id,
      ).toBe(2);
    }
  });

  it('an acknowledge that finds no alert is not remembered: a create made before it still opens', async () => {
    const id = uid('ack-first');
    const create = await pendingLog({ id, title: 'Acknowledged early' }, { dueAt: Date.now() + 3_600_000 });
    const ack = await pendingLog({ event_type: 'acknowledge', id }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(ack.account_id, ack.id)).toBe('processed');
    expect(await outcomeOf(ack)).toBe('no_alert');
    expect(await processIncomingLog(create.account_id, create.id)).toBe('processed');
    expect((await alertsWithThirdpartyId(service.admin, id)).map((a) => a.status)).toEqual(['open']);
  });
});

describe('exactly once', () => {
  it('a log delivered twice by the queue makes one alert with dedup_count 1', { tags: ['moto'] }, async () => {
    const id = uid('redeliver');
    const log = await pendingLog({ id, title: 'Redelivered' }, { dueAt: Date.now() + 3_600_000 });
    await sendToQueue([log.id, log.id]);
    await settledLog(prefixId('log', log.id));
    await settle(service);
    const alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].dedup_count).toBe(1);
    // A later redelivery of the processed log changes nothing either.
    await sendToQueue([log.id]);
    await settle(service);
    expect((await alertsWithThirdpartyId(service.admin, id))[0].dedup_count).toBe(1);
  });

  it('two logs with the same payload racing in two workers make one alert with dedup_count 2', { tags: ['moto'] }, async () => {
    const id = uid('race');
    const a = await pendingLog({ id, title: 'Race' }, { dueAt: Date.now() + 3_600_000 });
    const b = await pendingLog({ id, title: 'Race' }, { dueAt: Date.now() + 3_600_000 });
    await sendToQueue([a.id, b.id]);
    await Promise.all([settledLog(prefixId('log', a.id)), settledLog(prefixId('log', b.id))]);
    await settle(service);
    const alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].dedup_count).toBe(2);
  });

  // moto applies concurrent conditional writes to one item without isolation (two ADDs conditioned
  // on the same token can both pass), so this race is only meaningful on DynamoDB and dynalite.
  it.skipIf(Boolean(process.env.AWS_ENDPOINT_URL))(
    'twelve requests for one id, each processed three times at once, make one alert with dedup_count 12',
    async () => {
      const id = uid('storm');
      const logs = await Promise.all(
        Array.from({ length: 12 }, () => pendingLog({ id, title: 'Storm' }, { dueAt: Date.now() + 3_600_000 })),
      );
      await processLikeTheQueue(logs.flatMap((log) => [log, log, log]));
      const alerts = await alertsWithThirdpartyId(service.admin, id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0].dedup_count).toBe(12);
    },
  );

  it('a duplicate whose raise finds the alert missing, and which then sees it stored, still raises it', { tags: ['moto'] }, async () => {
    // The two orders the race above may take, made to happen: the duplicate counts itself while the
    // first request's alert is being stored (that write held), tries to raise the alert (not there
    // yet), and only then sees it, stored meanwhile at the count of one.
    const id = uid('late');
    const first = await pendingLog({ id, title: 'Late' }, { dueAt: Date.now() + 3_600_000 });
    const duplicate = await pendingLog({ id, title: 'Late' }, { dueAt: Date.now() + 3_600_000 });
    const alertId = alertIdFor(first.id, first.id, id, integration.id);
    const alertKey = (call: AwsCall) => {
      const key = itemKeyOf(call);
      return key !== null && key.sk === alertId && key.pk.endsWith('#ALERT');
    };
    const insert = holdAwsCalls((call) => call.operation === 'PutItem' && alertKey(call), 1);
    let raiseTried = false;
    const look = holdAwsCalls((call) => {
      if (call.operation === 'UpdateItem' && alertKey(call)) raiseTried = true;
      return raiseTried && call.operation === 'GetItem' && alertKey(call);
    }, 1);
    try {
      const creating = processIncomingLog(first.account_id, first.id);
      const stored = await insert.next();
      const counting = processIncomingLog(duplicate.account_id, duplicate.id);
      const looking = await look.next();
      await stored.release();
      expect(await creating).toBe('processed');
      await looking.release();
      expect(await counting).toBe('processed');
    } finally {
      insert.open();
      look.open();
    }
    const alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: alertId, dedup_count: 2 });
  });

  it('a crash between the dedup write and the alert write is repaired when the log is processed again', { tags: ['moto'] }, async () => {
    const id = uid('crash');
    const log = await pendingLog({ id, title: 'Crashed' }, { dueAt: Date.now() + 3_600_000 });
    // What the first attempt committed before dying: the dedup item names the alert-to-be.
    const alertId = alertIdFor(log.id, log.id, id, integration.id);
    const key = dedupKey(integration.account_id, integration.id, id);
    expect(await startGeneration(key, log.id, alertId, Date.now(), null, {})).toBe(true);
    // Meanwhile a retry of the sender arrives: it counts onto the alert that does not exist yet,
    // cannot raise it, and asks to be processed again later.
    const retry = await pendingLog({ id, title: 'Crashed (retry)' }, { dueAt: Date.now() + 3_600_000 });
    await expect(processIncomingLog(retry.account_id, retry.id)).rejects.toThrow(/still being created/);
    expect(await alertsWithThirdpartyId(service.admin, id)).toHaveLength(0);

    // The crashed request comes back: it stores the alert, already raised to the count so far.
    expect(await processIncomingLog(log.account_id, log.id)).toBe('processed');
    let alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: alertId, title: 'Crashed', dedup_count: 2 });
    // And the retry's second attempt finds its count applied.
    expect(await processIncomingLog(retry.account_id, retry.id)).toBe('processed');
    alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].dedup_count).toBe(2);
  });

  it('processing a log again after a crash before its outcome was recorded changes nothing', { tags: ['moto'] }, async () => {
    const id = uid('again');
    const log = await pendingLog({ id, title: 'Twice' }, { dueAt: Date.now() + 3_600_000 });
    expect(await processIncomingLog(log.account_id, log.id)).toBe('processed');
    // The log as a crashed attempt leaves it: every action applied, the outcome not yet written.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(log.account_id, typeOf('log'), log.id),
        UpdateExpression: 'SET #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      }),
    );
    expect(await processIncomingLog(log.account_id, log.id)).toBe('processed');
    expect(await processIncomingLog(log.account_id, log.id)).toBe('skipped');
    const alerts = await alertsWithThirdpartyId(service.admin, id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].dedup_count).toBe(1);
  });
});

describe('never losing an accepted request', () => {
  it('the sweeper re-sends a pending log whose queue send failed', { tags: ['moto'] }, async () => {
    const id = uid('swept');
    const log = await pendingLog({ id, title: 'Never queued' }, { dueAt: Date.now() - 1000 });
    await service.runtime.runScheduled('sweeper');
    const [alert] = await settledAlerts(service.admin, id);
    expect(alert.title).toBe('Never queued');
    const stored = await settledLog(prefixId('log', log.id));
    expect(stored.status).toBe('processed');
    expect((stored as unknown as { resends: number }).resends).toBe(1);
  });

  it('the sweeper leaves logs alone during their grace period (30 s), and re-sends them after it', async () => {
    const id = uid('young');
    // The service's time stands still but for the test's moves: the grace is counted exactly.
    testClock.freeze();
    const log = await pendingLog({ id, title: 'Young' });
    await passTime(service, 29_000);
    expect((await logOf(prefixId('log', log.id))).status).toBe('pending');
    expect(await alertsWithThirdpartyId(service.admin, id)).toHaveLength(0);
    await passTime(service, 1_000);
    expect((await logOf(prefixId('log', log.id))).status).toBe('processed');
    expect(await alertsWithThirdpartyId(service.admin, id)).toHaveLength(1);
  });
});

describe('sender specifics', () => {
  it('records the SubscribeURL of a verified SNS subscription confirmation and confirms it', async () => {
    const cloudwatch = await createIntegration(service.admin, { type: 'aws_cloudwatch' });
    const { senderFixture } = await import('../integrations/support');
    const { signSns, startSnsStub } = await import('../integrations/sns-support');
    const sns = await startSnsStub();
    try {
      const confirmation = signSns(
        JSON.parse(senderFixture('aws-cloudwatch/sns-subscription-confirmation.json')) as Record<string, unknown>,
      );
      const res = await postRaw(service.url, `/integration/${cloudwatch.prefix_id}`, JSON.stringify(confirmation), {
        'content-type': 'text/plain; charset=UTF-8',
        'x-amz-sns-message-type': 'SubscriptionConfirmation',
      });
      expect(res.status).toBe(202);
      const log = await settledLog(res.body.log_id);
      expect(log.status).toBe('ignored');
      expect(log.reason).toBe('sns_subscription_confirmation');
      expect(log.data.result?.subscribe_url).toMatch(/^https:\/\/sns\..*Action=ConfirmSubscription/);
      expect(log.data.result?.subscription_confirmed).toBe(true);
    } finally {
      await sns.close();
    }
  });

  it('reads UptimeRobot variables sent as a query string with an empty body', async () => {
    const uptime = await createIntegration(service.admin, { type: 'uptime_robot' });
    const monitor = uid('m');
    const query = new URLSearchParams({ monitorID: monitor, monitorFriendlyName: 'Shop', alertType: '1', alertDetails: 'Timeout' });
    const res = await service.anonymous.post(`/integration/${uptime.prefix_id}?${query.toString()}`);
    expect(res.status).toBe(202);
    const [alert] = await settledAlerts(service.admin, monitor);
    expect(alert.title).toBe('Shop is DOWN');
  });
});
