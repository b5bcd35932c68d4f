// The embedded DynamoDB's access to its store (infra/local/dynalite-worker.mjs): dynalite read its
// table's description from the store on every request and wrote each index entry of an item on
// its own, each a round trip through libuv's thread pool on disk. The store keeps the descriptions
// (written through), writes an item with its index entries as one batch, and reads a key at once on
// its thread. What DynamoDB answers must not change: a table deleted and made again is answered at
// once, every index holds each item once, under its latest key, also after a restart on the same
// folder, and a read or a condition sees every write answered before it.
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoPortHandler } from '../../infra/local/dynamo-port';
import { ensureTable } from '../../infra/local/provision';
import { serviceClientConfig } from '../../lib/sdk';
import { dataFolders, emulatorsWithClient, storeCalls } from '../support/embedded-emulators';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const TABLE = 'store';
const newFolder = dataFolders('oncall-store-');

const started = (dataDir: string, tuned?: boolean) => emulatorsWithClient({ dataDir, tuned });

/** Until the table's deletion is over (DynamoDB deletes a table after it answers, as dynalite does). */
async function tableGone(client: DynamoDBClient) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await client.send(new DescribeTableCommand({ TableName: TABLE }));
    } catch (error) {
      if ((error as Error).name === 'ResourceNotFoundException') return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${TABLE} was not deleted`);
}

/** Until the table made anew is active. */
async function tableActive(client: DynamoDBClient) {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await client.send(new DescribeTableCommand({ TableName: TABLE }))).Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${TABLE} did not become active`);
}

/** Item n of the partition, in gsi1 and gsi4 under keys that name `round`, and in gsi6 while n is even. */
const update = (n: number, round: number) =>
  new UpdateItemCommand({
    TableName: TABLE,
    Key: { pk: { S: 'P#1' }, sk: { S: `S#${String(n).padStart(3, '0')}` } },
    UpdateExpression:
      n % 2 === 0
        ? 'SET gsi1pk = :g1, gsi1sk = :s, gsi4pk = :g4, gsi4sk = :s, gsi6pk = :g6, gsi6sk = :s, round_seen = :r'
        : 'SET gsi1pk = :g1, gsi1sk = :s, gsi4pk = :g4, gsi4sk = :s, round_seen = :r REMOVE gsi6pk, gsi6sk',
    ExpressionAttributeValues: {
      ':g1': { S: `G#${round}` },
      ':g4': { S: `K#${round % 2}` },
      ':s': { S: `${String(n).padStart(3, '0')}#${round}` },
      ':r': { N: String(round) },
      ...(n % 2 === 0 ? { ':g6': { S: 'E#1' } } : {}),
    },
  });

async function indexKeys(client: DynamoDBClient, index: string, partition: string): Promise<string[]> {
  const answer = await client.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: index,
      KeyConditionExpression: `${index}pk = :p`,
      ExpressionAttributeValues: { ':p': { S: partition } },
    }),
  );
  return (answer.Items ?? []).map((item) => item.sk.S!).sort();
}

const ITEMS = 30;
const all = Array.from({ length: ITEMS }, (_, n) => `S#${String(n).padStart(3, '0')}`);
const even = all.filter((_, n) => n % 2 === 0);

/** Every index holds each item once, under the keys of the last round written. */
async function expectIndexesOf(client: DynamoDBClient, round: number) {
  expect(await indexKeys(client, 'gsi1', `G#${round}`)).toEqual(all);
  expect(await indexKeys(client, 'gsi1', `G#${round - 1}`)).toEqual([]);
  expect(await indexKeys(client, 'gsi4', `K#${round % 2}`)).toEqual(all);
  expect(await indexKeys(client, 'gsi4', `K#${(round + 1) % 2}`)).toEqual([]);
  expect(await indexKeys(client, 'gsi6', 'E#1')).toEqual(even);
  const scanned = await client.send(new ScanCommand({ TableName: TABLE, IndexName: 'gsi1' }));
  expect(scanned.Items).toHaveLength(ITEMS);
}

describe.skipIf(external)("the embedded DynamoDB's store", () => {
  for (const storage of ['disk', 'memory'] as const) {
    it(`reads a table's description from the store once, and answers a table deleted and made again at once (${storage})`, async () => {
      const service = await started(storage === 'disk' ? newFolder() : ':memory:');
      const { client, emulators } = service;
      try {
        await ensureTable(client, TABLE);
        const before = await storeCalls(emulators);
        for (let n = 0; n < 10; n++) {
          await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'P#1' }, sk: { S: `S#${n}` } } }));
          await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P#1' }, sk: { S: `S#${n}` } } }));
        }
        expect((await storeCalls(emulators)).tableReads - before.tableReads).toBe(0);

        // Deleted, then made again under the same name with another key: nothing of the first is answered.
        await client.send(new DeleteTableCommand({ TableName: TABLE }));
        await tableGone(client);
        await expect(
          client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P#1' }, sk: { S: 'S#1' } } })),
        ).rejects.toMatchObject({
          name: 'ResourceNotFoundException',
        });
        await client.send(
          new CreateTableCommand({
            TableName: TABLE,
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          }),
        );
        await tableActive(client);
        await client.send(new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'only' } } }));
        await expect(
          client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'P#1' }, sk: { S: 'S#1' } } })),
        ).rejects.toMatchObject({ name: 'ValidationException' });
        const items = (await client.send(new ScanCommand({ TableName: TABLE }))).Items ?? [];
        expect(items.map((item) => item.id?.S)).toEqual(['only']);
      } finally {
        await service.stop();
      }
    });
  }

  it("writes an item's index entries together, and every index holds each item once under its latest keys, also after a restart", async () => {
    const folder = newFolder();
    let service = await started(folder);
    try {
      await ensureTable(service.client, TABLE);
      for (let n = 0; n < ITEMS; n++) await service.client.send(update(n, 1));
      const before = await storeCalls(service.emulators);
      await service.client.send(update(0, 2));
      // The item's old entries of gsi1, gsi4 and gsi6 deleted, the new ones put, and the item: one
      // batch (seven writes one after another as dynalite does it alone, below).
      expect((await storeCalls(service.emulators)).writes - before.writes).toBe(1);
      // Every item moved at once, twice over: concurrent writes, whose entries share batches.
      for (const round of [2, 3]) await Promise.all(Array.from({ length: ITEMS }, (_, n) => service.client.send(update(n, round))));
      await expectIndexesOf(service.client, 3);
      await service.stop();
      service = await started(folder);
      await expectIndexesOf(service.client, 3);
      const item = await service.client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P#1' }, sk: { S: 'S#007' } } }));
      expect(item.Item?.round_seen).toEqual({ N: '3' });
    } finally {
      await service.stop();
    }
  });

  it('writes what the requests it takes in one pass of its event loop ask for as one batch', async () => {
    const service = await started(newFolder());
    // The service's own client, over the MessagePort (infra/local/dynamo-port.ts): its requests
    // posted together reach the emulator's thread together.
    const endpoint = service.emulators.dynamodbEndpoint;
    const client = new DynamoDBClient({
      ...serviceClientConfig(endpoint),
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      expect(serviceClientConfig(endpoint).requestHandler).toBeInstanceOf(DynamoPortHandler);
      await ensureTable(service.client, TABLE);
      const puts = 60;
      const before = await storeCalls(service.emulators);
      await Promise.all(
        Array.from({ length: puts }, (_, n) =>
          client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'P#2' }, sk: { S: `S#${n}` }, n: { N: String(n) } } })),
        ),
      );
      // Each request's write on its own was one batch a request (60): LevelDB's writes, and the
      // trips through the thread pool, are what a busy emulator spends its time on.
      const batches = (await storeCalls(service.emulators)).writes - before.writes;
      expect(batches).toBeGreaterThan(0);
      expect(batches).toBeLessThanOrEqual(puts / 3);
      const items = await service.client.send(
        new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'P#2' } } }),
      );
      expect(items.Count).toBe(puts);
    } finally {
      client.destroy();
      await service.stop();
    }
  });

  for (const storage of ['disk', 'memory'] as const) {
    it(`reads items at once, and every read and condition sees the writes answered before it (${storage})`, async () => {
      const service = await started(storage === 'disk' ? newFolder() : ':memory:');
      const { client, emulators } = service;
      try {
        await ensureTable(client, TABLE);
        const before = await storeCalls(emulators);
        // Thirty items moved twice at once; each read after its own write's answer sees that write.
        for (const round of [1, 2]) {
          await Promise.all(
            Array.from({ length: ITEMS }, async (_, n) => {
              await client.send(update(n, round));
              const item = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P#1' }, sk: { S: all[n] } } }));
              expect(item.Item?.round_seen).toEqual({ N: String(round) });
            }),
          );
        }
        await expectIndexesOf(client, 2);
        // Conditions read the item too: fifty increments at once, each applied exactly once, and a
        // put that may only make the item is refused once it exists.
        const counter = { pk: { S: 'P#1' }, sk: { S: 'COUNTER' } };
        await Promise.all(
          Array.from({ length: 50 }, () =>
            client.send(
              new UpdateItemCommand({
                TableName: TABLE,
                Key: counter,
                UpdateExpression: 'SET n = if_not_exists(n, :zero) + :one',
                ExpressionAttributeValues: { ':zero': { N: '0' }, ':one': { N: '1' } },
              }),
            ),
          ),
        );
        expect((await client.send(new GetItemCommand({ TableName: TABLE, Key: counter, ConsistentRead: true }))).Item?.n).toEqual({
          N: '50',
        });
        const makes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, n) =>
            client.send(
              new PutItemCommand({
                TableName: TABLE,
                Item: { pk: { S: 'P#1' }, sk: { S: 'ONCE' }, by: { N: String(n) } },
                ConditionExpression: 'attribute_not_exists(pk)',
              }),
            ),
          ),
        );
        expect(makes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        const refused = makes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).name] : []));
        expect(refused).toEqual(Array.from({ length: 9 }, () => 'ConditionalCheckFailedException'));
        const after = await storeCalls(emulators);
        expect(after.itemReads - before.itemReads).toBeGreaterThanOrEqual(ITEMS * 4 + 60);
        expect(after.itemReadsAtOnce - before.itemReadsAtOnce).toBe(after.itemReads - before.itemReads);
      } finally {
        await service.stop();
      }
    });
  }

  it("holds 10 MiB of writes in one write buffer on disk, where LevelDB's default would have written table files", async () => {
    const service = await started(newFolder());
    try {
      await ensureTable(service.client, TABLE);
      const large = 'x'.repeat(256 * 1024);
      // One at a time: with LevelDB's default 4 MiB buffer the second switch of buffers waits until
      // the first is written out as a table file, so one is there when the last put is answered.
      for (let n = 0; n < 40; n++) {
        await service.client.send(
          new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'LARGE' }, sk: { S: String(n) }, large: { S: large } } }),
        );
      }
      const memory = await service.emulators.dynamoMemory();
      expect(memory?.tableFiles).toBe(0);
      expect(memory?.leveldbBytes).toBeGreaterThan(10 * 2 ** 20);
    } finally {
      await service.stop();
    }
  });

  it('counts what it checks: with dynalite left as it is, each request reads the description and each entry is a write of its own', async () => {
    const service = await started(newFolder(), false);
    try {
      await ensureTable(service.client, TABLE);
      await service.client.send(update(0, 1));
      const before = await storeCalls(service.emulators);
      await service.client.send(update(0, 2));
      const after = await storeCalls(service.emulators);
      expect(after.tableReads - before.tableReads).toBeGreaterThanOrEqual(1);
      expect(after.writes - before.writes).toBe(7);
      // Its reads (the item before the update) go through the thread pool, none at once.
      expect(after.itemReads - before.itemReads).toBeGreaterThanOrEqual(1);
      expect(after.itemReadsAtOnce).toBe(0);
      for (let n = 1; n < ITEMS; n++) await service.client.send(update(n, 2));
      await Promise.all(Array.from({ length: ITEMS }, (_, n) => service.client.send(update(n, 3))));
      await expectIndexesOf(service.client, 3);
    } finally {
      await service.stop();
    }
  });
});
