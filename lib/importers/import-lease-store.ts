// One import that writes at a time per account (lib/importers/ACCESS-PATTERNS.md). Two runs at once
// would each find no mapping for a source object and each make it: two copies of every person,
// team and schedule. It happens without anyone meaning it: the console tells an admin whose run
// outlived API Gateway's 29 s to run it again, while the first run goes on in its function. A run
// that writes takes the lease first and gives it back when done; a crashed run's lease lapses after
// the longest a run may last (the imports function's 900 s timeout, and a margin).
//   A#<acc>#IMPORT / ~lease   {until, run, started_at, by}
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '../store/commands';
import { now } from '../clock';
import { Conflict } from '../http/errors';
import { db, tableName } from '../store/client';
import { getItem, isConditionFailure } from '../store/items';

export const IMPORT_LEASE_MS = 16 * 60_000;

// `~` sorts after every source name, so the mappings' `begins_with(sk, "<source>#")` never meets it.
const leaseKey = (accountId: string) => ({ pk: `A#${accountId}#IMPORT`, sk: '~lease' });

export interface ImportLease {
  release(): Promise<void>;
}

/** Takes the account's import lease for `by` (a name for the 409 another run gets), or throws 409. */
export async function takeImportLease(accountId: string, by: string): Promise<ImportLease> {
  const run = randomUUID();
  const startedAt = now();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...leaseKey(accountId), until: startedAt + IMPORT_LEASE_MS, run, started_at: new Date(startedAt).toISOString(), by },
        ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':now': startedAt },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const held = (await getItem(leaseKey(accountId))) as { started_at?: string; by?: string } | null;
    throw new Conflict(
      `an import into this account is already running (started ${held?.started_at ?? 'moments ago'} by ${held?.by ?? 'another admin'}); ` +
        'run it again when that one has finished: a second run at the same time would make every object twice',
    );
  }
  return {
    async release() {
      try {
        await db().send(
          new DeleteCommand({
            TableName: tableName(),
            Key: leaseKey(accountId),
            ConditionExpression: '#run = :run',
            ExpressionAttributeNames: { '#run': 'run' },
            ExpressionAttributeValues: { ':run': run },
          }),
        );
      } catch (error) {
        // Lapsed and taken by a later run: that lease is not ours to end.
        if (!isConditionFailure(error)) throw error;
      }
    },
  };
}
