// Every read of the embedded DynamoDB that walks a range (Query, Scan, ListTables) opens a LevelDB
// iterator; one left open keeps the snapshot it began on, and on disk that held every replaced
// memtable in memory for good (issue 21: the server's RSS grew with every alert). Each shape of
// read, stopped at its Limit or run to its end, must leave no iterator open once it is answered.
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  paginateQuery,
  QueryCommand,
  ScanCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Emulators } from '../../infra/local/emulators';
import { ensureTable } from '../../infra/local/provision';
import { dataFolders, emulatorsWithClient } from '../support/embedded-emulators';
import { settle } from '../support/quiescence';
import { startService } from '../support/runtime';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const TABLE = 'iterators';
const ITEMS = 60;
const newFolder = dataFolders('oncall-iterators-');

/** The emulators with a table of ITEMS items in one partition, each also in gsi1 (ALL) and gsi4 (KEYS_ONLY). */
async function seeded(storage: 'disk' | 'memory', closeIterators?: boolean) {
  const started = await emulatorsWithClient({
    dataDir: storage === 'memory' ? ':memory:' : newFolder(),
    closeIterators,
  });
  const doc = DynamoDBDocumentClient.from(started.client);
  await ensureTable(started.client, TABLE);
  for (let first = 0; first < ITEMS; first += 25) {
    const items = Array.from({ length: Math.min(25, ITEMS - first) }, (_, i) => {
      const n = String(first + i).padStart(3, '0');
      return { pk: 'P#1', sk: `S#${n}`, gsi1pk: 'G#1', gsi1sk: n, gsi4pk: 'K#1', gsi4sk: n, n: first + i };
    });
    await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } }));
  }
  // The document client sends through the client (the same request handler): stopping one stops both.
  return { emulators: started.emulators, doc, stop: () => started.stop() };
}

/** A Query of one partition of an index (gsi1 projects every attribute, gsi4 keys only). */
const onIndex = (index: 'gsi1' | 'gsi4', partition: string, rest: Partial<QueryCommandInput>) =>
  new QueryCommand({
    TableName: TABLE,
    IndexName: index,
    KeyConditionExpression: `${index}pk = :g`,
    ExpressionAttributeValues: { ':g': partition },
    ...rest,
  });

/** Every shape of ranged read the service makes, each stopped at a Limit and each run to the end of its range. */
async function readEveryShape(doc: DynamoDBDocumentClient): Promise<number> {
  const partition = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P#1' } };
  const answers = [
    await doc.send(new QueryCommand({ TableName: TABLE, ...partition, Limit: 5 })),
    await doc.send(new QueryCommand({ TableName: TABLE, ...partition, Limit: 5, ScanIndexForward: false })),
    await doc.send(new QueryCommand({ TableName: TABLE, ...partition })),
    await doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':pk': 'P#1', ':a': 'S#010', ':b': 'S#030' },
        Limit: 4,
      }),
    ),
    await doc.send(
      new QueryCommand({
        TableName: TABLE,
        ...partition,
        FilterExpression: 'n > :n',
        ExpressionAttributeValues: { ':pk': 'P#1', ':n': 50 },
        Limit: 20,
      }),
    ),
    await doc.send(onIndex('gsi1', 'G#1', { Limit: 3 })),
    await doc.send(onIndex('gsi4', 'K#1', { Limit: 7 })),
    await doc.send(onIndex('gsi4', 'K#1', { Select: 'COUNT' })),
    await doc.send(new ScanCommand({ TableName: TABLE, Limit: 9 })),
    await doc.send(new ScanCommand({ TableName: TABLE })),
    await doc.send(new ScanCommand({ TableName: TABLE, IndexName: 'gsi1', Limit: 2 })),
  ];
  let reads = answers.length;
  for await (const page of paginateQuery({ client: doc, pageSize: 8 }, { TableName: TABLE, ...partition })) {
    expect(page.Items!.length).toBeLessThanOrEqual(8);
    reads++;
  }
  await doc.send(new ListTablesCommand({ Limit: 1 }));
  await doc.send(new ListTablesCommand({}));
  expect(answers[0].Items).toHaveLength(5);
  expect(answers[2].Items).toHaveLength(ITEMS);
  expect(answers[7].Count).toBe(ITEMS);
  return reads + 2;
}

/** The emulator's open iterators once it has finished closing them (a close completes just after its answer is sent). */
async function openIteratorsAtRest(emulators: Emulators): Promise<number> {
  let open = (await emulators.dynamoMemory())!.openIterators;
  for (let attempt = 0; open > 0 && attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    open = (await emulators.dynamoMemory())!.openIterators;
  }
  return open;
}

describe.skipIf(external)('the embedded DynamoDB closes the iterator of every ranged read', () => {
  for (const storage of ['disk', 'memory'] as const) {
    it(`leaves none open after reads of every shape, stopped at a Limit or not (data ${storage === 'disk' ? 'on disk' : 'in memory'})`, async () => {
      const service = await seeded(storage);
      try {
        await readEveryShape(service.doc);
        await readEveryShape(service.doc);
        expect(await openIteratorsAtRest(service.emulators)).toBe(0);
      } finally {
        await service.stop();
      }
    });
  }

  it('counts what it checks: with dynalite left as it is, every ranged read keeps its iterator open', async () => {
    const service = await seeded('disk', false);
    try {
      const before = (await service.emulators.dynamoMemory())!.openIterators;
      const reads = await readEveryShape(service.doc);
      expect((await service.emulators.dynamoMemory())!.openIterators - before).toBeGreaterThanOrEqual(reads);
    } finally {
      await service.stop();
    }
  });

  it('leaves none open once the service has created, paged and listed alerts', async () => {
    const service = await startService();
    try {
      const me = (await service.admin.get('/api/v4/account_users')).body.data[0].id as string;
      for (let i = 0; i < 6; i++) {
        const created = await service.admin.post('/api/v4/alerts', {
          title: `Iterator ${i}`,
          urgency: i % 2 ? 'high' : 'low',
          destination_account_user_ids: [me],
        });
        expect(created.status, created.text).toBe(201);
      }
      await settle(service);
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const until = new Date(Date.now() + 60_000).toISOString();
      for (const query of [
        '',
        'limit=2',
        'status=open&urgency=high',
        `ops=created_at:between&created_at=${since}..${until}&limit=1`,
        'sort=updated_at',
      ]) {
        const listed = await service.admin.get(`/api/v4/alerts?${query}`);
        expect(listed.status, `${query}: ${listed.text}`).toBe(200);
      }
      expect((await service.admin.get('/api/v4/alerts?limit=100')).body.data).toHaveLength(6);
      expect(await openIteratorsAtRest(service.runtime.emulators)).toBe(0);
    } finally {
      await service.stop();
    }
  });
});
