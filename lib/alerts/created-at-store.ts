// Alerts by creation time (lib/alerts/ACCESS-PATTERNS.md, "created_at buckets"): the counter items
// that give a created_at range its total, and the id-range queries that read the edges of a range.
//   buckets   A#<acc>#ALERT#CM / <YYYY-MM> {<DD>#<status>: n},  A#<acc>#ALERT#CD / <YYYY-MM-DD> {<HH>#<status>: n}
// Counted like the counters: an ADD right after the alert write they count, beside it (the same
// round trip as the counter ADD), group-committed per bucket item. A crash in between leaves a
// bucket off until the recount (recountCreatedBuckets).
import { ulidBoundsOf } from '../ids';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../store/client';
import { adjustFields, correctFields } from '../store/counters';
import { addToCounterItem } from '../store/grouped-writes';
import { batchGet, fromItem, keyOfItem, keyString, queryAll, queryItems, type Item } from '../store/items';
import {
  alertPartition,
  createdBucketsOf,
  createdDayPartition,
  createdMonthPartition,
  reportFieldsOf,
  reportTeamPartition,
  reportTeamSortKey,
  type ReportCounted,
} from './keys';

/** What the buckets count of an alert: status and created_at are never left out of a stored item (no
 * default), and the report's fields read an absent one as unset, so a bare item reads them. */
type Counted = ReportCounted;

/** Bucket item → field → delta. */
export type BucketDeltas = Map<string, { key: { pk: string; sk: string }; deltas: Record<string, number> }>;

/** Adds (`sign` 1) or takes away (−1) an alert's two bucket fields and its report fields. */
export function addBucketDeltas(into: BucketDeltas, alert: Counted | null, sign: number): void {
  if (!alert) return;
  for (const { pk, sk, field, n } of [...createdBucketsOf(alert).map((bucket) => ({ ...bucket, n: 1 })), ...reportFieldsOf(alert)]) {
    const id = `${pk}|${sk}`;
    let entry = into.get(id);
    if (!entry) into.set(id, (entry = { key: { pk, sk }, deltas: {} }));
    entry.deltas[field] = (entry.deltas[field] ?? 0) + sign * n;
  }
}

function bucketDeltas(before: Counted | null, after: Counted | null): BucketDeltas {
  const deltas: BucketDeltas = new Map();
  addBucketDeltas(deltas, before, -1);
  addBucketDeltas(deltas, after, 1);
  for (const [id, entry] of deltas) {
    for (const [field, n] of Object.entries(entry.deltas)) if (n === 0) delete entry.deltas[field];
    if (Object.keys(entry.deltas).length === 0) deltas.delete(id);
  }
  return deltas;
}

/** Moves the created_at buckets from `before` to `after` (a new alert, a status change, a delete). */
export async function moveBuckets(before: Counted | null, after: Counted | null): Promise<void> {
  await Promise.all([...bucketDeltas(before, after).values()].map(({ key, deltas }) => addToCounterItem(key, deltas)));
}

/** Adds summed deltas at once, one ADD per bucket item (the bulk import). */
export async function addBucketTotals(buckets: BucketDeltas): Promise<void> {
  await Promise.all([...buckets.values()].map(({ key, deltas }) => adjustFields(key, deltas)));
}

export interface CreatedRange {
  /** ISO datetimes, both inclusive (the stored created_at format). */
  from: string;
  to: string;
  /** Alert ids bounding the range: ULIDs carry their creation time (a little slack either side). */
  idFrom: string;
  idTo: string;
  /** Only alerts of this status. */
  status?: string;
}

/**
 * The Query of the alerts of a range: an id range of the alert partition, filtered by created_at (and
 * the status, when one is asked). The alerts' page of a status reads its keys-only gsi4 partition
 * instead (listAlertsCreatedIn); this Query counts the partial hours at a range's edges, where every
 * alert of those hours is read whatever its status: the index holds no created_at to filter on.
 */
export function createdRangeQuery(accountId: string, range: CreatedRange) {
  const byStatus = range.status !== undefined;
  return {
    TableName: tableName(),
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :a AND :b',
    FilterExpression: byStatus ? '#created BETWEEN :from AND :to AND #status = :status' : '#created BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#created': 'created_at', ...(byStatus ? { '#status': 'status' } : {}) },
    ExpressionAttributeValues: {
      ':pk': alertPartition(accountId),
      ':a': range.idFrom,
      ':b': range.idTo,
      ':from': range.from,
      ':to': range.to,
      ...(byStatus ? { ':status': range.status } : {}),
    },
    ConsistentRead: true,
  };
}

/** COUNT Queries of an id range (cost: the alerts in it): the partial hours at a range's edges. */
async function countCreatedByQuery(accountId: string, range: CreatedRange): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...createdRangeQuery(accountId, range), Select: 'COUNT', ExclusiveStartKey: startKey }));
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey as Record<string, unknown> | undefined;
  } while (startKey);
  return count;
}

/** Slack between an alert's created_at and the time in its ULID (both taken when it is created;
 * importAlerts callers keep them this close). */
export const CREATED_SLACK_MS = 60_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The part [fromMs, toMs] (inclusive) of a range, as an id range with the slack. */
function subRange(range: CreatedRange, fromMs: number, toMs: number): CreatedRange {
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    idFrom: ulidBoundsOf(fromMs - CREATED_SLACK_MS).low,
    idTo: ulidBoundsOf(toMs + CREATED_SLACK_MS).high,
    status: range.status,
  };
}

/** Sums the bucket fields `<unit>#<status>` whose unit (day or hour) starts in [fromMs, toMs). */
function sumBuckets(item: Item | undefined, unitStart: (unit: string) => number, fromMs: number, toMs: number, status?: string): number {
  let sum = 0;
  for (const [field, value] of Object.entries(item ?? {})) {
    if (typeof value !== 'number') continue;
    const at = field.indexOf('#');
    if (at < 0 || (status !== undefined && field.slice(at + 1) !== status)) continue;
    const start = unitStart(field.slice(0, at));
    if (start >= fromMs && start < toMs) sum += value;
  }
  return sum;
}

/**
 * How many alerts were created in a range (optionally of one status), from the created_at buckets:
 * whole days from the month items (one Query of the months the range covers), whole hours from at
 * most two day items (one BatchGet), and only the partial hours at the two edges counted from the
 * alerts (COUNT Queries of those hours). All of it in parallel: one round trip deep, and the cost
 * is the months of the range plus two hours of alerts, whatever the account holds.
 */
export async function countAlertsCreatedIn(accountId: string, range: CreatedRange): Promise<number> {
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to);
  if (!(fromMs <= toMs)) return 0;
  // Whole hours [firstHour, endHour); what lies outside them is at most two partial hours.
  const firstHour = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const endHour = Math.floor((toMs + 1) / HOUR_MS) * HOUR_MS;
  if (firstHour >= endHour) return countCreatedByQuery(accountId, range);
  const parts: Array<Promise<number>> = [];
  if (fromMs < firstHour) parts.push(countCreatedByQuery(accountId, subRange(range, fromMs, firstHour - 1)));
  if (endHour <= toMs) parts.push(countCreatedByQuery(accountId, subRange(range, endHour, toMs)));

  // Whole days [firstDay, endDay) from the month items; the whole hours around them from day items.
  const firstDay = Math.ceil(firstHour / DAY_MS) * DAY_MS;
  const endDay = Math.floor(endHour / DAY_MS) * DAY_MS;
  const hourSpans: Array<[number, number]> = [];
  if (firstDay < endDay) {
    if (firstHour < firstDay) hourSpans.push([firstHour, firstDay]);
    if (endDay < endHour) hourSpans.push([endDay, endHour]);
  } else {
    // No whole day: the hours lie in one day or across one midnight.
    const midnight = Math.floor(firstHour / DAY_MS) * DAY_MS + DAY_MS;
    if (midnight < endHour) hourSpans.push([firstHour, midnight], [midnight, endHour]);
    else hourSpans.push([firstHour, endHour]);
  }
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (hourSpans.length > 0) {
    parts.push(
      batchGet(hourSpans.map(([start]) => ({ pk: createdDayPartition(accountId), sk: dayOf(start) }))).then((found) => {
        let sum = 0;
        for (const [start, end] of hourSpans) {
          const day = dayOf(start);
          const midnight = Date.parse(`${day}T00:00:00.000Z`);
          const item = found.get(`${createdDayPartition(accountId)}|${day}`);
          sum += sumBuckets(item, (hour) => midnight + Number(hour) * HOUR_MS, start, end, range.status);
        }
        return sum;
      }),
    );
  }
  if (firstDay < endDay) {
    const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);
    parts.push(
      queryItems(createdMonthPartition(accountId), { skBetween: [monthOf(firstDay), monthOf(endDay - 1)] }).then((months) => {
        let sum = 0;
        for (const item of months) {
          const month = String(item.sk);
          sum += sumBuckets(item, (day) => Date.parse(`${month}-${day}T00:00:00.000Z`), firstDay, endDay, range.status);
        }
        return sum;
      }),
    );
  }
  const counted = (await Promise.all(parts)).reduce((a, b) => a + b, 0);
  return Math.max(0, counted);
}

/** Times from creation of the alerts of a day that reached a state: how many, their sum, their histogram. */
export interface DurationFigures {
  count: number;
  sumMs: number;
  /** durationBucket (./duration-histogram.ts) → count. */
  histogram: Map<number, number>;
}

/** What the alerts created on one UTC day (of the account, or of one team) have come to. */
export interface DayFigures {
  day: string;
  created: number;
  dropped: number;
  acknowledged: DurationFigures;
  resolved: DurationFigures;
}

function durationFiguresOf(item: Item, prefix: 'a' | 'r'): DurationFigures {
  const histogram = new Map<number, number>();
  const bucketField = new RegExp(`^${prefix}h(\\d+)$`);
  for (const [field, value] of Object.entries(item)) {
    const match = bucketField.exec(field);
    if (match && typeof value === 'number' && value > 0) histogram.set(Number(match[1]), value);
  }
  const number = (field: string) => (typeof item[field] === 'number' ? Math.max(0, item[field]) : 0);
  return { count: number(prefix), sumMs: number(`${prefix}s`), histogram };
}

/**
 * The report figures of the days [fromDay, toDay] (`YYYY-MM-DD`, UTC) that hold alerts: the account's
 * from its day bucket items (created and dropped summed from the hour fields), a team's from its own
 * day items. One Query either way: the days of the range, whatever the account holds. (A projection
 * of the report fields alone, ~230 attribute names, made dynalite slower per item than reading the
 * whole items: npm run bench reports.)
 */
export async function readReportDays(accountId: string, fromDay: string, toDay: string, teamId?: string): Promise<DayFigures[]> {
  if (teamId !== undefined) {
    const items = await queryItems(reportTeamPartition(accountId), {
      skBetween: [reportTeamSortKey(teamId, fromDay), reportTeamSortKey(teamId, toDay)],
    });
    return items.map((item) => ({
      day: String(item.sk).slice(-10),
      created: typeof item.c === 'number' ? Math.max(0, item.c) : 0,
      dropped: typeof item.d === 'number' ? Math.max(0, item.d) : 0,
      acknowledged: durationFiguresOf(item, 'a'),
      resolved: durationFiguresOf(item, 'r'),
    }));
  }
  const items = await queryItems(createdDayPartition(accountId), { skBetween: [fromDay, toDay] });
  return items.map((item) => {
    let created = 0;
    let dropped = 0;
    for (const [field, value] of Object.entries(item)) {
      const at = field.indexOf('#');
      if (at < 0 || typeof value !== 'number') continue;
      created += value;
      if (field.slice(at + 1) === 'dropped') dropped += value;
    }
    return {
      day: String(item.sk),
      created: Math.max(0, created),
      dropped: Math.max(0, dropped),
      acknowledged: durationFiguresOf(item, 'a'),
      resolved: durationFiguresOf(item, 'r'),
    };
  });
}

/**
 * Recomputes the created_at buckets of an account from its alerts and corrects those found off (the
 * recount of lib/store/recount.ts for these items: two readings that must agree, then conditional
 * ADDs of the differences). Returns the fields corrected, or null when the alerts kept moving.
 */
export async function recountCreatedBuckets(
  accountId: string,
  options: { settleMs?: number; attempts?: number } = {},
): Promise<{ status: 'exact' | 'repaired' | 'busy'; corrections: Record<string, { was: number; now: number }> }> {
  const read = async () => {
    const counted: BucketDeltas = new Map();
    const stored = new Map<string, Item>();
    await Promise.all([
      (async () => {
        for await (const item of queryAll(alertPartition(accountId))) addBucketDeltas(counted, fromItem<Counted>(item), 1);
      })(),
      ...[createdMonthPartition(accountId), createdDayPartition(accountId), reportTeamPartition(accountId)].map(async (partition) => {
        for (const item of await queryItems(partition)) stored.set(keyString(keyOfItem(item)), item);
      }),
    ]);
    const off = new Map<string, { key: { pk: string; sk: string }; fields: Record<string, { was: number; now: number }> }>();
    for (const id of new Set([...counted.keys(), ...stored.keys()])) {
      const [pk, sk] = [id.slice(0, id.indexOf('|')), id.slice(id.indexOf('|') + 1)];
      const want = counted.get(id)?.deltas ?? {};
      const have = stored.get(id) ?? {};
      const fields: Record<string, { was: number; now: number }> = {};
      for (const field of new Set([...Object.keys(want), ...Object.keys(have)])) {
        if (field === 'pk' || field === 'sk') continue;
        const was = typeof have[field] === 'number' ? have[field] : 0;
        const now = want[field] ?? 0;
        if (was !== now) fields[field] = { was, now };
      }
      if (Object.keys(fields).length > 0) off.set(id, { key: { pk, sk }, fields });
    }
    return off;
  };
  const flat = (off: Awaited<ReturnType<typeof read>>) => {
    const out: Record<string, { was: number; now: number }> = {};
    for (const { key, fields } of off.values()) for (const [field, change] of Object.entries(fields)) out[`${key.sk} ${field}`] = change;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  let found: Record<string, { was: number; now: number }> = {};
  for (let attempt = 0; attempt < (options.attempts ?? 3); attempt++) {
    const first = await read();
    found = flat(first);
    if (first.size === 0) return { status: 'exact', corrections: {} };
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 1_000));
    const again = await read();
    if (JSON.stringify(flat(again)) !== JSON.stringify(found)) continue;
    const done = await Promise.all([...first.values()].map(({ key, fields }) => correctFields(key, fields)));
    if (done.every(Boolean)) return { status: 'repaired', corrections: found };
  }
  return { status: 'busy', corrections: found };
}
