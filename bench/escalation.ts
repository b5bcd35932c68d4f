// Benchmark of escalation and notification delivery on the local runtime (one process: API,
// emulators, workers, the outbox provider logging only):
//   1. time to page: webhook accepted (202) → first notification recorded, over 1 000 alerts to a
//      team, posted at a steady rate; p50/p99. Target p99 ≤ 1 s.
//   2. timer accuracy: 1 000 escalations in flight, each waiting out layer 1's timeout; how late
//      layer 2 is paged (its page's time − layer 1's page time − the timeout); p50/p99. Target
//      p99 ≤ 1 s late.
//   3. storm: 2 000 alerts to one team in 10 s: pages recorded per second, SMS sent vs bundled.
//   4. cost of one alert's life (create → page 2 layers → acknowledge → resolve): DynamoDB request
//      units, queue messages and function invocations, and what 10 000 such alerts cost a month.
import { randomBytes } from 'node:crypto';
import { startRuntime, type Runtime } from '../infra/local/runtime';
import type { OutgoingMessage } from '../lib/notify/providers/provider';
import { partitionOf, queryAll } from '../lib/store/items';
import { db } from '../lib/store/client';
import { sqs } from '../lib/queues/client';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { KeepAliveClient, percentile, pool, round, runWhenMain } from './support';

type Figures = Record<string, number | string>;

interface Service {
  runtime: Runtime;
  client: KeepAliveClient;
  accountId: string;
  me: string;
  stop(): Promise<void>;
}

/** What OUTBOX=memory kept for the service running now (each service starts with an empty one). */
let outbox: OutgoingMessage[] = [];

async function startService(timeScale: number, pollerConcurrency?: number): Promise<Service> {
  const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
  outbox = [];
  const runtime = await startRuntime({
    dependencies: { memoryOutbox: outbox },
    port: 0,
    dataDir: ':memory:',
    tableName: `oncall-bench-${randomBytes(4).toString('hex')}`,
    pollerConcurrency,
    scheduleIntervalMs: 3_600_000,
    env: { OUTBOX: 'memory', LOG_LEVEL: 'error', TIME_SCALE: String(timeScale) },
    bootstrap: { email: 'bench@example.com', password: 'bench password 123', apiKey },
  });
  const client = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
  const users = JSON.parse((await client.request('GET', '/api/v4/account_users')).body) as { data: { id: string; account_id: string }[] };
  return {
    runtime,
    client,
    accountId: users.data[0].account_id,
    me: users.data[0].id,
    async stop() {
      client.close();
      await runtime.stop();
    },
  };
}

async function json<T = Record<string, string>>(client: KeepAliveClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.request(method, path, body === undefined ? undefined : JSON.stringify(body));
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return (res.body ? JSON.parse(res.body) : undefined) as T;
}

async function person(service: Service, name: string, options: { sms?: boolean } = {}): Promise<string> {
  const created = await json(service.client, 'POST', '/api/v4/account_users', {
    user_attributes: {
      name,
      emails_attributes: [{ email: `${name.toLowerCase().replace(/\W/g, '')}-${randomBytes(3).toString('hex')}@example.com` }],
      ...(options.sms ? { notify_sms: true, phones_attributes: [{ phone: '+14155550123' }] } : {}),
    },
  });
  return created.id;
}

/** A team with one person on call per layer, layers of `minutes` each. */
async function team(service: Service, layers: string[], minutes: number): Promise<string> {
  const created = await json(service.client, 'POST', '/api/v4/teams', {
    name: `Bench ${randomBytes(3).toString('hex')}`,
    member_account_user_ids: layers,
    admin_account_user_ids: [layers[0]],
  });
  await json(service.client, 'PUT', `/api/v4/escalation_policies/${created.escalation_policy_id}`, {
    escalation_layers: layers.map((_, i) => ({ layer: i + 1, timeout: minutes, timeout_unit: 'minutes' })),
  });
  for (const [i, id] of layers.entries()) {
    await json(service.client, 'POST', '/api/v4/events', {
      schedule_ids: [created.schedule_id],
      account_user_ids: [id],
      layer: i + 1,
      start_datetime: new Date(Date.now() - 3_600_000).toISOString(),
      end_datetime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      time_zone: 'UTC',
    });
  }
  return created.id;
}

async function integration(service: Service, teamId: string): Promise<string> {
  const created = await json(service.client, 'POST', '/api/v4/integrations', {
    name: 'bench',
    urgency: 'high',
    integration_type_id: 'webhook',
    team_ids: [teamId],
    option_rate_limit_per_minute: 10_000_000,
  });
  return created.prefix_id;
}

interface StoredNotification {
  alert_id: string | null;
  account_user_id: string | null;
  channel: string;
  created_at: string;
  status: string;
  provider_status?: string | null;
  group_id?: string | null;
}

async function allNotifications(accountId: string): Promise<StoredNotification[]> {
  const out: StoredNotification[] = [];
  for await (const item of queryAll(partitionOf(accountId, 'NTF'))) out.push(item as unknown as StoredNotification);
  return out;
}

async function alertsByThirdparty(accountId: string): Promise<Map<string, { id: string; createdAt: number; routedAt: number }>> {
  const map = new Map<string, { id: string; createdAt: number; routedAt: number }>();
  for await (const item of queryAll(partitionOf(accountId, 'ALERT'))) {
    if (typeof item.thirdparty_id === 'string') {
      map.set(item.thirdparty_id, {
        id: String(item.sk),
        createdAt: Date.parse(String(item.created_at)),
        routedAt: Date.parse(String(item.routed_at)),
      });
    }
  }
  return map;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, pollMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(pollMs);
  }
  return false;
}

// ── 1. time to page ─────────────────────────────────────────────────────────────────────────────

export async function timeToPage(count = 1_000, perSecond = 50): Promise<Figures> {
  const service = await startService(1);
  try {
    const onCall = await person(service, 'First');
    const teamId = await team(service, [onCall], 60);
    const inbound = await integration(service, teamId);
    const accepted = new Map<string, number>();
    const started = Date.now();
    await pool(count, 16, async (i) => {
      // A steady rate: the i-th webhook goes out at its slot.
      const slot = started + (i * 1000) / perSecond;
      if (slot > Date.now()) await sleep(slot - Date.now());
      const id = `ttp-${i}`;
      const res = await service.client.request(
        'POST',
        `/integration/${inbound}`,
        JSON.stringify({ event_type: 'create', id, title: `Page ${i}`, urgency: 'high' }),
      );
      if (res.status !== 202) throw new Error(`webhook ${res.status}`);
      accepted.set(id, Date.now());
    });
    let firstByAlert = new Map<string, number>();
    await until(async () => {
      firstByAlert = new Map();
      for (const n of await allNotifications(service.accountId)) {
        if (!n.alert_id) continue;
        const at = Date.parse(n.created_at);
        firstByAlert.set(n.alert_id, Math.min(firstByAlert.get(n.alert_id) ?? Infinity, at));
      }
      return firstByAlert.size >= count;
    }, 120_000);
    const alerts = await alertsByThirdparty(service.accountId);
    const latencies: number[] = [];
    const toAlert: number[] = [];
    const toRouted: number[] = [];
    for (const [thirdparty, acceptedAt] of accepted) {
      const alert = alerts.get(thirdparty);
      const paged = alert ? firstByAlert.get(alert.id) : undefined;
      if (paged === undefined || !alert) continue;
      latencies.push(paged - acceptedAt);
      toAlert.push(alert.createdAt - acceptedAt);
      toRouted.push(alert.routedAt - acceptedAt);
    }
    for (const list of [latencies, toAlert, toRouted]) list.sort((a, b) => a - b);
    return {
      'escalation.time_to_page.alerts': count,
      'escalation.time_to_page.posted_per_second': perSecond,
      'escalation.time_to_page.paged': latencies.length,
      'escalation.time_to_page.p50_ms': round(percentile(latencies, 50), 1),
      'escalation.time_to_page.p99_ms': round(percentile(latencies, 99), 1),
      'escalation.time_to_page.max_ms': round(latencies[latencies.length - 1] ?? NaN, 1),
      'escalation.time_to_page.alert_created_p50_ms': round(percentile(toAlert, 50), 1),
      'escalation.time_to_page.alert_routed_p50_ms': round(percentile(toRouted, 50), 1),
      'escalation.time_to_page.target_p99_ms': 1000,
    };
  } finally {
    await service.stop();
  }
}

// ── 2. timer accuracy ───────────────────────────────────────────────────────────────────────────

export async function timerAccuracy(count = 1_000, createSeconds = 20): Promise<Figures> {
  // TIME_SCALE 6: layer 1's 3-minute timeout lasts 30 s, so every escalation is in flight at once.
  const timeScale = 6;
  const minutes = 3;
  const timeoutMs = (minutes * 60_000) / timeScale;
  const service = await startService(timeScale);
  try {
    const [first, second] = [await person(service, 'Layer One'), await person(service, 'Layer Two')];
    const teamId = await team(service, [first, second], minutes);
    const started = Date.now();
    await pool(count, 8, async (i) => {
      const slot = started + (i * createSeconds * 1000) / count;
      if (slot > Date.now()) await sleep(slot - Date.now());
      await json(service.client, 'POST', '/api/v4/alerts', { title: `Timer ${i}`, urgency: 'high', destination_team_ids: [teamId] });
    });
    // When each layer was paged, from the timeline: an `escalated` entry carries its step's exact time.
    const pagedAt = new Map<string, { first?: number; second?: number }>();
    await until(
      async () => {
        pagedAt.clear();
        for await (const item of queryAll(partitionOf(service.accountId, 'LOG'))) {
          const data = item.data as { action?: string; layer?: number } | undefined;
          if (data?.action !== 'escalated') continue;
          const entry = pagedAt.get(String(item.owner_id)) ?? {};
          if (data.layer === 1) entry.first = Date.parse(String(item.created_at));
          if (data.layer === 2) entry.second = Date.parse(String(item.created_at));
          pagedAt.set(String(item.owner_id), entry);
        }
        return [...pagedAt.values()].filter((e) => e.second !== undefined).length >= count;
      },
      createSeconds * 1000 + timeoutMs + 120_000,
      1000,
    );
    const late = [...pagedAt.values()]
      .filter((e) => e.first !== undefined && e.second !== undefined)
      .map((e) => e.second! - e.first! - timeoutMs)
      .sort((a, b) => a - b);
    return {
      'escalation.timers.escalations': count,
      'escalation.timers.layer_timeout_ms': timeoutMs,
      'escalation.timers.fired': late.length,
      'escalation.timers.late_p50_ms': round(percentile(late, 50), 1),
      'escalation.timers.late_p99_ms': round(percentile(late, 99), 1),
      'escalation.timers.late_max_ms': round(late[late.length - 1] ?? NaN, 1),
      'escalation.timers.early_min_ms': round(late[0] ?? NaN, 1),
      'escalation.timers.target_p99_late_ms': 1000,
    };
  } finally {
    await service.stop();
  }
}

// ── 3. storm ────────────────────────────────────────────────────────────────────────────────────

export async function storm(count = 2_000, seconds = 10): Promise<Figures> {
  // TIME_SCALE 6: the one-minute SMS window lasts 10 s; the layer (60 minutes) outlasts the run.
  const service = await startService(6);
  try {
    const onCall = await person(service, 'Stormy', { sms: true });
    const teamId = await team(service, [onCall], 60);
    const inbound = await integration(service, teamId);
    const started = Date.now();
    await pool(count, 32, async (i) => {
      const slot = started + (i * seconds * 1000) / count;
      if (slot > Date.now()) await sleep(slot - Date.now());
      const res = await service.client.request(
        'POST',
        `/integration/${inbound}`,
        JSON.stringify({ event_type: 'create', id: `storm-${i}`, title: `Storm ${i}`, urgency: 'high' }),
      );
      if (res.status !== 202) throw new Error(`webhook ${res.status}`);
    });
    const postedSeconds = (Date.now() - started) / 1000;
    let pages: StoredNotification[] = [];
    await until(async () => {
      pages = (await allNotifications(service.accountId)).filter((n) => n.alert_id);
      return pages.filter((n) => n.channel === 'email').length >= count;
    }, 300_000);
    const recordedSeconds = (Date.now() - started) / 1000;
    // The waiting SMS go out as the windows open.
    await until(
      async () => {
        pages = (await allNotifications(service.accountId)).filter((n) => n.alert_id);
        const sms = pages.filter((n) => n.channel === 'sms');
        return sms.length >= count && sms.every((n) => n.status !== 'queued');
      },
      300_000,
      1000,
    );
    const sms = pages.filter((n) => n.channel === 'sms');
    return {
      'escalation.storm.alerts': count,
      'escalation.storm.posted_in_s': round(postedSeconds, 1),
      'escalation.storm.pages_recorded': pages.length,
      'escalation.storm.pages_recorded_per_second': round(pages.length / recordedSeconds, 1),
      'escalation.storm.all_recorded_after_s': round(recordedSeconds, 1),
      'escalation.storm.sms_sent': sms.filter((n) => n.status === 'sent' && n.provider_status !== 'bundled').length,
      'escalation.storm.sms_bundled': sms.filter((n) => n.provider_status === 'bundled').length,
      'escalation.storm.sms_other': sms.filter((n) => n.status !== 'sent').length,
      'escalation.storm.sms_window_s': 10,
    };
  } finally {
    await service.stop();
  }
}

// ── 4. the cost of one alert's life ─────────────────────────────────────────────────────────────

interface Meter {
  readUnits: number;
  writeUnits: number;
  indexWriteUnits: number;
  calls: Record<string, number>;
  messagesSent: number;
  sendRequests: number;
}

type Av = AttributeValue & Record<string, unknown>;

/** An attribute value's size as DynamoDB counts it: UTF-8 bytes of strings, ~21 bytes at most per number, … */
function valueSize(value: Av | undefined): number {
  if (!value || typeof value !== 'object') return 0;
  if ('S' in value) return Buffer.byteLength(value.S as string, 'utf8');
  if ('N' in value) return Math.ceil(String(value.N).replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('B' in value) return (value.B as Uint8Array).length ?? 0;
  if ('L' in value) return 3 + (value.L as Av[]).reduce((sum, v) => sum + 1 + valueSize(v), 0);
  if ('M' in value) return 3 + sizeOf(value.M as Record<string, Av>);
  if ('SS' in value) return (value.SS as string[]).reduce((sum, v) => sum + Buffer.byteLength(v, 'utf8'), 0);
  return 0;
}

/** Item size as DynamoDB counts it: attribute names plus values. */
function sizeOf(item: Record<string, Av> | undefined): number {
  return Object.entries(item ?? {}).reduce((sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + valueSize(value), 0);
}

type Key = Record<string, Av>;
interface Input {
  ReturnConsumedCapacity?: string;
  Item?: Key;
  Key?: Key;
  IndexName?: string;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  RequestItems?: Record<string, { PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } }[]>;
  Entries?: unknown[];
}
interface Output {
  ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
  Items?: Key[];
}
const GSIS = ['gsi1', 'gsi2', 'gsi3'];

/**
 * Counts DynamoDB request units and SQS sends of the process. Table units are what the emulator
 * reports (ReturnConsumedCapacity) or, for a Query, the returned items' size per 4 KB; index writes
 * are computed: every write of an item writes each index the item is (or was) in, with projection
 * ALL, 1 unit per KB, as on-demand DynamoDB bills them.
 */
function meter(): { meter: Meter; stop(): void } {
  const m: Meter = { readUnits: 0, writeUnits: 0, indexWriteUnits: 0, calls: {}, messagesSent: 0, sendRequests: 0 };
  const membership = new Map<string, Set<string>>();
  const keyOf = (key: Key | undefined) => `${key?.pk?.S}|${key?.sk?.S}`;
  const wcu = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
  const indexWrites = (key: string, after: Set<string>, units: number) => {
    const before = membership.get(key) ?? new Set<string>();
    const touched = new Set([...before, ...after]);
    m.indexWriteUnits += touched.size * units;
    membership.set(key, after);
  };
  const dynamo = db();
  const name = 'benchMeter';
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
      m.calls[command] = (m.calls[command] ?? 0) + 1;
      const input = args.input as Input;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = (result as { output?: Output }).output ?? {};
      const consumed = [output.ConsumedCapacity].flat().filter(Boolean) as { CapacityUnits?: number }[];
      const reported = consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      switch (command) {
        case 'GetItem':
        case 'BatchGetItem':
          m.readUnits += reported || 1;
          break;
        case 'Query': {
          const bytes = (output.Items ?? []).reduce((sum: number, item) => sum + sizeOf(item), 0);
          m.readUnits += Math.max(1, Math.ceil(bytes / 4096)) / (input.IndexName ? 2 : 1);
          break;
        }
        case 'PutItem': {
          const units = reported || wcu(sizeOf(input.Item));
          m.writeUnits += units;
          indexWrites(keyOf(input.Item), new Set(GSIS.filter((g) => input.Item?.[`${g}pk`] !== undefined)), units);
          break;
        }
        case 'UpdateItem': {
          const units = reported || 1;
          m.writeUnits += units;
          const key = keyOf(input.Key);
          const after = new Set(membership.get(key) ?? []);
          const expression = String(input.UpdateExpression ?? '');
          const names = input.ExpressionAttributeNames ?? {};
          const named = (token: string) => names[token] ?? token;
          const [setPart, removePart] = [
            /SET (.*?)(?: REMOVE | ADD |$)/.exec(expression)?.[1] ?? '',
            /REMOVE (.*?)(?: SET | ADD |$)/.exec(expression)?.[1] ?? '',
          ];
          for (const g of GSIS) {
            if (setPart.split(',').some((part) => named(part.split('=')[0].trim()) === `${g}pk`)) after.add(g);
            if (removePart.split(',').some((part) => named(part.trim()) === `${g}pk`)) after.delete(g);
          }
          indexWrites(key, after, units);
          break;
        }
        case 'DeleteItem': {
          const units = reported || 1;
          m.writeUnits += units;
          indexWrites(keyOf(input.Key), new Set(), units);
          break;
        }
        case 'BatchWriteItem': {
          for (const requests of Object.values(input.RequestItems ?? {})) {
            for (const request of requests) {
              if (request.PutRequest) {
                const item = request.PutRequest.Item;
                const units = wcu(sizeOf(item));
                m.writeUnits += units;
                indexWrites(keyOf(item), new Set(GSIS.filter((g) => item[`${g}pk`] !== undefined)), units);
              } else {
                m.writeUnits += 1;
                indexWrites(keyOf(request.DeleteRequest?.Key), new Set(), 1);
              }
            }
          }
          break;
        }
      }
      return result;
    },
    { step: 'initialize', name },
  );
  const queue = sqs();
  queue.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '');
      if (command === 'SendMessageBatchCommand') {
        m.sendRequests += 1;
        m.messagesSent += (args.input as Input).Entries?.length ?? 0;
      } else if (command === 'SendMessageCommand') {
        m.sendRequests += 1;
        m.messagesSent += 1;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    meter: m,
    stop() {
      dynamo.middlewareStack.remove(name);
      queue.middlewareStack.remove(name);
    },
  };
}

/** On-demand prices, us-east-1 (as of 2025): DynamoDB, SQS standard, Lambda arm64. */
const PRICES = {
  writeRequestUnit: 0.625 / 1e6,
  readRequestUnit: 0.125 / 1e6,
  sqsRequest: 0.4 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecondArm: 0.0000133334,
  sesEmail: 0.1 / 1000,
};
/** Assumed per invocation: 1 GB for 100 ms (our functions are configured with 1 GB). */
const LAMBDA_GB_SECONDS = 0.1;

export async function costOfOneAlert(samples = 20): Promise<Figures> {
  const timeScale = 60; // one-minute layers last one second
  const service = await startService(timeScale);
  try {
    const [first, second] = [await person(service, 'Cost One'), await person(service, 'Cost Two')];
    const teamId = await team(service, [first, second], 1);
    const batches = () => Object.fromEntries(service.runtime.pollers.map((p, i) => [i, p.batches]));
    const before = batches();
    const metered = meter();
    let httpCalls = 0;
    try {
      for (let i = 0; i < samples; i++) {
        const alert = await json(service.client, 'POST', '/api/v4/alerts', {
          title: `Life ${i}`,
          urgency: 'high',
          destination_team_ids: [teamId],
        });
        httpCalls += 1;
        // Layer 1 pages, its 1-minute timeout (1 s) passes, layer 2 pages (watched in the memory
        // outbox, so the benchmark's own reads do not count).
        await until(() => outbox.filter((m) => m.channel === 'email' && m.message.includes(`Life ${i}`)).length >= 2, 30_000, 20);
        await json(service.client, 'POST', `/api/v4/alerts/${alert.id}/acknowledge`);
        await json(service.client, 'POST', `/api/v4/alerts/${alert.id}/resolve`);
        httpCalls += 2;
      }
      // Layer 2's timer still arrives after the acknowledgement (and changes nothing): wait for it.
      await sleep(1_500);
    } finally {
      metered.stop();
    }
    const after = batches();
    const workerBatches = Object.keys(after).reduce((sum, i) => sum + (after[i as never] - before[i as never]), 0);
    const m = metered.meter;
    const per = (n: number) => n / samples;
    const wru = per(m.writeUnits + m.indexWriteUnits);
    const rru = per(m.readUnits);
    const messages = per(m.messagesSent);
    // SQS requests: each send request, and at most one receive and one delete per message.
    const sqsRequests = per(m.sendRequests) + 2 * messages;
    const invocations = per(httpCalls) + per(workerBatches);
    const monthly = 10_000;
    const dollars =
      monthly *
      (wru * PRICES.writeRequestUnit +
        rru * PRICES.readRequestUnit +
        sqsRequests * PRICES.sqsRequest +
        invocations * (PRICES.lambdaRequest + LAMBDA_GB_SECONDS * PRICES.lambdaGbSecondArm));
    return {
      'escalation.cost.samples': samples,
      'escalation.cost.write_units_table': round(per(m.writeUnits), 1),
      'escalation.cost.write_units_indexes': round(per(m.indexWriteUnits), 1),
      'escalation.cost.read_units': round(rru, 1),
      'escalation.cost.dynamodb_calls': round(per(Object.values(m.calls).reduce((a, b) => a + b, 0)), 1),
      'escalation.cost.dynamodb_calls_by_kind': JSON.stringify(
        Object.fromEntries(Object.entries(m.calls).map(([k, v]) => [k, round(per(v), 1)])),
      ),
      'escalation.cost.queue_messages': round(messages, 1),
      'escalation.cost.invocations': round(invocations, 1),
      'escalation.cost.emails': 2,
      'escalation.cost.usd_per_10k_alerts_month': round(dollars, 2),
      'escalation.cost.usd_per_10k_alerts_month_with_ses': round(dollars + monthly * 2 * PRICES.sesEmail, 2),
    };
  } finally {
    await service.stop();
  }
}

export async function benchEscalation(): Promise<Figures> {
  const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
  // BENCH_PAGING_PARTS=cost,storm runs some parts only.
  const parts = new Set((process.env.BENCH_PAGING_PARTS ?? 'page,timers,storm,cost').split(','));
  const figures: Figures = {};
  if (parts.has('page')) {
    // At a rate the one local process sustains, and at one that saturates it (queueing shows).
    Object.assign(figures, await timeToPage(number('BENCH_PAGE_ALERTS', 1_000), number('BENCH_PAGE_RATE', 20)));
    if (!process.env.BENCH_PAGE_RATE) {
      const saturated = await timeToPage(number('BENCH_PAGE_ALERTS', 1_000), 50);
      for (const [name, value] of Object.entries(saturated)) figures[name.replace('time_to_page.', 'time_to_page_50_per_s.')] = value;
    }
  }
  if (parts.has('timers')) Object.assign(figures, await timerAccuracy(number('BENCH_TIMER_ALERTS', 1_000)));
  if (parts.has('storm')) Object.assign(figures, await storm(number('BENCH_STORM_ALERTS', 2_000)));
  if (parts.has('cost')) Object.assign(figures, await costOfOneAlert(number('BENCH_COST_SAMPLES', 20)));
  return figures;
}

runWhenMain(import.meta.url, benchEscalation);
