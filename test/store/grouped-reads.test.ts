// Point reads of the process share round trips (lib/store/items.ts getItem, batchGet): reads asked
// for together go out as one BatchGetItem of their distinct keys, a lone read is a GetItem, and a
// key the table refuses fails only its own caller. Through the real SDK and the emulator over HTTP.
// @moto: BatchGetItem's answer, its limits and its refusal of a bad key, as an independent implementation gives them.
// @module-tag moto
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PutCommand } from '../../lib/store/commands';
import { db, tableName } from '../../lib/store/client';
import { batchGet, getItem, keyString, type Key } from '../../lib/store/items';
import { dynamoCallsDuring, type AwsCall } from '../support/aws-calls';
import { useService } from '../support/runtime';

useService();

/** A partition of this test's own, with `count` items in it. */
async function seeded(count: number): Promise<Key[]> {
  const pk = `TEST#grouped-reads#${randomBytes(6).toString('hex')}`;
  const keys = Array.from({ length: count }, (_, i) => ({ pk, sk: String(i).padStart(4, '0') }));
  await Promise.all(keys.map((key, i) => db().send(new PutCommand({ TableName: tableName(), Item: { ...key, n: i } }))));
  return keys;
}

const readsOf = (calls: AwsCall[]) => calls.filter((c) => c.operation === 'GetItem' || c.operation === 'BatchGetItem');

describe('point reads asked for together', () => {
  it('go out as one BatchGetItem of their distinct keys, each caller answered with its own item', async () => {
    const keys = await seeded(6);
    const missing = { pk: keys[0].pk, sk: 'absent' };
    const asked = [...keys, keys[2], missing, keys[2]];
    // The first read finds nothing in flight and goes at once; those asked for while it is out share the next round trip.
    const { result, calls } = await dynamoCallsDuring(() => Promise.all(asked.map((key) => getItem(key))));
    expect(result.map((item) => (item ? item.n : null))).toEqual([0, 1, 2, 3, 4, 5, 2, null, 2]);
    const reads = readsOf(calls);
    expect(reads.map((c) => c.operation)).toEqual(['GetItem', 'BatchGetItem']);
    const batch = (reads[1].input.RequestItems as Record<string, { Keys: unknown[]; ConsistentRead: boolean }>)[tableName()];
    // Six distinct keys after the first (a key asked for three times is read once), strongly consistent.
    expect(batch.Keys).toHaveLength(6);
    expect(batch.ConsistentRead).toBe(true);

    // Keys asked for in one batchGet are one BatchGetItem.
    const together = await dynamoCallsDuring(() => batchGet([keys[0], keys[1], missing]));
    expect([...together.result.values()].map((item) => item.n)).toEqual([0, 1]);
    expect(readsOf(together.calls).map((c) => c.operation)).toEqual(['BatchGetItem']);
  });

  it('reads a lone key with GetItem at once, and keeps strong and eventual reads apart', async () => {
    const [first, second] = await seeded(2);
    const lone = await dynamoCallsDuring(() => getItem(first));
    expect(lone.result?.n).toBe(0);
    expect(readsOf(lone.calls).map((c) => [c.operation, c.input.ConsistentRead])).toEqual([['GetItem', true]]);

    const mixed = await dynamoCallsDuring(() => Promise.all([batchGet([first, second], { consistent: false }), batchGet([first, second])]));
    expect(mixed.result.map((found) => [...found.values()].map((item) => item.n))).toEqual([
      [0, 1],
      [0, 1],
    ]);
    const shapes = readsOf(mixed.calls).map(
      (c) => `${c.operation} ${String((c.input.RequestItems as Record<string, { ConsistentRead: boolean }>)[tableName()].ConsistentRead)}`,
    );
    expect(shapes.sort()).toEqual(['BatchGetItem false', 'BatchGetItem true']);
  });

  it('fails only the caller whose key the table refuses', async () => {
    const keys = await seeded(3);
    const refused = { pk: keys[0].pk, sk: '' };
    const { result } = await dynamoCallsDuring(() =>
      Promise.allSettled([getItem(keys[0]), getItem(refused), getItem(keys[1]), getItem(keys[2])]),
    );
    const outcome = (r: PromiseSettledResult<Record<string, unknown> | null>) =>
      r.status === 'fulfilled' ? (r.value?.n ?? null) : (r.reason as { name?: string }).name;
    // DynamoDB and dynalite refuse the whole BatchGetItem (the key is then read alone and refused
    // alone); moto's BatchGetItem lets an empty key through and finds nothing under it.
    expect(result.map(outcome)).toEqual([0, expect.toBeOneOf(['ValidationException', null]), 1, 2]);
    await expect(getItem(refused)).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('reads a batch of more than 100 keys whole, and leaves absent keys out', async () => {
    const keys = await seeded(230);
    const wanted = [...keys, { pk: keys[0].pk, sk: 'absent' }, keys[7]];
    const { result, calls } = await dynamoCallsDuring(() => batchGet(wanted));
    expect(result.size).toBe(230);
    for (const [i, key] of keys.entries()) expect(result.get(keyString(key))?.n).toBe(i);
    // 231 distinct keys: three BatchGetItems of at most 100 (and any unprocessed keys asked for again).
    const batches = readsOf(calls).map((c) => (c.input.RequestItems as Record<string, { Keys: unknown[] }>)[tableName()].Keys.length);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...batches)).toBeLessThanOrEqual(100);
    expect(batches.slice(0, 3).reduce((a, b) => a + b, 0)).toBe(231);
  });
});
