// Data access for the team messages of alerts (lib/slack/ACCESS-PATTERNS.md):
//   team posts   A#<acc>#SLACKPOST / <alert id>    gsi2: SLACK#DUE#<shard 0..7> / <due ISO>#<acc>#<alert>  (only while a retry is due)
// Every write is conditional on the version read, so a worker holding the lease and a change
// marking the record dirty never overwrite each other.
import { fromItem, getItem, putIfVersion, putNew, queryItems, type Item } from '../store/items';
import type { TeamPostsRecord } from './records';

export const DUE_SHARDS = 8;

const key = (accountId: string, alertId: string) => ({ pk: `A#${accountId}#SLACKPOST`, sk: alertId });

function shardOf(alertId: string): number {
  let sum = 0;
  for (let i = alertId.length - 6; i < alertId.length; i++) sum += alertId.charCodeAt(i);
  return sum % DUE_SHARDS;
}

function itemOf(record: TeamPostsRecord): Item {
  const due =
    record.due_at === null
      ? {}
      : {
          gsi2pk: `SLACK#DUE#${shardOf(record.alert_id)}`,
          gsi2sk: `${new Date(record.due_at).toISOString()}#${record.account_id}#${record.alert_id}`,
        };
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

/** Records whose retry was due by `upTo` (epoch ms), oldest first, at most `perShard` of each shard. */
export async function listDueTeamPosts(upTo: number, perShard: number): Promise<{ account_id: string; alert_id: string }[]> {
  const bound = `${new Date(upTo).toISOString()}#~`;
  const shards = await Promise.all(
    Array.from({ length: DUE_SHARDS }, (_, shard) =>
      queryItems(`SLACK#DUE#${shard}`, { index: 'gsi2', skBetween: ['0', bound], limit: perShard }),
    ),
  );
  return shards.flat().map((item) => ({ account_id: String(item.account_id), alert_id: String(item.alert_id) }));
}
