// Whole-account writes of alerts, outside any request: the operator's reindex (`npm run admin --
// reindex-alerts`: what the lists need besides each alert, rewritten from the alert) and the bulk
// import (seeding, migrations, the benchmarks). Each writes what the per-alert store files write one
// alert at a time: the alert item (lib/alerts/store.ts), its links (link-store.ts), its word items
// (word-store.ts), its counters and created_at buckets (created-at-store.ts).
import { UpdateCommand } from '../store/commands';
import { db, tableName } from '../store/client';
import { adjustCounts } from '../store/counters';
import { batchWrite, isConditionFailure, queryAll, type WriteRequest } from '../store/items';
import { addBucketDeltas, addBucketTotals, type BucketDeltas } from './created-at-store';
import { alertCounts, alertIndexKeys, alertPartition, FORMER_INDEX_KEYS } from './keys';
import { linkRequests, rewriteLinks } from './link-store';
import type { AlertRecord } from './records';
import { ALERT_TYPE, alertItem, alertKey, decodeAlert } from './store';
import { rewriteAllWordItems, wordItemRequests } from './word-store';

/**
 * Rewrites, for every alert of the account, what its lists need besides the alert: the index keys of
 * the alert item (gsi4..gsi6 for alerts stored before they existed, and without the gsi1/gsi2 keys
 * alerts held before the status and urgency lists moved to gsi4; on condition of the version read),
 * its links (and no `dteam` link of another status) and its word items (never over a later version's).
 * The migration to new indexes, and the repair after a crash between an alert write and its links.
 * Counters are the recount's. Returns how many alerts it read.
 */
export async function reindexAlerts(accountId: string): Promise<number> {
  let count = 0;
  for await (const item of queryAll(alertPartition(accountId))) {
    const alert = decodeAlert(item);
    count++;
    const keys = Object.entries(alertIndexKeys(alert)).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = { '#version': 'version' };
    const values: Record<string, unknown> = { ':v': alert.version };
    keys.forEach(([name, value], i) => {
      names[`#k${i}`] = name;
      values[`:k${i}`] = value;
    });
    await Promise.all([
      db()
        .send(
          new UpdateCommand({
            TableName: tableName(),
            Key: alertKey(accountId, alert.id),
            // The former gsi1/gsi2 keys go: their whole-item copies are read by nothing now.
            UpdateExpression: `SET ${keys.map((_, i) => `#k${i} = :k${i}`).join(', ')} REMOVE ${FORMER_INDEX_KEYS.join(', ')}`,
            ConditionExpression: '#version = :v',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        }),
      rewriteLinks(alert),
      rewriteAllWordItems(alert),
    ]);
  }
  return count;
}

/**
 * Writes many new alerts at once (seeding, migrations): BatchWrite of the alerts and their links,
 * then one counter update with the summed deltas (and one per created_at bucket item), so the exact
 * counters stay right. No timeline logs and no routing: the alerts are stored as given. Ids must be new.
 */
export async function importAlerts(accountId: string, alerts: AlertRecord[]): Promise<void> {
  const requests: WriteRequest[] = [];
  const deltas: Record<string, number> = {};
  const buckets: BucketDeltas = new Map();
  for (const alert of alerts) {
    if (alert.account_id !== accountId) throw new Error('importAlerts: alert of another account');
    requests.push({ PutRequest: { Item: alertItem(alert) } });
    requests.push(...linkRequests(null, alert));
    requests.push(...wordItemRequests(alert));
    for (const name of ['total', ...alertCounts(alert)]) deltas[name] = (deltas[name] ?? 0) + 1;
    addBucketDeltas(buckets, alert, 1);
  }
  await batchWrite(requests);
  await Promise.all([adjustCounts(accountId, ALERT_TYPE, deltas), addBucketTotals(buckets)]);
}
