// The due index (lib/store/due-index.ts): items made due before the move to gsi5 carry their keys in
// gsi3, which listDue reads beside gsi5 until none is left there; a process that finds none left
// reads gsi3 again only FORMER_INDEX_RECHECK_MS later (service clock), so a sweep's seven listDue do
// not query its sixteen shards for nothing every minute.
import { describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand } from '../../lib/store/commands';
import { db, tableName } from '../../lib/store/client';
import { FORMER_INDEX_RECHECK_MS, listDue } from '../../lib/store/due-index';
import { newId } from '../../lib/ids';
import { dynamoCallsDuring } from '../support/aws-calls';
import { testClock } from '../support/dependencies';
import { useService } from '../support/runtime';

useService(() => Promise.resolve());

/** An item a former version made due: its due keys in gsi3 only (no owner handles `TESTDUE#…`). */
async function formerDueItem(dueAt: number): Promise<{ what: string; remove: () => Promise<void> }> {
  const what = `TESTDUE#${newId()}`;
  const key = { pk: what, sk: '#' };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...key, gsi3pk: 'DUE#3', gsi3sk: `${String(dueAt).padStart(15, '0')}#${what}` },
    }),
  );
  return {
    what,
    remove: () =>
      db()
        .send(new DeleteCommand({ TableName: tableName(), Key: key }))
        .then(() => undefined),
  };
}

/** Past whatever this process presumed of the former index before (a sweep, an earlier test whose
 * moved clock was reset since, both within two hours of wall time). */
const pastEarlierPresumptions = () => testClock.advance(3 * FORMER_INDEX_RECHECK_MS);

const formerQueries = async (run: () => Promise<unknown>) =>
  (await dynamoCallsDuring(run)).calls.filter((call) => call.operation === 'Query' && call.input.IndexName === 'gsi3').length;

describe('the due index', () => {
  it('reads the former index while it holds a due key (due now or later), and once found without any, not again for an hour', async () => {
    const first = await formerDueItem(testClock.now() - 1_000);
    pastEarlierPresumptions();
    let found: Awaited<ReturnType<typeof listDue>> = [];
    expect(await formerQueries(async () => (found = await listDue(testClock.now(), 50)))).toBeGreaterThan(0);
    expect(found.map((entry) => entry.what)).toContain(first.what);
    // Still there: read again.
    expect(await formerQueries(() => listDue(testClock.now(), 50))).toBeGreaterThan(0);

    // Gone: the next read finds none due and none at all, and the reads after it ask gsi3 nothing.
    await first.remove();
    expect(await formerQueries(() => listDue(testClock.now(), 50))).toBeGreaterThan(0);
    expect(await formerQueries(() => listDue(testClock.now(), 50))).toBe(0);

    // One written since (a former version during a deploy) is found once the hour is over.
    const late = await formerDueItem(testClock.now() - 1_000);
    expect((await listDue(testClock.now(), 50)).map((entry) => entry.what)).not.toContain(late.what);
    testClock.advance(FORMER_INDEX_RECHECK_MS);
    expect((await listDue(testClock.now(), 50)).map((entry) => entry.what)).toContain(late.what);
    await late.remove();

    // A key due only later keeps it read: the index is not empty.
    const later = await formerDueItem(testClock.now() + 10 * FORMER_INDEX_RECHECK_MS);
    testClock.advance(FORMER_INDEX_RECHECK_MS + 1);
    expect((await listDue(testClock.now(), 50)).map((entry) => entry.what)).not.toContain(later.what);
    // Not empty (a key due later): not presumed so.
    expect(await formerQueries(() => listDue(testClock.now(), 50))).toBeGreaterThan(0);
    await later.remove();
  });
});
