// created_at ranges and q of several words in a large account (lib/alerts/ACCESS-PATTERNS.md, issue 14):
// alerts imported over four months (times on and around hour, midnight and month boundaries), then
// moved through transitions and deletes; every range total (counted from the created_at buckets and
// the two edge hours) and every q of several words (checked on the word lists of one group) must be
// exactly what an in-memory filter of every alert gives.
import { beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import type { ApiClient } from '../support/api-client';
import { useService } from '../support/runtime';
import { forceStatus, whoAmI, type Me } from '../alerts/support';
import type { AlertRecord, AlertStatus, Urgency } from '../../lib/alerts/records';
import { importAlerts, reindexAlerts } from '../../lib/alerts/bulk-store';
import { recountCreatedBuckets } from '../../lib/alerts/created-at-store';
import { alertDefaults } from '../../lib/alerts/store';
import { readWordEntries } from '../../lib/alerts/word-store';
import { adjustFields } from '../../lib/store/counters';
import { putItem, queryItems } from '../../lib/store/items';

const BUDGET = 40;
const COUNT = 320;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The first alert's time: 2026-01-20, so the alerts cross the ends of January, February and March. */
const START = Date.UTC(2026, 0, 20, 0, 0, 0, 0);
const SPAN = 100 * DAY;

let admin: ApiClient;
let me: Me;

useService(
  async (started) => {
    admin = started.admin;
    me = await whoAmI(admin);
  },
  { env: { LIST_READ_BUDGET: String(BUDGET) } },
);

let seed = 424242;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

const WORDS = ['kestrel', 'database', 'latency', 'disk', 'queue', 'payments', 'db', 'ünïcode', 'lag'];
const STATUSES: AlertStatus[] = ['open', 'acknowledged', 'resolved', 'dropped'];
const URGENCIES: Urgency[] = ['low', 'medium', 'high', 'critical'];

/** A time of creation: mostly anywhere, often exactly on (or a millisecond around) an hour, a midnight
 * or the first of a month, where the buckets split a range. */
function createdTime(n: number): number {
  const base = START + Math.floor((n / COUNT) * SPAN);
  switch (n % 5) {
    case 0:
      return Math.floor(base / HOUR) * HOUR + pick([0, -1, 1]);
    case 1:
      return Math.floor(base / DAY) * DAY + pick([0, -1, 1, HOUR - 1]);
    case 2:
      return pick([Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1), Date.UTC(2026, 3, 1)]) + pick([0, -1, 1, 59 * 60_000]);
    default:
      return base + Math.floor(random() * HOUR * 7);
  }
}

interface Alert {
  id: string;
  title: string;
  description: string;
  status: string;
  created_at: string;
}

async function everyAlert(): Promise<Alert[]> {
  const all: Alert[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await admin.get(`/api/v4/alerts?limit=100&offset=${offset}`);
    expect(res.status, res.text).toBe(200);
    all.push(...res.body.data);
    if (!res.body.has_more) return all;
  }
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const qMatches = (alert: Alert, q: string) => {
  const words = [...wordsOf(alert.title), ...wordsOf(alert.description ?? '')];
  return wordsOf(q).every((term) => words.some((word) => word.startsWith(term)));
};

let reference: Alert[] = [];

beforeAll(async () => {
  const records: AlertRecord[] = [];
  for (let n = 0; n < COUNT; n++) {
    const created = createdTime(n);
    const words = [pick(WORDS), pick(WORDS)];
    records.push({
      ...alertDefaults(),
      id: ulid(created),
      account_id: me.accountId,
      tiny_id: 100_000 + n,
      version: 1,
      title: `${words.join(' ')} on web-${n % 7}`,
      description: n % 3 === 0 ? `${pick(WORDS)} since ${pick(['noon', 'dawn', 'db'])}` : '',
      urgency: pick(URGENCIES),
      status: pick(STATUSES),
      destination_account_user_ids: [me.accountUserId],
      source_type: 'AccountUser',
      source_id: me.accountUserId,
      routed_at: new Date(created).toISOString(),
      created_at: new Date(created).toISOString(),
      updated_at: new Date(created).toISOString(),
    });
  }
  for (let start = 0; start < records.length; start += 100) await importAlerts(me.accountId, records.slice(start, start + 100));
  // Transitions (through the API and the store) and deletes move the statuses of the buckets.
  const ids = records.map((r) => r.id);
  for (const id of ids.filter((_, i) => i % 11 === 0)) {
    const res = await admin.post(`/api/v4/alerts/${id}/resolve`);
    expect([200, 409]).toContain(res.status);
  }
  for (let start = 0; start < ids.length; start += 20) {
    await Promise.all(
      ids
        .slice(start, start + 20)
        .filter((_, i) => (start + i) % 4 === 1)
        .map((id) => forceStatus(me.accountId, id, pick(STATUSES))),
    );
  }
  for (const id of ids.filter((_, i) => i % 13 === 5)) expect((await admin.delete(`/api/v4/alerts/${id}`)).status).toBe(204);
  reference = await everyAlert();
}, 120_000);

function expected(filter: (alert: Alert) => boolean, direction: 'asc' | 'desc' = 'desc'): string[] {
  const ids = reference
    .filter(filter)
    .map((a) => a.id)
    .sort();
  return direction === 'asc' ? ids : ids.reverse();
}

/** total_count and two pages of a query against the reference. */
async function check(query: string, want: string[]) {
  for (const [limit, offset] of [
    [10, 0],
    [10, Math.max(0, want.length - 4)],
  ]) {
    const res = await admin.get(`/api/v4/alerts?${query}&limit=${limit}&offset=${offset}`);
    expect(res.status, `${query}: ${res.text}`).toBe(200);
    expect(res.body.total_count, query).toBe(want.length);
    expect(
      res.body.data.map((a: Alert) => a.id),
      `${query} offset=${offset}`,
    ).toEqual(want.slice(offset, offset + limit));
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const at = (alert: Alert) => Date.parse(alert.created_at);

async function checkBetween(from: number, to: number, status?: string) {
  const inRange = (a: Alert) => at(a) >= from && at(a) <= to && (!status || a.status === status);
  await check(`created_at=${iso(from)}..${iso(to)}&ops=created_at:between${status ? `&status=${status}` : ''}`, expected(inRange));
}

describe('created_at range totals from the buckets', () => {
  it('is a large account over four months, with every status', () => {
    expect(reference.length).toBeGreaterThan(BUDGET * 5);
    expect(new Set(reference.map((a) => a.created_at.slice(0, 7)))).toEqual(new Set(['2026-01', '2026-02', '2026-03', '2026-04']));
    expect(new Set(reference.map((a) => a.status)).size).toBe(4);
  });

  it('counts ranges whose edges fall inside hours, on hours, at midnights and across months', async () => {
    const ranges: Array<[number, number]> = [
      [Date.UTC(2026, 0, 31, 22, 30), Date.UTC(2026, 1, 1, 1, 15)], // across a month's end, no whole day
      [Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1) - 1], // exactly February
      [Date.UTC(2026, 1, 1) - 1, Date.UTC(2026, 2, 1)], // February and the millisecond either side
      [Date.UTC(2026, 1, 3, 5), Date.UTC(2026, 1, 3, 9) - 1], // whole hours of one day
      [Date.UTC(2026, 1, 3, 5, 0, 0, 1), Date.UTC(2026, 1, 3, 5, 59)], // inside one hour
      [Date.UTC(2026, 0, 20, 3, 17), Date.UTC(2026, 3, 29, 20, 44, 13, 7)], // nearly everything
      [Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 1)], // one instant on a month's first millisecond
    ];
    for (let i = 0; i < 14; i++) {
      const a = START - DAY + Math.floor(random() * (SPAN + 2 * DAY));
      ranges.push([a, a + Math.floor(random() * random() * 40 * DAY)]);
    }
    for (const [from, to] of ranges) {
      await checkBetween(from, to);
      await checkBetween(from, to, pick(STATUSES));
    }
  });

  it('answers open-ended ranges and ranges outside any data', async () => {
    const mid = Date.UTC(2026, 1, 14, 12, 30, 0, 1);
    await check(
      `created_at=${iso(mid)}&ops=created_at:gte`,
      expected((a) => at(a) >= mid),
    );
    await check(
      `created_at=${iso(mid)}&ops=created_at:gt&status=resolved`,
      expected((a) => at(a) > mid && a.status === 'resolved'),
    );
    await check(
      `created_at=${iso(mid)}&ops=created_at:lte`,
      expected((a) => at(a) <= mid),
    );
    await check(
      `created_at=${iso(Date.UTC(2026, 2, 1))}&ops=created_at:lt&status=open`,
      expected((a) => at(a) < Date.UTC(2026, 2, 1) && a.status === 'open'),
    );
    await check(
      `created_at=${iso(Date.UTC(2026, 2, 1))}&ops=created_at:gte&sort=created_at&direction=asc`,
      expected((a) => at(a) >= Date.UTC(2026, 2, 1), 'asc'),
    );
    await checkBetween(Date.UTC(2001, 0, 1), Date.UTC(2001, 11, 31));
    await checkBetween(Date.UTC(2090, 0, 1), Date.UTC(2091, 0, 1), 'open');
    await check(`created_at=${iso(Date.UTC(2030, 0, 1))}&ops=created_at:gte`, []);
  });

  it('answers a range written backwards as empty (its id range is one the table refuses)', async () => {
    const [late, early] = [Date.UTC(2026, 2, 15), Date.UTC(2026, 1, 1)];
    // Bounds more than the range's two minutes of slack apart, and less: both hold nothing.
    await checkBetween(late, early);
    await checkBetween(late, early, 'open');
    await checkBetween(early + 30_000, early);
    await check(`created_at=${encodeURIComponent('9999-12-31T23:59:59.999Z')}&ops=created_at:gt`, []);
    await check(`created_at=${iso(0)}&ops=created_at:lt&status=resolved`, []);
    const earlier = await admin.get(`/alert?createdAt=${iso(late)}..${iso(early)}&ops=createdAt:between&status=open`);
    expect(earlier.status, earlier.text).toBe(200);
    expect(earlier.body).toMatchObject({ data: [], total_count: 0 });
  });

  it('keeps several statuses as before: outside the indexed shapes, refused over the budget', async () => {
    const from = Date.UTC(2026, 1, 10);
    const to = Date.UTC(2026, 1, 12);
    const res = await admin.get(`/api/v4/alerts?created_at=${iso(from)}..${iso(to)}&ops=created_at:between&status=open&status=dropped`);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].message).toContain(`more than ${BUDGET}`);
  });

  it('moves the buckets with a transition and a delete, and the recount repairs a bucket a crash left off', async () => {
    const target = reference.find((a) => a.status === 'open')!;
    const day = Date.parse(`${target.created_at.slice(0, 10)}T00:00:00.000Z`);
    const count = async (status: string) =>
      (await admin.get(`/api/v4/alerts?created_at=${iso(day)}..${iso(day + DAY - 1)}&ops=created_at:between&status=${status}&limit=1`)).body
        .total_count;
    const [open, acknowledged] = [await count('open'), await count('acknowledged')];
    expect((await admin.post(`/api/v4/alerts/${target.id}/acknowledge`)).status).toBe(200);
    expect([await count('open'), await count('acknowledged')]).toEqual([open - 1, acknowledged + 1]);
    expect((await admin.delete(`/api/v4/alerts/${target.id}`)).status).toBe(204);
    expect(await count('acknowledged')).toBe(acknowledged);

    expect((await recountCreatedBuckets(me.accountId, { settleMs: 50 })).status).toBe('exact');
    // A crash between an alert write and its bucket ADD: off until the recount.
    await adjustFields({ pk: `A#${me.accountId}#ALERT#CD`, sk: target.created_at.slice(0, 10) }, { 'D#open': 3 });
    expect(await count('open')).toBe(open - 1 + 3);
    const repaired = await recountCreatedBuckets(me.accountId, { settleMs: 50 });
    expect(repaired.status).toBe('repaired');
    expect(await count('open')).toBe(open - 1);
    reference = await everyAlert();
  });
});

describe('created_at buckets written before the day fields', () => {
  const dayKey = (day: string) => ({ pk: `A#${me.accountId}#ALERT#CD`, sk: day });
  const totals = async () => {
    const out: number[] = [];
    for (const [from, to] of [
      [Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1) - 1],
      [Date.UTC(2026, 1, 3, 5), Date.UTC(2026, 1, 20, 9, 30)],
      [Date.UTC(2026, 0, 25), Date.UTC(2026, 3, 2)],
    ]) {
      for (const status of ['', '&status=open', '&status=dropped']) {
        const res = await admin.get(`/api/v4/alerts?created_at=${iso(from)}..${iso(to)}&ops=created_at:between${status}&limit=1`);
        expect(res.status, res.text).toBe(200);
        out.push(res.body.total_count as number);
      }
    }
    const report = await admin.get('/api/v4/reports/alerts?start=2026-01-25&end=2026-03-10');
    expect(report.status, report.text).toBe(200);
    return { out, report: report.body as unknown };
  };

  it('adds the month items a deployment holds to the day fields, before and after a change, and the recount moves them', async () => {
    const before = await totals();
    expect(before.out.some((n) => n > 0)).toBe(true);
    // February as the month items held it: its days' counts in the month item, none in the day fields.
    const days = await queryItems(`A#${me.accountId}#ALERT#CD`, { skBetween: ['2026-02-01', '2026-02-28'] });
    expect(days.length).toBeGreaterThan(10);
    const month: Record<string, number> = {};
    for (const item of days) {
      const moved: Record<string, number> = {};
      for (const [field, value] of Object.entries(item)) {
        if (!field.startsWith('D#') || typeof value !== 'number' || value === 0) continue;
        month[`${String(item.sk).slice(8, 10)}#${field.slice(2)}`] = value;
        moved[field] = -value;
      }
      await adjustFields(dayKey(String(item.sk)), moved);
    }
    await adjustFields({ pk: `A#${me.accountId}#ALERT#CM`, sk: '2026-02' }, month);
    expect(await totals()).toEqual(before);

    // A change since moves the day fields alone: −1 open there, +1 acknowledged.
    const target = reference.find((a) => a.status === 'open' && a.created_at.startsWith('2026-02'))!;
    expect((await admin.post(`/api/v4/alerts/${target.id}/acknowledge`)).status).toBe(200);
    reference = await everyAlert();
    const changed = await totals();
    await checkBetween(Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1) - 1, 'open');
    await checkBetween(Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1) - 1, 'acknowledged');

    const recounted = await recountCreatedBuckets(me.accountId, { settleMs: 50 });
    expect(recounted.status).toBe('repaired');
    expect(Object.keys(recounted.corrections).some((field) => field.startsWith('2026-02 '))).toBe(true);
    const [monthItem] = await queryItems(`A#${me.accountId}#ALERT#CM`);
    expect(Object.entries(monthItem).filter(([field, n]) => field.includes('#') && n !== 0)).toEqual([]);
    expect(await totals()).toEqual(changed);
    expect((await recountCreatedBuckets(me.accountId, { settleMs: 50 })).status).toBe('exact');
  });
});

describe('q of several words, on one group', () => {
  const queries = [
    'kestrel web',
    'web kestrel',
    'kestrel we',
    'kestrel db',
    'database lat',
    'kes dat web-3',
    'ünï sin',
    'kestrel zebra',
    'lag queue',
  ];

  it('gives exactly the alerts holding every word, with the total', async () => {
    for (const q of queries)
      await check(
        `q=${encodeURIComponent(q)}`,
        expected((a) => qMatches(a, q)),
      );
    await check(
      'q=kestrel%20web&sort=created_at&direction=asc',
      expected((a) => qMatches(a, 'kestrel web'), 'asc'),
    );
  });

  it('reads old word items (without the word list) as before, and reindex-alerts rewrites them', async () => {
    const group = await readWordEntries(me.accountId, 'kes', 10_000);
    const ids = [...group!.keys()];
    expect(ids.length).toBeGreaterThan(10);
    expect([...group!.values()].every((entry) => typeof entry.listed === 'string')).toBe(true);
    // As stored before the lists: the items of the kes group lose theirs.
    for (const id of ids.filter((_, i) => i % 2 === 0)) {
      await putItem({ pk: `A#${me.accountId}#ALERT#W#kes`, sk: id, w: group!.get(id)!.words, v: 1 });
    }
    expect([...(await readWordEntries(me.accountId, 'kes', 10_000))!.values()].some((entry) => !entry.listed)).toBe(true);
    // Words under 3 characters only filter the page of an old item (its total counts the long words).
    for (const q of queries.filter((q) => wordsOf(q).every((word) => word.length >= 3)))
      await check(
        `q=${encodeURIComponent(q)}`,
        expected((a) => qMatches(a, q)),
      );

    await reindexAlerts(me.accountId);
    expect([...(await readWordEntries(me.accountId, 'kes', 10_000))!.values()].every((entry) => typeof entry.listed === 'string')).toBe(
      true,
    );
    for (const q of queries)
      await check(
        `q=${encodeURIComponent(q)}`,
        expected((a) => qMatches(a, q)),
      );
  });

  it('rewrites every word item when the title changes, so the lists follow the alert', async () => {
    const target = reference.find((a) => qMatches(a, 'kestrel') && !qMatches(a, 'zebra'))!;
    const renamed = await admin.put(`/api/v4/alerts/${target.id}`, { title: `kestrel zebra ${target.title}` });
    expect(renamed.status, renamed.text).toBe(200);
    reference = await everyAlert();
    await check(
      'q=kestrel%20zebra',
      expected((a) => qMatches(a, 'kestrel zebra')),
    );
    expect(expected((a) => qMatches(a, 'kestrel zebra'))).toEqual([target.id]);
    const entry = (await readWordEntries(me.accountId, 'kes', 10_000))!.get(target.id)!;
    expect(entry.listed!.split(' ')).toContain('zebra');
  });
});
