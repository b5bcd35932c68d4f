// Reports at scale (issue 22), on the local runtime with its embedded emulators, through HTTP: p50 of
// each report request in an account of 100 000 alerts ÷ p50 of the same request in one of 100, side
// by side in one run (target ≤ 3).
// The accounts' report aggregates are seeded through the store functions the writes use, not by
// creating 100 000 alerts through the API: each synthetic alert's state (created over the last 90
// days, acknowledged and resolved after lifelike delays, a team, dropped now and then) goes through
// addBucketDeltas, the function every alert write moves its buckets and report fields with, summed and
// written by addBucketTotals (the bulk import's ADD); each of its pages and its acknowledgement
// through countPage and countAcknowledgement, the calls the send path and the transition make. The
// alert items themselves are not written: no report reads them (the lists benchmark measures an
// account that holds them).
import { startRuntime } from '../infra/local/runtime';
import { createAccountWithAdmin } from '../lib/accounts/create-account';
import { addBucketDeltas, addBucketTotals, type BucketDeltas } from '../lib/alerts/created-at-store';
import type { AlertStatus } from '../lib/alerts/records';
import { newId } from '../lib/ids';
import { isNightIn } from '../lib/notify/night';
import { countAcknowledgement, countPage } from '../lib/notify/page-count-store';
import { type Figures, KeepAliveClient, median, NO_PERIODIC_SWEEP, randomSource, round, runWhenMain, sideBySide } from './support';

const DAY = 86_400_000;
const SPAN_DAYS = 90;
const BIG = Number(process.env.BENCH_REPORTS_ALERTS ?? 100_000);
const TEAMS = 4;
const PEOPLE = 8;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC'];

interface Seeded {
  accountId: string;
  key: string;
  teams: string[];
}

/** `count` alerts over the last SPAN_DAYS days, their report aggregates and their pages. */
async function seedReports(account: Seeded, count: number, now: number): Promise<void> {
  const random = randomSource(count);
  const people = Array.from({ length: PEOPLE }, () => newId());
  const buckets: BucketDeltas = new Map();
  const counts: Array<() => Promise<void>> = [];
  const step = (SPAN_DAYS * DAY) / count;
  for (let n = 0; n < count; n++) {
    const created = Math.floor(now - SPAN_DAYS * DAY + n * step);
    const acknowledged = random() < 0.8 ? created + Math.floor(5_000 + random() ** 3 * 3_600_000) : null;
    const resolved = random() < 0.7 ? (acknowledged ?? created) + Math.floor(60_000 + random() ** 2 * 86_400_000) : null;
    const status: AlertStatus = resolved ? 'resolved' : acknowledged ? 'acknowledged' : random() < 0.25 ? 'dropped' : 'open';
    const team = account.teams[n % TEAMS];
    addBucketDeltas(
      buckets,
      {
        account_id: account.accountId,
        created_at: new Date(created).toISOString(),
        status,
        acknowledged_at: acknowledged ? new Date(Math.min(acknowledged, now)).toISOString() : null,
        resolved_at: resolved ? new Date(Math.min(resolved, now)).toISOString() : null,
        destination_team_ids: [team],
      },
      1,
    );
    const paged = people[(n * 7) % PEOPLE];
    const zone = ZONES[((n * 7) % PEOPLE) % ZONES.length];
    for (const channel of ['push', 'email'] as const) {
      counts.push(() =>
        countPage({
          accountId: account.accountId,
          accountUserId: paged,
          channel,
          at: created,
          teamIds: [team],
          night: isNightIn(zone, created),
        }),
      );
    }
    if (acknowledged) counts.push(() => countAcknowledgement(account.accountId, paged, Math.min(acknowledged, now), [team]));
  }
  // A few dozen writes at a time: the embedded emulator drops connections when hundreds wait.
  const items = [...buckets];
  for (let i = 0; i < items.length; i += 25) await addBucketTotals(new Map(items.slice(i, i + 25)));
  // Group-committed like the send path's: concurrent counts of one person-day share an ADD.
  for (let i = 0; i < counts.length; i += 1_000) await Promise.all(counts.slice(i, i + 1_000).map((count) => count()));
}

export async function benchReports(): Promise<Figures> {
  const apiKey = 'r'.repeat(48);
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-reports',
    bootstrap: { apiKey },
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
    // The sweeper every 10 s would recount the big account's counters between the timed requests.
    scheduleIntervalMs: NO_PERIODIC_SWEEP,
  });
  const out: Figures = {};
  const clients: KeepAliveClient[] = [];
  try {
    const now = Date.now();
    const big = runtime.created!;
    const smallKey = 'q'.repeat(48);
    const small = await createAccountWithAdmin({
      accountName: 'Small',
      name: 'Small Admin',
      email: 'small-reports@example.com',
      apiKey: smallKey,
    });
    const client = (key: string) => {
      const c = new KeepAliveClient(runtime.url, { authorization: `Bearer ${key}` });
      clients.push(c);
      return c;
    };
    const bigClient = client(apiKey);
    const smallClient = client(smallKey);
    const seeded = async (accountId: string, adminId: string, key: string, c: KeepAliveClient): Promise<Seeded> => {
      const teams: string[] = [];
      for (let i = 0; i < TEAMS; i++) {
        const body = JSON.stringify({ name: `Team ${i}`, member_account_user_ids: [adminId], admin_account_user_ids: [adminId] });
        let res = await c.request('POST', '/api/v4/teams', body, { 'content-type': 'application/json' });
        // A loaded machine may find the service shedding load (503): try again a moment later.
        for (let attempt = 0; res.status === 503 && attempt < 10; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          res = await c.request('POST', '/api/v4/teams', body, { 'content-type': 'application/json' });
        }
        if (res.status !== 201) throw new Error(`team: ${res.status} ${res.body.slice(0, 200)}`);
        teams.push((JSON.parse(res.body) as { id: string }).id);
      }
      return { accountId, key, teams };
    };
    const accounts = {
      big: await seeded(big.account.id, big.admin.id, apiKey, bigClient),
      small: await seeded(small.account.id, small.admin.id, smallKey, smallClient),
    };
    const seedStarted = Date.now();
    await seedReports(accounts.small, 100, now);
    await seedReports(accounts.big, BIG, now);
    out.seed_s = round((Date.now() - seedStarted) / 1000, 1);

    const today = Math.floor(now / DAY) * DAY;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const last30 = `start=${day(today - 29 * DAY)}&end=${day(today + DAY)}`;
    const last90 = `start=${day(today - 89 * DAY)}&end=${day(today + DAY)}`;
    const shapes: Record<string, (account: Seeded) => string> = {
      alerts_30d_days: () => `/api/v4/reports/alerts?${last30}`,
      alerts_90d_weeks: () => `/api/v4/reports/alerts?${last90}&bucket=week`,
      alerts_90d_weeks_team: (a) => `/api/v4/reports/alerts?${last90}&bucket=week&team_id=${a.teams[0]}`,
      pages_30d: () => `/api/v4/reports/pages?${last30}`,
      pages_90d_team: (a) => `/api/v4/reports/pages?${last90}&team_id=${a.teams[0]}`,
    };
    const rows: Array<Record<string, number | string>> = [];
    for (const [name, path] of Object.entries(shapes)) {
      const [large, smallPath] = [path(accounts.big), path(accounts.small)];
      const first = await bigClient.request('GET', large);
      if (first.status !== 200) throw new Error(`${name}: ${first.status} ${first.body.slice(0, 300)}`);
      const firstSmall = await smallClient.request('GET', smallPath);
      if (firstSmall.status !== 200) throw new Error(`${name} (100): ${firstSmall.status} ${firstSmall.body.slice(0, 300)}`);
      const times = await sideBySide(
        () => bigClient.request('GET', large),
        () => smallClient.request('GET', smallPath),
        { rounds: 4, perRound: 8, warmup: 4 },
      );
      const [a, b] = [median(times.a), median(times.b)];
      const created = (body: string) => (JSON.parse(body) as { total?: { created: number } }).total?.created ?? '';
      const row = {
        shape: name,
        p50_100k_ms: round(a, 2),
        p50_100_ms: round(b, 2),
        ratio: round(a / b, 2),
        answer_kib_100k: round(Buffer.byteLength(first.body) / 1024, 1),
        created_100k: created(first.body),
      };
      rows.push(row);
      out[`${name}.p50_100k_ms`] = row.p50_100k_ms;
      out[`${name}.p50_100_ms`] = row.p50_100_ms;
      out[`${name}.ratio`] = row.ratio;
    }
    console.table(rows);
    out.max_ratio = Math.max(...rows.map((r) => Number(r.ratio)));
    return out;
  } finally {
    for (const c of clients) c.close();
    await runtime.stop();
  }
}

runWhenMain(import.meta.url, benchReports);
