// The table's commands (lib/store/commands.ts) carry plain values as @aws-sdk/lib-dynamodb's
// document client did, made with the same options: every command, on the same table, read back
// through both, gives the same answer (the client's own metadata aside), and what one writes the
// other reads unchanged.
// @moto: the values each command carries, as an independent implementation of the wire protocol stores them.
// @module-tag moto
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as documentClient from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { serviceClientConfig } from '../../lib/sdk';
import { db, tableName } from '../../lib/store/client';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '../../lib/store/commands';
import { useService } from '../support/runtime';

useService(() => Promise.resolve());

let reference: documentClient.DynamoDBDocumentClient | undefined;
/** The document client, made as lib/store/client.ts made it before. */
const doc = () =>
  (reference ??= documentClient.DynamoDBDocumentClient.from(new DynamoDBClient(serviceClientConfig()), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  }));
afterAll(() => reference?.destroy());

const answer = <T extends object>(output: T) => {
  const { $metadata: _, ...rest } = output as T & { $metadata?: unknown };
  return JSON.parse(JSON.stringify(rest, (_key, value: unknown) => (value instanceof Set ? { set: [...value].sort() } : value))) as unknown;
};

/** Every kind of value an item holds: nested maps and lists, sets, binary, null, an undefined left out. */
const everyKind = (n: number) => ({
  title: `Disk full on db-${n}`,
  empty: '',
  n,
  negative: -12.5,
  big: 2 ** 52,
  yes: true,
  no: false,
  nothing: null,
  left_out: undefined,
  tags: new Set(['b', 'a']),
  numbers: new Set([3, 1]),
  bytes: new Uint8Array([0, 1, 254]),
  list: [1, 'two', { three: [3] }, null, []],
  meta: { nested: { deeper: { value: 'x', gone: undefined } }, empty: {} },
});

const partition = () => `TESTCMD#${newId()}`;

describe('the table commands', () => {
  it('put and get: each reads what the other wrote, the same', async () => {
    const pk = partition();
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'ours', ...everyKind(1) } }));
    await doc().send(new documentClient.PutCommand({ TableName: tableName(), Item: { pk, sk: 'theirs', ...everyKind(1) } }));
    for (const sk of ['ours', 'theirs']) {
      const input = { TableName: tableName(), Key: { pk, sk }, ConsistentRead: true };
      const ours = await db().send(new GetCommand(input));
      expect(ours.Item).toMatchObject({ pk, sk, title: 'Disk full on db-1', tags: new Set(['a', 'b']), numbers: new Set([1, 3]) });
      expect(ours.Item).not.toHaveProperty('left_out');
      expect(answer(ours)).toEqual(answer(await doc().send(new documentClient.GetCommand(input))));
    }
    const missing = { TableName: tableName(), Key: { pk, sk: 'none' }, ConsistentRead: true };
    expect(answer(await db().send(new GetCommand(missing)))).toEqual(answer(await doc().send(new documentClient.GetCommand(missing))));
  });

  it('update, with values of every kind and the item returned', async () => {
    const pk = partition();
    const update = (sk: string) => ({
      TableName: tableName(),
      Key: { pk, sk },
      UpdateExpression: 'SET #m = :m, #l = :l, #t = :t ADD #n :one',
      ExpressionAttributeNames: { '#m': 'meta', '#l': 'list', '#t': 'tags', '#n': 'n' },
      ExpressionAttributeValues: { ':m': everyKind(2).meta, ':l': everyKind(2).list, ':t': new Set(['x']), ':one': 1 },
      ReturnValues: 'ALL_NEW' as const,
    });
    const ours = await db().send(new UpdateCommand(update('one')));
    const theirs = await doc().send(new documentClient.UpdateCommand(update('two')));
    expect(ours.Attributes).toMatchObject({ pk, sk: 'one', n: 1, tags: new Set(['x']) });
    expect(answer({ ...ours, Attributes: { ...ours.Attributes, sk: 'two' } })).toEqual(answer(theirs));
  });

  it('query, a page at a time, resuming from the key it stopped at', async () => {
    const pk = partition();
    for (let i = 0; i < 5; i++) await db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: `s${i}`, ...everyKind(i) } }));
    const page = (start?: Record<string, unknown>) => ({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk > :from',
      ExpressionAttributeValues: { ':pk': pk, ':from': 's0' },
      Limit: 2,
      ExclusiveStartKey: start,
    });
    let start: Record<string, unknown> | undefined;
    const seen: unknown[] = [];
    do {
      const ours = await db().send(new QueryCommand(page(start)));
      expect(answer(ours)).toEqual(answer(await doc().send(new documentClient.QueryCommand(page(start)))));
      seen.push(...(ours.Items ?? []).map((item) => item.sk));
      start = ours.LastEvaluatedKey;
    } while (start);
    expect(seen).toEqual(['s1', 's2', 's3', 's4']);
  });

  it('scan with a filter, as the tests read the table', async () => {
    const pk = partition();
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'only', ...everyKind(9) } }));
    const input = { TableName: tableName(), FilterExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } };
    const items = [];
    let start: Record<string, unknown> | undefined;
    do {
      const ours = await db().send(new ScanCommand({ ...input, ExclusiveStartKey: start }));
      items.push(...(ours.Items ?? []));
      start = ours.LastEvaluatedKey;
    } while (start);
    expect(answer({ items })).toEqual(
      answer({ items: [(await doc().send(new documentClient.GetCommand({ TableName: tableName(), Key: { pk, sk: 'only' } }))).Item] }),
    );
  });

  it('batch writes and batch gets, a missing key among them', async () => {
    const pk = partition();
    await db().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: [
            { PutRequest: { Item: { pk, sk: 'a', ...everyKind(1) } } },
            { PutRequest: { Item: { pk, sk: 'b', ...everyKind(2) } } },
            { PutRequest: { Item: { pk, sk: 'c', ...everyKind(3) } } },
          ],
        },
      }),
    );
    const removal = await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: [{ DeleteRequest: { Key: { pk, sk: 'c' } } }] } }),
    );
    expect(removal.UnprocessedItems ?? {}).toEqual({});
    const input = { RequestItems: { [tableName()]: { Keys: ['a', 'b', 'c'].map((sk) => ({ pk, sk })), ConsistentRead: true } } };
    const sorted = (output: { Responses?: Record<string, Record<string, unknown>[]> }) =>
      answer({ items: (output.Responses?.[tableName()] ?? []).sort((x, y) => String(x.sk).localeCompare(String(y.sk))) });
    const ours = await db().send(new BatchGetCommand(input));
    expect(ours.Responses?.[tableName()].map((item) => item.sk).sort()).toEqual(['a', 'b']);
    expect(sorted(ours)).toEqual(sorted(await doc().send(new documentClient.BatchGetCommand(input))));
  });

  it('delete, with the old item returned and a condition that fails as the document client failed', async () => {
    const pk = partition();
    for (const sk of ['one', 'two']) await db().send(new PutCommand({ TableName: tableName(), Item: { pk, sk, ...everyKind(4) } }));
    const ours = await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk: 'one' }, ReturnValues: 'ALL_OLD' }));
    const theirs = await doc().send(
      new documentClient.DeleteCommand({ TableName: tableName(), Key: { pk, sk: 'two' }, ReturnValues: 'ALL_OLD' }),
    );
    expect(answer({ ...ours, Attributes: { ...ours.Attributes, sk: 'two' } })).toEqual(answer(theirs));
    const conditional = { TableName: tableName(), Key: { pk, sk: 'one' }, ConditionExpression: 'attribute_exists(pk)' };
    await expect(db().send(new DeleteCommand(conditional))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    await expect(doc().send(new documentClient.DeleteCommand(conditional))).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
  });

  it('refuses what the document client refused: a class instance, a number it cannot hold', async () => {
    const pk = partition();
    for (const bad of [{ when: new Date(0) }, { n: 2 ** 60 }]) {
      const input = { TableName: tableName(), Item: { pk, sk: 'bad', ...bad } };
      const theirs = await doc()
        .send(new documentClient.PutCommand(input))
        .then(
          () => 'written',
          (error: Error) => error.message,
        );
      expect(theirs).not.toBe('written');
      await expect(db().send(new PutCommand(input))).rejects.toThrow(theirs);
    }
    expect(
      (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: 'bad' }, ConsistentRead: true }))).Item,
    ).toBeUndefined();
  });
});
