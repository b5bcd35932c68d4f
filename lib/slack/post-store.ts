// Data access for the team messages of alerts (lib/slack/ACCESS-PATTERNS.md):
//   team posts   A#<acc>#SLACKPOST / <alert id>    in the due index (lib/store/due-index.ts) as
//                `SLACK#<acc>#<alert>` while a retry is due
// Every write is conditional on the version read, so a worker holding the lease and a change
// marking the record dirty never overwrite each other.
import { dueIndexKeys, listDue } from '../store/due-index';
import { fromItem, getItem, putIfVersion, putNew, type Item } from '../store/items';
import type { TeamPostsRecord } from './records';

const key = (accountId: string, alertId: string) => ({ pk: `A#${accountId}#SLACKPOST`, sk: alertId });

const dueKey = (accountId: string, alertId: string) => `SLACK#${accountId}#${alertId}`;

function parseDueKey(what: string): { account_id: string; alert_id: string } | null {
  const [kind, accountId, alertId, extra] = what.split('#');
  return kind === 'SLACK' && accountId && alertId && extra === undefined ? { account_id: accountId, alert_id: alertId } : null;
}

function itemOf(record: TeamPostsRecord): Item {
  const due = record.due_at === null ? {} : dueIndexKeys(record.due_at, dueKey(record.account_id, record.alert_id));
  return { ...key(record.account_id, record.alert_id), ...record, ...due };
}

export async function getTeamPosts(accountId: string, alertId: string): Promise<TeamPostsRecord | null> {
  const item = await getItem(key(accountId, alertId));
  return item ? fromItem<TeamPostsRecord>(item) : null;
}

/** Writes a new record; false when one exists already. */
export function insertTeamPosts(record: TeamPostsRecord): Promise<boolean> {
  return putNew(itemOf(record));
}

/** Saves `next` over the version before it; false when another write came first. */
export function saveTeamPosts(next: TeamPostsRecord): Promise<boolean> {
  return putIfVersion(itemOf(next), next.version - 1);
}

/** Alerts whose team messages were due again by `upTo` (epoch ms, service clock). */
export async function listDueTeamPosts(upTo: number, perShard: number): Promise<{ account_id: string; alert_id: string }[]> {
  return (await listDue(upTo, perShard)).flatMap((entry) => {
    const due = parseDueKey(entry.what);
    return due ? [due] : [];
  });
}
