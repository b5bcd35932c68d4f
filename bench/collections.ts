// The other big collections at scale (issue 14), on the local runtime with its embedded emulators:
// logs (every log, an integration's request log, an alert's timeline) and notifications (every one,
// one account user's, one alert's). p50 in an account of 100 000 logs under one integration and
// 100 000 notifications for one account user ÷ p50 of the same query in an account of 100, side by
// side in one run (the ratio is the figure: the machine is shared and noisy).
// Both accounts are seeded through the stores in batches (importAlerts, importLogs,
// importNotifications: the items with their index keys, the counters and the owner counts, as the
// write paths count them).
import { ulid } from 'ulid';
import { startRuntime } from '../infra/local/runtime';
import { createAccountWithAdmin } from '../lib/accounts/create-account';
import type { AlertRecord } from '../lib/alerts/records';
import { importAlerts } from '../lib/alerts/bulk-store';
import { alertDefaults } from '../lib/alerts/store';
import { newId, prefixId } from '../lib/ids';
import type { LogRecord } from '../lib/logs/records';
import { importLogs } from '../lib/logs/store';
import type { NotificationRecord } from '../lib/notify/records';
import { importNotifications } from '../lib/notify/store';
import { countItems } from '../lib/store/items';
import { KeepAliveClient, median, pool, round, runWhenMain, compareAtScale } from './support';

/** The large account's logs under one integration and notifications of one person (BENCH_COLLECTIONS_ITEMS for a quicker run). */
const BIG = Number(process.env.BENCH_COLLECTIONS_ITEMS ?? 100_000);
const SMALL = 100;
/** Alerts per account: each has a timeline of TIMELINE entries, and the notifications are spread over them. */
const ALERTS = { big: 1_000, small: 10 } as const;
const TIMELINE = 5;
const CHUNK = 1_000;

interface Seeded {
  accountId: string;
  key: string;
  accountUserId: string;
  integrationId: string;
  alertIds: string[];
}

function alertRecord(accountId: string, accountUserId: string, n: number, created: number): AlertRecord {
  const iso = new Date(created).toISOString();
  return {
    ...alertDefaults(),
    id: ulid(created),
    account_id: accountId,
    tiny_id: n + 1,
    version: 1,
    title: `disk usage high on web-${n}`,
    description: '',
    urgency: 'low',
    status: 'resolved',
    destination_team_ids: [],
    destination_account_user_ids: [accountUserId],
    source_type: 'AccountUser',
    source_id: accountUserId,
    routed_at: iso,
    created_at: iso,
    updated_at: iso,
  };
}

function incomingLog(accountId: string, integrationId: string, n: number, at: number): LogRecord {
  const owner = prefixId('integration', integrationId);
  const iso = new Date(at).toISOString();
  const body = JSON.stringify({ event_type: 'create', Id: `check-${n}`, Title: `disk usage high on web-${n % 37}` });
  return {
    id: ulid(at),
    account_id: accountId,
    type: 'integration',
    subtype: 'INCOMING',
    content: `Incoming request to ${owner} (${body.length} bytes)`,
    owner_id: owner,
    source_id: owner,
    level: 1,
    meta: {},
    data: { body, headers: { 'content-type': 'application/json' }, query: '', received_at: iso, source_ip: '203.0.113.7' },
    status: 'processed',
    created_at: iso,
    updated_at: iso,
    version: 1,
  };
}

function timelineEntry(accountId: string, alertId: string, accountUserId: string, step: number, at: number): LogRecord {
  const owner = prefixId('alert', alertId);
  const iso = new Date(at).toISOString();
  const action = ['created', 'routed', 'escalated', 'acknowledged', 'resolved'][step % 5];
  return {
    id: ulid(at),
    account_id: accountId,
    type: 'alert',
    subtype: null,
    content: `Alert ${action}`,
    owner_id: owner,
    source_id: owner,
    level: 1,
    meta: {},
    data: { action, actor: { type: 'AccountUser', id: prefixId('accountUser', accountUserId) }, time: iso },
    created_at: iso,
    updated_at: iso,
    version: 1,
  };
}

function notificationRecord(accountId: string, alertId: string, accountUserId: string, n: number, at: number): NotificationRecord {
  const iso = new Date(at).toISOString();
  return {
    id: ulid(at),
    account_id: accountId,
    account_user_id: accountUserId,
    user_id: null,
    alert_id: alertId,
    broadcast_id: null,
    workflow_id: null,
    group_id: null,
    channel: (['email', 'sms', 'push', 'voice'] as const)[n % 4],
    provider: 'bench',
    provider_message_id: null,
    provider_status: 'accepted',
    template: 'alert_alert',
    to: 'on-call@example.com',
    from: 'service@example.com',
    subject: 'Alert',
    message: `Alert #${n}: disk usage high`,
    status: 'sent',
    err: [],
    cost: 0,
    sent_at: iso,
    delivered_at: null,
    source_key: null,
    created_at: iso,
    updated_at: iso,
    version: 1,
  };
}

/** One account's collections: `items` request logs and notifications, the alerts and their timelines. */
async function seed(account: Seeded, alerts: number, items: number, now: number): Promise<void> {
  const span = 30 * 86_400_000;
  const alertRecords = Array.from({ length: alerts }, (_, n) =>
    alertRecord(account.accountId, account.accountUserId, n, now - span + Math.floor((n * span) / alerts)),
  );
  for (let start = 0; start < alertRecords.length; start += CHUNK) {
    await importAlerts(account.accountId, alertRecords.slice(start, start + CHUNK));
  }
  account.alertIds = alertRecords.map((a) => a.id);
  const timelines = alertRecords.flatMap((alert, n) =>
    Array.from({ length: TIMELINE }, (_, step) =>
      timelineEntry(account.accountId, alert.id, account.accountUserId, step, Date.parse(alert.created_at) + step * 1_000 + (n % 1_000)),
    ),
  );
  for (let start = 0; start < timelines.length; start += CHUNK) await importLogs(account.accountId, timelines.slice(start, start + CHUNK));
  await pool(Math.ceil(items / CHUNK), 4, async (c) => {
    const count = Math.min(CHUNK, items - c * CHUNK);
    const logs: LogRecord[] = [];
    const notifications: NotificationRecord[] = [];
    for (let i = 0; i < count; i++) {
      const n = c * CHUNK + i;
      const at = now - span + Math.floor((n * span) / items);
      logs.push(incomingLog(account.accountId, account.integrationId, n, at));
      notifications.push(notificationRecord(account.accountId, account.alertIds[n % alerts], account.accountUserId, n, at));
    }
    await Promise.all([importLogs(account.accountId, logs), importNotifications(account.accountId, notifications)]);
    if (items >= 10_000 && (c + 1) % 10 === 0) console.log(`  seeded ${(c + 1) * CHUNK} of ${items} logs and notifications`);
  });
}

export async function benchCollections(): Promise<Record<string, number | string>> {
  const apiKey = 'c'.repeat(48);
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-collections',
    bootstrap: { apiKey },
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
  });
  const out: Record<string, number | string> = {};
  const clients: KeepAliveClient[] = [];
  try {
    const now = Date.now();
    const big = runtime.created!;
    const smallKey = 'k'.repeat(48);
    const small = await createAccountWithAdmin({
      accountName: 'Small',
      name: 'Small Admin',
      email: 'small-collections@example.com',
      apiKey: smallKey,
    });
    const accounts: Record<'big' | 'small', Seeded> = {
      big: { accountId: big.account.id, key: apiKey, accountUserId: big.admin.id, integrationId: newId(), alertIds: [] },
      small: { accountId: small.account.id, key: smallKey, accountUserId: small.admin.id, integrationId: newId(), alertIds: [] },
    };
    const seedStarted = Date.now();
    await seed(accounts.small, ALERTS.small, SMALL, now);
    await seed(accounts.big, ALERTS.big, BIG, now);
    out.seed_s = round((Date.now() - seedStarted) / 1000, 1);

    const client = (account: Seeded) => {
      const c = new KeepAliveClient(runtime.url, { authorization: `Bearer ${account.key}` });
      clients.push(c);
      return c;
    };
    const bigClient = client(accounts.big);
    const smallClient = client(accounts.small);

    // The alert measured: one in the middle of each account (the same timeline, notifications spread).
    const alertOf = (a: Seeded) => a.alertIds[Math.floor(a.alertIds.length / 2)];
    const integration = (a: Seeded) => prefixId('integration', a.integrationId);
    const shapes: Record<string, (a: Seeded) => string> = {
      logs_all: () => '/log?limit=10',
      logs_integration_owner: (a) => `/log?owner_id=${integration(a)}&limit=10`,
      logs_integration_offset: (a) => `/log?owner_id=${integration(a)}&offset=50&limit=10`,
      integration_request_log: (a) => `/log?owner_id=${integration(a)}&sort=createdAt&direction=desc&limit=10`,
      alert_timeline: (a) => `/incident/${alertOf(a)}/logs?limit=10`,
      alert_timeline_by_owner: (a) => `/log?owner_id=${prefixId('alert', alertOf(a))}&limit=10`,
      notifications_plain: () => '/api/v4/notifications?limit=10',
      notifications_by_account_user: (a) => `/api/v4/notifications?account_user_id=${a.accountUserId}&limit=10`,
      notifications_by_account_user_asc: (a) =>
        `/api/v4/notifications?account_user_id=${a.accountUserId}&sort=created_at&direction=asc&offset=20&limit=10`,
      notifications_by_alert: (a) => `/api/v4/notifications?alert_id=${alertOf(a)}&limit=10`,
      earlier_notifications_by_account_user: (a) => `/notification?account_user_id=${a.accountUserId}&limit=10`,
      earlier_notifications_by_alert: (a) => `/notification?source_id=${prefixId('alert', alertOf(a))}&limit=10`,
    };

    const paths = Object.fromEntries(
      Object.entries(shapes).map(([name, shape]) => [name, { large: shape(accounts.big), small: shape(accounts.small) }]),
    );
    Object.assign(out, await compareAtScale(bigClient, smallClient, paths));

    // What each of those pages paid for its total before owner counts: a Select COUNT of the owner's
    // whole index partition (keys only), here the integration's 100 000 logs and the person's notifications.
    const countOnce = async (partition: string, index: string) => {
      const started = process.hrtime.bigint();
      await countItems(partition, { index });
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const bigAccount = accounts.big.accountId;
    const logCounts: number[] = [];
    const notificationCounts: number[] = [];
    for (let i = 0; i < 3; i++) {
      logCounts.push(await countOnce(`A#${bigAccount}#LOG#O#${integration(accounts.big)}`, 'gsi1'));
      notificationCounts.push(await countOnce(`A#${bigAccount}#NTF#ACU#${accounts.big.accountUserId}`, 'gsi6'));
    }
    out.before_count_integration_logs_100k_ms = round(median(logCounts), 1);
    out.before_count_account_user_notifications_100k_ms = round(median(notificationCounts), 1);
    return out;
  } finally {
    for (const c of clients) c.close();
    await runtime.stop();
  }
}

runWhenMain(import.meta.url, benchCollections);
