// List shapes at scale (issue 14), on the local runtime with its embedded emulators: every indexed
// alert query shape, p50 in an account of 100 000 alerts ÷ p50 of the same query in one of 100, side
// by side in one run (the ratio is the figure: the machine is shared and noisy); and the 422 of a
// query outside the indexes at 100 000.
// Both accounts are seeded through the store (importAlerts: the alert item with its index keys, its
// links, its word items and the counters, as the create path writes them), in batches.
import { ulid } from 'ulid';
import { startRuntime } from '../infra/local/runtime';
import { createAccountWithAdmin } from '../lib/accounts/create-account';
import type { AlertRecord, AlertStatus, Urgency } from '../lib/alerts/records';
import { importAlerts } from '../lib/alerts/bulk-store';
import { alertDefaults } from '../lib/alerts/store';
import { newId } from '../lib/ids';
import { entityStore, type Entity } from '../lib/store/entity-store';
import { compareAtScale, KeepAliveClient, median, pool, randomSource, round, runWhenMain } from './support';

const DAY = 86_400_000;
/** The large account's alerts (BENCH_LISTS_ALERTS for a quicker run on a busy machine). */
const BIG = Number(process.env.BENCH_LISTS_ALERTS ?? 100_000);
const SPAN_DAYS = 365;
const STATUSES: AlertStatus[] = ['open', 'acknowledged', 'resolved', 'resolved', 'resolved', 'dropped'];
const URGENCIES: Urgency[] = ['low', 'medium', 'high', 'critical'];
const VOCABULARY = [
  'disk',
  'usage',
  'high',
  'latency',
  'database',
  'replica',
  'lag',
  'queue',
  'backlog',
  'memory',
  'pressure',
  'cpu',
  'throttled',
  'payments',
  'checkout',
  'timeout',
  'certificate',
  'expiring',
  'gateway',
  'errors',
];

interface Seeded {
  accountId: string;
  key: string;
  teams: string[];
}

async function seedTeams(accountId: string, member: string): Promise<string[]> {
  const teams: string[] = [];
  for (let i = 0; i < 4; i++) {
    const id = newId();
    const now = new Date().toISOString();
    await entityStore<Entity>({ kind: 'team' }).insert({
      id,
      account_id: accountId,
      name: `Team ${i}`,
      member_account_user_ids: [member],
      admin_account_user_ids: [member],
      created_at: now,
      updated_at: now,
      version: 1,
    } as never);
    teams.push(id);
  }
  return teams;
}

/** `count` alerts spread over the last year: created_at (and the ULID's time) evenly apart, statuses,
 * urgencies and teams mixed, `kestrel` in 1 % of the titles. */
async function seedAlerts(accountId: string, sourceId: string, teams: string[], count: number, now: number): Promise<void> {
  const chunk = 1_000;
  const step = (SPAN_DAYS * DAY) / count;
  await pool(Math.ceil(count / chunk), 4, async (c) => {
    const random = randomSource(c + 1);
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
    const records: AlertRecord[] = [];
    for (let i = 0; i < Math.min(chunk, count - c * chunk); i++) {
      const n = c * chunk + i;
      const created = Math.floor(now - SPAN_DAYS * DAY + n * step);
      const updated = created + Math.floor(random() * DAY);
      const words = [pick(VOCABULARY), pick(VOCABULARY), pick(VOCABULARY)];
      if (n % 100 === 42) words.splice(1, 0, 'kestrel');
      records.push({
        ...alertDefaults(),
        id: ulid(created),
        account_id: accountId,
        tiny_id: n + 1,
        version: 1,
        title: `${words.join(' ')} on web-${n % 37}`,
        description: n % 4 === 0 ? `${pick(VOCABULARY)} since ${pick(VOCABULARY)}` : '',
        urgency: pick(URGENCIES),
        status: pick(STATUSES),
        destination_team_ids: random() < 0.9 ? [pick(teams)] : [],
        destination_account_user_ids: [sourceId],
        source_type: 'AccountUser',
        source_id: sourceId,
        routed_at: new Date(created).toISOString(),
        created_at: new Date(created).toISOString(),
        updated_at: new Date(Math.min(updated, now)).toISOString(),
      });
    }
    await importAlerts(accountId, records);
    if (count >= 10_000 && (c + 1) % 10 === 0) console.log(`  seeded ${(c + 1) * chunk} of ${count}`);
  });
}

export async function benchLists(): Promise<Record<string, number | string>> {
  const apiKey = 'l'.repeat(48);
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-lists',
    bootstrap: { apiKey },
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
  });
  const out: Record<string, number | string> = {};
  const clients: KeepAliveClient[] = [];
  try {
    const now = Date.now();
    const big = runtime.created!;
    const smallKey = 's'.repeat(48);
    const small = await createAccountWithAdmin({
      accountName: 'Small',
      name: 'Small Admin',
      email: 'small-lists@example.com',
      apiKey: smallKey,
    });
    const accounts: Record<'big' | 'small', Seeded> = {
      big: { accountId: big.account.id, key: apiKey, teams: await seedTeams(big.account.id, big.admin.id) },
      small: { accountId: small.account.id, key: smallKey, teams: await seedTeams(small.account.id, small.admin.id) },
    };
    const seedStarted = Date.now();
    await seedAlerts(accounts.small.accountId, small.admin.id, accounts.small.teams, 100, now);
    await seedAlerts(accounts.big.accountId, big.admin.id, accounts.big.teams, BIG, now);
    out.seed_100k_s = round((Date.now() - seedStarted) / 1000, 1);

    const client = (account: Seeded) => {
      const c = new KeepAliveClient(runtime.url, { authorization: `Bearer ${account.key}` });
      clients.push(c);
      return c;
    };
    const bigClient = client(accounts.big);
    const smallClient = client(accounts.small);

    // A window of 1 % of the year, the same instants in both accounts (1 000 alerts against 1).
    const from = new Date(now - 200 * DAY).toISOString();
    const to = new Date(now - 200 * DAY + (SPAN_DAYS * DAY) / 100).toISOString();
    const shapes: Record<string, (account: Seeded) => string> = {
      plain: () => '',
      status: () => 'status=open',
      urgency: () => 'urgency=low',
      status_urgency: () => 'status=open&urgency=low',
      team: (a) => `destination_team_ids=${a.teams[0]}`,
      team_status: (a) => `destination_team_ids=${a.teams[0]}&status=open`,
      created_between: () => `created_at=${from}..${to}&ops=created_at:between`,
      created_between_status: () => `created_at=${from}..${to}&ops=created_at:between&status=resolved`,
      sort_created_asc: () => 'sort=created_at&direction=asc',
      sort_created_desc: () => 'sort=created_at&direction=desc',
      sort_updated_asc: () => 'sort=updated_at&direction=asc',
      sort_updated_desc: () => 'sort=updated_at&direction=desc',
      sort_tiny_asc: () => 'sort=tiny_id&direction=asc',
      sort_tiny_desc: () => 'sort=tiny_id&direction=desc',
      q_word: () => 'q=kestrel',
      q_prefix: () => 'q=kes',
      q_two_words: () => 'q=kestrel%20web',
      earlier_status_urgency: () => '',
      // GET /teams/:id/alerts: the team's partition and its seven `dteam#<status>` partitions merged.
      team_alerts: () => '',
      // With status=: the team's `dteam#<team>#open` and assigned-team links merged, totals from counters.
      team_alerts_status: () => 'status=open',
    };
    const path = (name: string, account: Seeded) =>
      name.startsWith('earlier_')
        ? '/alert?status=open&urgency=low&limit=10'
        : name.startsWith('team_alerts')
          ? `/api/v4/teams/${account.teams[0]}/alerts?${shapes[name](account)}${shapes[name](account) ? '&' : ''}limit=10`
          : `/api/v4/alerts?${shapes[name](account)}${shapes[name](account) ? '&' : ''}limit=10`;

    const paths = Object.fromEntries(
      Object.keys(shapes).map((name) => [name, { large: path(name, accounts.big), small: path(name, accounts.small) }]),
    );
    Object.assign(out, await compareAtScale(bigClient, smallClient, paths));

    // A query outside the indexes at 100 000: refused from the counters, before any read.
    const refusal: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = process.hrtime.bigint();
      const res = await bigClient.request('GET', '/api/v4/alerts?sort=title&limit=10');
      refusal.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status !== 422) throw new Error(`sort=title at 100 000: ${res.status} ${res.body.slice(0, 200)}`);
    }
    out.unindexed_422_100k_p50_ms = round(median(refusal), 2);
    out.unindexed_422_100k_max_ms = round(Math.max(...refusal), 2);

    return out;
  } finally {
    for (const c of clients) c.close();
    await runtime.stop();
  }
}

runWhenMain(import.meta.url, benchLists);
