// Where an alert is findable besides its own key, derived in this one place so that every write of
// an alert (create, transition, update, routing, delete, bulk import) keeps them in step. Only the
// alert store files read this file (store.ts, link-store.ts, word-store.ts, created-at-store.ts,
// bulk-store.ts); the table of patterns → keys and files is lib/alerts/ACCESS-PATTERNS.md.
import { createHash } from 'node:crypto';
import { typeOf } from '../entities';
import { partitionOf } from '../store/items';
import type { CountDelta } from '../store/count-delta';
import { bucketGroup, durationBucket } from './duration-histogram';
import { isIncident, teamsOf, type AlertRecord } from './records';

const TYPE = typeOf('alert');

/** Key values longer than this are hashed: an index key may hold at most 2048 bytes, and
 * third-party ids and tags come from senders we do not control. */
const MAX_KEY_VALUE = 256;

function keyValue(value: string): string {
  return value.length <= MAX_KEY_VALUE ? value : `H#${createHash('sha256').update(value).digest('hex')}`;
}

export const alertPartition = (accountId: string) => partitionOf(accountId, TYPE);
export const thirdpartyPartition = (accountId: string, thirdpartyId: string) => `${alertPartition(accountId)}#TP#${keyValue(thirdpartyId)}`;

/** gsi4 (keys only): status, then urgency and id. `status` + `urgency` is one range of one partition,
 * `status` alone the merge of its urgencies' ranges, `urgency` alone the merge of the statuses'. The
 * partition depends on the status alone, so a transition (one UpdateItem that cannot read the
 * urgency) moves it. Status is text, not AlertStatus: list filters pass the query's value as read,
 * and a value that is no status names a partition with nothing in it. */
export const statusUrgencyPartition = (accountId: string, status: string) => `${alertPartition(accountId)}#SU#${status}`;
export const statusUrgencySortKey = (urgency: string, id: string) => `${urgency}#${id}`;
/** Index keys that alerts stored before held (gsi1: status, gsi2: urgency, both copying the whole
 * item): any write that replaces or transitions an alert removes them, and so does reindex-alerts. */
export const FORMER_INDEX_KEYS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'] as const;
/** gsi5: every alert by tiny id (12 digits), gsi6: every alert by `updated_at#id`. */
export const byTinyIdPartition = (accountId: string) => `${alertPartition(accountId)}#BYTINY`;
export const byUpdatePartition = (accountId: string) => `${alertPartition(accountId)}#BYUPD`;
export const tinySortKey = (tinyId: number) => String(tinyId).padStart(12, '0');
export const updateSortKey = (updatedAt: string, id: string) => `${updatedAt}#${id}`;

/** gsi3: third-party id (sparse, sorted by alert id), gsi4: status + urgency (keys only), gsi5: tiny id
 * order, gsi6: updated_at order (keys only both). No whole-item copy but gsi3's, which only alerts
 * with a third-party id have: an alert over 1 KB would pay its size again in each on every write. */
export function alertIndexKeys(alert: AlertRecord): Record<string, string | undefined> {
  return {
    gsi4pk: statusUrgencyPartition(alert.account_id, alert.status),
    gsi4sk: statusUrgencySortKey(alert.urgency, alert.id),
    gsi5pk: alert.tiny_id ? byTinyIdPartition(alert.account_id) : undefined,
    gsi5sk: alert.tiny_id ? tinySortKey(alert.tiny_id) : undefined,
    gsi6pk: byUpdatePartition(alert.account_id),
    gsi6sk: updateSortKey(alert.updated_at, alert.id),
    gsi3pk: alert.thirdparty_id ? thirdpartyPartition(alert.account_id, alert.thirdparty_id) : undefined,
    gsi3sk: alert.thirdparty_id ? alert.id : undefined,
  };
}

/**
 * Link items: one small item per (attribute value, alert) for the attributes an alert can hold
 * several of (teams, tags) or that mark a small subset (incidents, broadcasts). A link partition
 * lists the alert ids with that value, newest last, so a filtered page is one Query + one BatchGet.
 */
export type LinkKind = 'team' | 'tag' | 'incident' | 'subtype' | 'tiny' | 'dteam';

export function linkPartition(accountId: string, kind: LinkKind, value: string): string {
  return `${alertPartition(accountId)}#L#${kind}#${keyValue(value)}`;
}

export interface Link {
  kind: LinkKind;
  value: string;
}

export function linksOf(alert: AlertRecord): Link[] {
  // A destination team's alerts are its `dteam` links (one partition per status, below): the `team`
  // link is written only for the team the alert is assigned to when it is no destination. Alerts
  // stored before hold a `team` link for every team (read beside the dteam links, deduplicated).
  const destinations = new Set(alert.destination_team_ids);
  const links: Link[] = teamsOf(alert)
    .filter((team) => !destinations.has(team))
    .map((value) => ({ kind: 'team', value }));
  for (const tag of new Set(alert.tag_list)) links.push({ kind: 'tag', value: tag });
  if (isIncident(alert)) links.push({ kind: 'incident', value: 'true' });
  if (alert.subtype && alert.subtype !== 'alert') links.push({ kind: 'subtype', value: alert.subtype });
  // No `tiny` link: a path's tiny id finds the alert in gsi5 (alertIdOfTinyId, lib/alerts/store.ts).
  // Alerts stored before hold one (formerTinyLink): read when gsi5 has none, deleted with the alert.
  // A destination team with the alert's status (`destination_team_ids=` + `status=`): moved by transitions.
  for (const team of new Set(alert.destination_team_ids)) links.push({ kind: 'dteam', value: dteamValue(team, alert.status) });
  return links;
}

/** The `tiny` link alerts stored before hold (none is written since: gsi5 gives the same). */
export function formerTinyLink(alert: Pick<AlertRecord, 'tiny_id'>): Link | null {
  return alert.tiny_id ? { kind: 'tiny', value: String(alert.tiny_id) } : null;
}

export const dteamValue = (team: string, status: string) => `${team}#${status}`;

export function linkItem(accountId: string, link: Link, alertId: string) {
  return { pk: linkPartition(accountId, link.kind, link.value), sk: alertId };
}

/** The counter that counts the alerts holding one value of an indexed attribute (none for tags and
 * third-party ids). */
export type IndexKind = 'status' | 'urgency' | 'thirdparty' | 'su' | 'tstatus' | LinkKind;

export const COUNTER: Partial<Record<IndexKind, (value: string) => string>> = {
  status: (v) => `status:${v}`,
  urgency: (v) => `urgency:${v}`,
  team: (v) => `team:${v}`,
  incident: () => 'incident',
  subtype: (v) => `subtype:${v}`,
  /** `<status>#<urgency>` */
  su: (v) => `su:${v}`,
  /** `<destination team>#<status>` */
  dteam: (v) => `dteam:${v}`,
};

/** The counter of alerts assigned to a team that is none of their destinations, by status
 * (`<team>#<status>`): beside `dteam:<team>#<status>`, a team's alerts with a status, exactly. */
export const assignedTeamCounter = (team: string, status: string) => `ateam:${team}#${status}`;

/**
 * The exact counters an alert belongs to besides `total` (lib/store/counters.ts). Tags and
 * third-party ids have no counter: their values are unbounded and would outgrow the counter item;
 * their totals are counted from their (small) index partitions instead.
 */
export function alertCounts(alert: AlertRecord): string[] {
  const counts = [COUNTER.status!(alert.status), COUNTER.urgency!(alert.urgency)];
  for (const team of teamsOf(alert)) counts.push(COUNTER.team!(team));
  if (isIncident(alert)) counts.push(COUNTER.incident!('true'));
  if (alert.subtype && alert.subtype !== 'alert') counts.push(COUNTER.subtype!(alert.subtype));
  counts.push(COUNTER.su!(`${alert.status}#${alert.urgency}`));
  for (const team of new Set(alert.destination_team_ids)) counts.push(COUNTER.dteam!(dteamValue(team, alert.status)));
  if (alert.assigned_team_id && !alert.destination_team_ids.includes(alert.assigned_team_id))
    counts.push(assignedTeamCounter(alert.assigned_team_id, alert.status));
  return counts;
}

// ── the word index (`q`) ──────────────────────────────────────────────────────────────────────

/** Distinct prefix groups written per alert (title words first, then description): the cap on the
 * write amplification of the word index. */
export const MAX_WORD_GROUPS = 6;
/** Words kept per group item, and the length a word is indexed with. */
const MAX_WORDS_PER_GROUP = 8;
const MAX_WORD_LENGTH = 40;
/** A group is a word's first three characters: a `q` word of at least three finds every word it begins. */
export const GROUP_LENGTH = 3;

/** The words of a text: lower-cased runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

export const groupOf = (word: string) => Array.from(word).slice(0, GROUP_LENGTH).join('');

/** The word groups of an alert, group → its words (sorted), at most MAX_WORD_GROUPS groups. */
export function wordGroupsOf(alert: Pick<AlertRecord, 'title' | 'description'>): Map<string, string[]> {
  const groups = new Map<string, Set<string>>();
  for (const word of [...wordsOf(alert.title ?? ''), ...wordsOf(alert.description ?? '')]) {
    // Shorter words are never looked up (a q word under three characters only filters the candidates).
    if (Array.from(word).length < GROUP_LENGTH) continue;
    const group = groupOf(word);
    let words = groups.get(group);
    if (!words) {
      if (groups.size >= MAX_WORD_GROUPS) continue;
      words = new Set();
      groups.set(group, words);
    }
    if (words.size < MAX_WORDS_PER_GROUP) words.add(Array.from(word).slice(0, MAX_WORD_LENGTH).join(''));
  }
  return new Map([...groups].map(([group, words]) => [group, [...words].sort()]));
}

export function wordPartition(accountId: string, group: string): string {
  return `${alertPartition(accountId)}#W#${group}`;
}

/** Words listed on every word item of an alert (`a`), and the bytes they may take in all: an item
 * stays under 1 KB (one write unit) with its key, its group's words and the version. */
export const MAX_LISTED_WORDS = 32;
export const MAX_LISTED_BYTES = 400;

/**
 * The alert's word list, carried by each of its word items so that the other words of a `q` are
 * checked in memory on the longest word's group alone: its distinct words (short ones too), title
 * first, each cut to MAX_WORD_LENGTH characters, until MAX_LISTED_WORDS words or MAX_LISTED_BYTES.
 */
export function wordListOf(alert: Pick<AlertRecord, 'title' | 'description'>): string[] {
  const listed: string[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const whole of [...wordsOf(alert.title ?? ''), ...wordsOf(alert.description ?? '')]) {
    const word = Array.from(whole).slice(0, MAX_WORD_LENGTH).join('');
    if (seen.has(word)) continue;
    const size = Buffer.byteLength(word) + 1;
    if (listed.length >= MAX_LISTED_WORDS || bytes + size > MAX_LISTED_BYTES) break;
    seen.add(word);
    listed.push(word);
    bytes += size;
  }
  return listed;
}

/** The word item of one group of an alert: the alert's words of that group, its whole word list (see
 * wordListOf), and the alert version that wrote it (a later version's write is never undone by an
 * earlier one's cleanup). Items written before the list existed have no `a`. */
export function wordItem(accountId: string, alertId: string, group: string, words: string[], version: number, listed: string[]) {
  // One string (words never hold a space): a fraction of a list's bytes on the wire and in parsing.
  return { pk: wordPartition(accountId, group), sk: alertId, w: words, a: listed.join(' '), v: version };
}

// ── created_at buckets (total_count of a created_at range) ────────────────────────────────────

/** One item per day of creation (UTC), sk `YYYY-MM-DD`: `<HH>#<status>` per hour and `D#<status>` for
 * the whole day, the alerts created then holding that status now. A range sums whole days from the
 * `D#` fields and whole hours from (at most two) day items' hour fields. Month items (sk `YYYY-MM`,
 * `<DD>#<status>`) were written beside them before; they are no longer written, and the counts they
 * hold (frozen when their writes stopped) are added to the day fields', which count every change since
 * as a difference: old month + new day fields is each day's count (created-at-store.ts readMonthDays). */
export const createdMonthPartition = (accountId: string) => `${alertPartition(accountId)}#CM`;
export const createdDayPartition = (accountId: string) => `${alertPartition(accountId)}#CD`;

/** The day item's field counting the day's alerts that hold `status` now. */
export const dayStatusField = (status: string) => `D#${status}`;

export interface BucketField {
  pk: string;
  sk: string;
  field: string;
}

/** The bucket counters an alert is counted in, both fields of its day item (none when its created_at
 * is not a datetime). */
export function createdBucketsOf(alert: Pick<AlertRecord, 'account_id' | 'created_at' | 'status'>): BucketField[] {
  const ms = Date.parse(alert.created_at);
  if (Number.isNaN(ms)) return [];
  const iso = new Date(ms).toISOString();
  if (iso.length !== 24) return []; // years outside 0000..9999
  const day = { pk: createdDayPartition(alert.account_id), sk: iso.slice(0, 10) };
  return [
    { ...day, field: `${iso.slice(11, 13)}#${alert.status}` },
    { ...day, field: dayStatusField(alert.status) },
  ];
}

// ── report aggregates (GET /api/v4/reports/alerts; lib/alerts/ACCESS-PATTERNS.md, "Reports") ───────
// What an alert adds to the reports of its creation day (UTC), as a function of its state, so they
// move with the created_at buckets (the same ADDs, netted before and after a write) and the recount
// rebuilds them from the alerts. The account's figures sit in its day bucket item (beside the hour
// fields, which give created and dropped); each team of the alert (teamsOf: destinations and
// assignment, as the `team:` counters) has an item of its own per day, which also counts created
// (`c`) and dropped (`d`):
//   `a` acknowledged, `as` the sum of their times to acknowledge (ms), `ag<group>` their histogram
//   (four buckets to a number, lib/alerts/duration-histogram.ts); `r`, `rs`, `rg<group>` the same for
//   resolved (times measured from creation). Items written before the groups hold `ah<bucket>` and
//   `rh<bucket>` counters instead, until the recount moves them into groups.
//   team day   A#<acc>#ALERT#RT / <team>#<YYYY-MM-DD>   {c, d, a, as, ag*, r, rs, rg*}

export const reportTeamPartition = (accountId: string) => `${alertPartition(accountId)}#RT`;
export const reportTeamSortKey = (teamId: string, day: string) => `${teamId}#${day}`;

/** A counter field and what an alert adds to it (a histogram group's place can be beyond 2^53). */
export interface CountedField extends BucketField {
  n: CountDelta;
}

/** What the report fields read of an alert: a bare stored item has them, or leaves them out as unset. */
export type ReportCounted = Pick<AlertRecord, 'account_id' | 'created_at' | 'status'> &
  Partial<Pick<AlertRecord, 'acknowledged_at' | 'resolved_at' | 'destination_team_ids' | 'assigned_team_id'>>;

/** The report fields of a duration: its count, its sum, the place of its bucket in its group. */
export const durationCountField = (prefix: 'a' | 'r') => prefix;
export const durationSumField = (prefix: 'a' | 'r') => `${prefix}s`;
export const durationGroupField = (prefix: 'a' | 'r', group: number) => `${prefix}g${group}`;

/** A histogram field of a day item: `ag3` (group 3 of the times to acknowledge) or, as written before
 * the groups, `rh40` (bucket 40 of the times to resolve); null for any other field. */
export function parseHistogramField(field: string): { prefix: 'a' | 'r'; grouped: boolean; index: number } | null {
  const [prefix, kind] = field;
  if ((prefix !== 'a' && prefix !== 'r') || (kind !== 'g' && kind !== 'h') || field.length <= 2) return null;
  const index = Number(field.slice(2));
  return Number.isInteger(index) && index >= 0 ? { prefix, grouped: kind === 'g', index } : null;
}

function durationFields(prefix: 'a' | 'r', createdMs: number, at: string | null | undefined): Record<string, CountDelta> {
  const atMs = at ? Date.parse(at) : Number.NaN;
  if (Number.isNaN(atMs)) return {};
  const ms = Math.max(0, atMs - createdMs);
  const { group, weight } = bucketGroup(durationBucket(ms));
  return { [durationCountField(prefix)]: 1, [durationSumField(prefix)]: ms, [durationGroupField(prefix, group)]: weight };
}

/** The report fields an alert adds to (none when its created_at is not a datetime). */
export function reportFieldsOf(alert: ReportCounted): CountedField[] {
  const createdMs = Date.parse(alert.created_at);
  if (Number.isNaN(createdMs)) return [];
  const day = new Date(createdMs).toISOString();
  if (day.length !== 24) return [];
  const sk = day.slice(0, 10);
  const durations = { ...durationFields('a', createdMs, alert.acknowledged_at), ...durationFields('r', createdMs, alert.resolved_at) };
  const fields: CountedField[] = Object.entries(durations).map(([field, n]) => ({
    pk: createdDayPartition(alert.account_id),
    sk,
    field,
    n,
  }));
  const teams = teamsOf({ destination_team_ids: alert.destination_team_ids ?? [], assigned_team_id: alert.assigned_team_id ?? null });
  for (const team of teams) {
    const key = { pk: reportTeamPartition(alert.account_id), sk: reportTeamSortKey(team, sk) };
    fields.push({ ...key, field: 'c', n: 1 });
    if (alert.status === 'dropped') fields.push({ ...key, field: 'd', n: 1 });
    for (const [field, n] of Object.entries(durations)) fields.push({ ...key, field, n });
  }
  return fields;
}
