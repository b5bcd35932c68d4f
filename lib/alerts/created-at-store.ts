// Alerts by creation time (lib/alerts/ACCESS-PATTERNS.md, "created_at buckets"): the counter items
// that give a created_at range its total, and the id-range queries that read the edges of a range.
//   buckets   A#<acc>#ALERT#CD / <YYYY-MM-DD> {<HH>#<status>: n, D#<status>: n}
//             A#<acc>#ALERT#CM / <YYYY-MM> {<DD>#<status>: n}: written before, read (frozen) beside the day fields
// Counted like the counters: an ADD right after the alert write they count, beside it (the same
// round trip as the counter ADD), group-committed per bucket item. A crash in between leaves a
// bucket off until the recount (recountCreatedBuckets).
import { ulidBoundsOf } from '../ids';
import { QueryCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { isZeroDelta, sameDelta, scaleDelta, storedDelta, sumDeltas, type CountDelta } from '../store/count-delta';
import { adjustFields, correctFields } from '../store/counters';
import { addToCounterItem } from '../store/grouped-writes';
import {
  batchGet,
  fromItem,
  keyOfItem,
  keyString,
  queryAll,
  queryItems,
  queryRanges,
  splitDayRange,
  type Item,
  type Key,
} from '../store/items';
import { addGroupCounts, LAST_GROUP } from './duration-histogram';
import {
  alertPartition,
  createdBucketsOf,
  createdDayPartition,
  createdMonthPartition,
  dayStatusField,
  durationCountField,
  durationGroupField,
  durationSumField,
  parseHistogramField,
  reportFieldsOf,
  reportTeamPartition,
  reportTeamSortKey,
  type ReportCounted,
} from './keys';
import { ALERT_STATUSES } from './records';

/** What the buckets count of an alert: status and created_at are never left out of a stored item (no
 * default), and the report's fields read an absent one as unset, so a bare item reads them. */
type Counted = ReportCounted;

/** Bucket item → field → delta. */
export type BucketDeltas = Map<string, { key: { pk: string; sk: string }; deltas: Record<string, CountDelta> }>;

/** Adds (`sign` 1) or takes away (−1) an alert's two bucket fields and its report fields. */
export function addBucketDeltas(into: BucketDeltas, alert: Counted | null, sign: number): void {
  if (!alert) return;
  for (const { pk, sk, field, n } of [...createdBucketsOf(alert).map((bucket) => ({ ...bucket, n: 1 })), ...reportFieldsOf(alert)]) {
    const id = `${pk}|${sk}`;
    let entry = into.get(id);
    if (!entry) into.set(id, (entry = { key: { pk, sk }, deltas: {} }));
    entry.deltas[field] = sumDeltas(entry.deltas[field], scaleDelta(n, sign));
  }
}

function bucketDeltas(before: Counted | null, after: Counted | null): BucketDeltas {
  const deltas: BucketDeltas = new Map();
  addBucketDeltas(deltas, before, -1);
  addBucketDeltas(deltas, after, 1);
  for (const [id, entry] of deltas) {
    for (const [field, n] of Object.entries(entry.deltas)) if (isZeroDelta(n)) delete entry.deltas[field];
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
    const unit = field.slice(0, at);
    if (!/^\d+$/.test(unit)) continue; // the day's own fields (`D#<status>`)
    const start = unitStart(unit);
    if (start >= fromMs && start < toMs) sum += value;
  }
  return sum;
}

/**
 * How many alerts were created in a range (optionally of one status), from the created_at buckets:
 * whole days from the day items' `D#<status>` fields (a Query of the range's days, projected to them,
 * beside one of the months written before: readCreatedPerDay), whole hours from at most two day items
 * (one BatchGet), and only the partial hours at the two edges counted from the alerts (COUNT Queries
 * of those hours). All of it in parallel: one round trip deep, and the cost is the days of the range
 * that hold alerts plus two hours of alerts, whatever the account holds.
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
    parts.push(
      readCreatedPerDay(accountId, dayOf(firstDay), dayOf(endDay - 1), range.status).then((days) => {
        let sum = 0;
        for (const statuses of days.values()) for (const n of statuses.values()) sum += n;
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

const DURATIONS = ['a', 'r'] as const;
/** The attributes of a day item a report reads: the counts, sums and histogram groups (never the hour
 * fields nor the write tokens, which a busy day item holds five times as many of). */
const DURATION_FIELDS = DURATIONS.flatMap((prefix) => [
  durationCountField(prefix),
  durationSumField(prefix),
  ...Array.from({ length: LAST_GROUP + 1 }, (_, group) => durationGroupField(prefix, group)),
]);

const amountOf = (value: unknown): number => {
  const n = storedDelta(value);
  return n === null ? 0 : Math.max(0, Number(n));
};

type Durations = Pick<DayFigures, 'acknowledged' | 'resolved'>;

/**
 * A day item's durations, both kinds in one pass over its fields. `legacy` also reads the
 * one-counter-per-bucket fields of items written before the histogram groups (`ah<bucket>`,
 * `rh<bucket>`), which a report asks for only when the groups do not add up to the counts
 * (readDurations).
 */
function durationsOf(item: Item, legacy = false): Durations {
  const figures = { a: new Map<number, number>(), r: new Map<number, number>() };
  for (const [field, value] of Object.entries(item)) {
    const histogramField = parseHistogramField(field);
    const n = histogramField && storedDelta(value);
    if (!histogramField || n === null) continue;
    const histogram = figures[histogramField.prefix];
    if (histogramField.grouped) addGroupCounts(histogram, histogramField.index, n);
    else if (legacy) histogram.set(histogramField.index, (histogram.get(histogramField.index) ?? 0) + Number(n));
  }
  const of = (prefix: 'a' | 'r'): DurationFigures => ({
    count: amountOf(item[durationCountField(prefix)]),
    sumMs: amountOf(item[durationSumField(prefix)]),
    histogram: figures[prefix],
  });
  return { acknowledged: of('a'), resolved: of('r') };
}

const histogramTotal = (figures: DurationFigures) => [...figures.histogram.values()].reduce((sum, n) => sum + n, 0);

/**
 * The durations of each day item read (projected to DURATION_FIELDS), by sort key: an item whose groups
 * do not add up to its counts still holds counters of the one-per-bucket format (alerts counted before
 * the groups, the recount not run since), and is read again whole, both formats summed.
 */
async function readDurations(items: Item[]): Promise<Map<string, Durations>> {
  const out = new Map<string, Durations>();
  const legacy: Key[] = [];
  for (const item of items) {
    const durations = durationsOf(item);
    out.set(String(item.sk), durations);
    const { acknowledged: a, resolved: r } = durations;
    if (histogramTotal(a) !== a.count || histogramTotal(r) !== r.count) legacy.push(keyOfItem(item));
  }
  if (legacy.length > 0) for (const item of (await batchGet(legacy)).values()) out.set(String(item.sk), durationsOf(item, true));
  return out;
}

/** A long range's day items are read in up to three Queries of consecutive days side by side. */
const reportDayRanges = (fromDay: string, toDay: string) => splitDayRange(fromDay, toDay, 3, 10);

/** Day → status → alerts created that day holding it now. */
type CreatedPerDay = Map<string, Map<string, number>>;

const STATUS_FIELDS = ALERT_STATUSES.map(dayStatusField);

function addCreated(into: CreatedPerDay, day: string, status: string, value: unknown): void {
  const n = storedDelta(value);
  if (n === null) return;
  let statuses = into.get(day);
  if (!statuses) into.set(day, (statuses = new Map<string, number>()));
  statuses.set(status, (statuses.get(status) ?? 0) + Number(n));
}

/** Adds the `D#<status>` fields of day items (read whole or projected to them). */
function addDayItems(into: CreatedPerDay, items: Item[], status?: string): void {
  for (const item of items) {
    for (const field of status === undefined ? STATUS_FIELDS : [dayStatusField(status)]) {
      if (item[field] !== undefined) addCreated(into, String(item.sk), field.slice(2), item[field]);
    }
  }
}

/**
 * The month items' `<DD>#<status>` fields of [fromDay, toDay]. No longer written: each holds its
 * days' counts as they stood when the day items took over, and the day items' `D#` fields count every
 * change since as a difference (an alert counted here and acknowledged since: −1 open, +1
 * acknowledged there), so the two added are each day's count. `npm run admin -- recount` moves them
 * into the day items (it counts the alerts into the day fields and the month fields down to 0).
 */
async function readMonthDays(accountId: string, fromDay: string, toDay: string, status?: string): Promise<CreatedPerDay> {
  const months = await queryItems(createdMonthPartition(accountId), { skBetween: [fromDay.slice(0, 7), toDay.slice(0, 7)] });
  const days: CreatedPerDay = new Map();
  for (const item of months) {
    const month = String(item.sk);
    for (const [field, value] of Object.entries(item)) {
      if (field.indexOf('#') !== 2 || (status !== undefined && field.slice(3) !== status)) continue;
      const day = `${month}-${field.slice(0, 2)}`;
      if (day >= fromDay && day <= toDay) addCreated(days, day, field.slice(3), value);
    }
  }
  return days;
}

/** Day → status → alerts created that day holding it now, for [fromDay, toDay] (of one status when
 * given): the day items' `D#` fields beside the month items written before, one Query each. */
async function readCreatedPerDay(accountId: string, fromDay: string, toDay: string, status?: string): Promise<CreatedPerDay> {
  const fields = status === undefined ? STATUS_FIELDS : [dayStatusField(status)];
  const [days, items] = await Promise.all([
    readMonthDays(accountId, fromDay, toDay, status),
    queryRanges(createdDayPartition(accountId), reportDayRanges(fromDay, toDay), { project: ['sk', ...fields] }),
  ]);
  addDayItems(days, items, status);
  return days;
}

/**
 * The report figures of the days [fromDay, toDay] (`YYYY-MM-DD`, UTC) that hold alerts, whatever the
 * account holds. A team's from its own day items; the account's from the month items (created and
 * dropped: three or four for a quarter) and, side by side, the day bucket items projected to their
 * report fields. Day items of a month or more are read in up to three Queries side by side. The day items' hour fields and write tokens
 * stay in DynamoDB: on the embedded emulator a report that read them whole took 4–11× as long at
 * 100 000 alerts as at 100, most of it parsing and unmarshalling ~185 attributes a day.
 */
export async function readReportDays(accountId: string, fromDay: string, toDay: string, teamId?: string): Promise<DayFigures[]> {
  if (teamId !== undefined) {
    const ranges = reportDayRanges(fromDay, toDay).map(([from, to]): [string, string] => [
      reportTeamSortKey(teamId, from),
      reportTeamSortKey(teamId, to),
    ]);
    const items = await queryRanges(reportTeamPartition(accountId), ranges, { project: ['pk', 'sk', 'c', 'd', ...DURATION_FIELDS] });
    const durations = await readDurations(items);
    return items.map((item) => ({
      day: String(item.sk).slice(-10),
      created: amountOf(item.c),
      dropped: amountOf(item.d),
      ...durations.get(String(item.sk))!,
    }));
  }
  // The day items' report fields and `D#` fields in one read, beside the month items written before.
  const [created, items] = await Promise.all([
    readMonthDays(accountId, fromDay, toDay),
    queryRanges(createdDayPartition(accountId), reportDayRanges(fromDay, toDay), {
      project: ['pk', 'sk', ...DURATION_FIELDS, ...STATUS_FIELDS],
    }),
  ]);
  addDayItems(created, items);
  const byDay = await readDurations(items);
  const empty = (): DurationFigures => ({ count: 0, sumMs: 0, histogram: new Map() });
  return [...new Set([...created.keys(), ...byDay.keys()])].sort().map((day) => {
    const statuses = created.get(day);
    return {
      day,
      created: Math.max(
        0,
        [...(statuses?.values() ?? [])].reduce((a, b) => a + b, 0),
      ),
      dropped: Math.max(0, statuses?.get('dropped') ?? 0),
      ...(byDay.get(day) ?? { acknowledged: empty(), resolved: empty() }),
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
        for await (const item of queryAll(alertPartition(accountId))) {
          // Alert items leave out their account (the key holds it).
          addBucketDeltas(counted, { ...fromItem<Counted>(item), account_id: accountId }, 1);
        }
      })(),
      // Month items are no longer written: read so that the counts they hold are moved into the day items.
      ...[createdMonthPartition(accountId), createdDayPartition(accountId), reportTeamPartition(accountId)].map(async (partition) => {
        for (const item of await queryItems(partition)) stored.set(keyString(keyOfItem(item)), item);
      }),
    ]);
    const off = new Map<string, { key: { pk: string; sk: string }; fields: Record<string, { was: CountDelta; now: CountDelta }> }>();
    for (const id of new Set([...counted.keys(), ...stored.keys()])) {
      const [pk, sk] = [id.slice(0, id.indexOf('|')), id.slice(id.indexOf('|') + 1)];
      const want = counted.get(id)?.deltas ?? {};
      const have = stored.get(id) ?? {};
      const fields: Record<string, { was: CountDelta; now: CountDelta }> = {};
      for (const field of new Set([...Object.keys(want), ...Object.keys(have)])) {
        if (field === 'pk' || field === 'sk') continue;
        const was = storedDelta(have[field]) ?? 0;
        const now = want[field] ?? 0;
        if (!sameDelta(was, now)) fields[field] = { was, now };
      }
      if (Object.keys(fields).length > 0) off.set(id, { key: { pk, sk }, fields });
    }
    return off;
  };
  // What was found off, as the operator reads it: a histogram group's difference per bucket it holds.
  const flat = (off: Awaited<ReturnType<typeof read>>) => {
    const out: Record<string, { was: number; now: number }> = {};
    for (const { key, fields } of off.values()) {
      for (const [field, { was, now }] of Object.entries(fields)) {
        const histogramField = parseHistogramField(field);
        if (!histogramField?.grouped) {
          out[`${key.sk} ${field}`] = { was: Number(was), now: Number(now) };
          continue;
        }
        const [before, after] = [new Map<number, number>(), new Map<number, number>()];
        addGroupCounts(before, histogramField.index, was);
        addGroupCounts(after, histogramField.index, now);
        for (const bucket of new Set([...before.keys(), ...after.keys()])) {
          const change = { was: before.get(bucket) ?? 0, now: after.get(bucket) ?? 0 };
          if (change.was !== change.now) out[`${key.sk} ${field}:${bucket}`] = change;
        }
      }
    }
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
