// The embedded DynamoDB parses an expression of a shape it has parsed before only once
// (infra/local/expression-cache.mjs): what it answers must not change. The same requests, made to
// resemble one another the way the service's do (one text, new values, other types, other names),
// go to the emulator as the runtime runs it and to dynalite left as it is, and every answer (items,
// refusals and their messages) must be the same; the first must have reused its parses.
import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/provision';
import { dataFolders, emulatorsWithClient, storeCalls } from '../support/embedded-emulators';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const TABLE = 'expressions';
const newFolder = dataFolders('oncall-expressions-');

type Values = Record<string, AttributeValue>;
const key = (pk: string, sk = 'S') => ({ pk: { S: pk }, sk: { S: sk } });
const text = (value: string): AttributeValue => ({ S: value });
const number = (value: number): AttributeValue => ({ N: String(value) });

const put = (pk: string, item: Values, condition?: string, values?: Values, names?: Record<string, string>) =>
  new PutItemCommand({
    TableName: TABLE,
    Item: { ...key(pk), ...item },
    ConditionExpression: condition,
    ExpressionAttributeValues: values,
    ExpressionAttributeNames: names,
  });

const update = (pk: string, expression: string, values: Values, names: Record<string, string>, condition?: string) =>
  new UpdateItemCommand({
    TableName: TABLE,
    Key: key(pk),
    UpdateExpression: expression,
    ConditionExpression: condition,
    ExpressionAttributeValues: values,
    ExpressionAttributeNames: names,
    ReturnValues: 'ALL_NEW',
  });

const query = (condition: string, values: Values, extra: { filter?: string; names?: Record<string, string>; projection?: string } = {}) =>
  new QueryCommand({
    TableName: TABLE,
    KeyConditionExpression: condition,
    FilterExpression: extra.filter,
    ProjectionExpression: extra.projection,
    ExpressionAttributeValues: values,
    ExpressionAttributeNames: extra.names,
  });

/** Requests in the order sent: each shape several times, with values, types and names changed between them. */
function requests() {
  const notThere = 'attribute_not_exists(pk)';
  const setAndAdd = 'SET #s = :s ADD #n :one';
  const names = { '#s': 's', '#n': 'n' };
  return [
    put('A', { s: text('x'), n: number(1) }, notThere),
    put('B', { s: text('x'), n: number(5) }, notThere),
    put('A', { s: text('y') }, notThere),
    put('C', { s: text('z'), n: number(2) }, '#s <> :s', { ':s': text('z') }, { '#s': 's' }),
    put('C', { s: text('z'), n: number(2) }, '#s <> :s', { ':s': text('w') }, { '#s': 's' }),
    update('A', setAndAdd, { ':s': text('y'), ':one': number(1), ':was': text('x') }, names, '#s = :was'),
    update('A', setAndAdd, { ':s': text('q'), ':one': number(1), ':was': text('x') }, names, '#s = :was'),
    update('A', setAndAdd, { ':s': text('q'), ':one': number(10), ':was': text('y') }, names, '#s = :was'),
    update('B', setAndAdd, { ':s': text('r'), ':one': number(-2) }, names),
    // The same texts with a value of another type, an unused value, a missing one, other names.
    update('B', setAndAdd, { ':s': text('r'), ':one': text('1') }, names),
    update('B', setAndAdd, { ':s': { N: '3' }, ':one': number(1) }, names),
    update('B', setAndAdd, { ':s': text('r'), ':one': number(1), ':extra': text('e') }, names),
    update('B', setAndAdd, { ':s': text('r') }, names),
    update('B', setAndAdd, { ':s': text('r'), ':one': number(1) }, { '#s': 'other', '#n': 'n' }),
    update('B', setAndAdd, { ':s': text('r'), ':one': number(1) }, { '#s': 's' }),
    update('B', setAndAdd, { ':s': text('r'), ':one': number(1) }, { '#s': 's', '#n': 'n', '#x': 'x' }),
    update('B', setAndAdd, { ':s': text('t'), ':one': number(1) }, names, 'begins_with(#s, :p)'),
    update('B', setAndAdd, { ':s': text('t'), ':one': number(1), ':p': text('r') }, names, 'begins_with(#s, :p)'),
    update('B', setAndAdd, { ':s': text('u'), ':one': number(1), ':p': text('t') }, names, 'begins_with(#s, :p)'),
    update('B', setAndAdd, { ':s': text('u'), ':one': number(1), ':p': number(1) }, names, 'begins_with(#s, :p)'),
    update('B', setAndAdd, { ':s': text('v'), ':one': number(1), ':t': text('S') }, names, 'attribute_type(#s, :t)'),
    update('B', setAndAdd, { ':s': text('v'), ':one': number(1), ':t': text('XX') }, names, 'attribute_type(#s, :t)'),
    // Reserved words, a key attribute updated, overlapping paths: refused each time.
    update('B', 'SET size = :s', { ':s': text('a') }, {}),
    update('B', 'SET size = :s', { ':s': text('b') }, {}),
    update('B', 'SET #s = :s, #s = :t', { ':s': text('a'), ':t': text('b') }, { '#s': 's' }),
    update('B', 'SET pk = :s', { ':s': text('a') }, {}),
    // Key conditions, BETWEEN (checked on the values), filters and projections.
    query('pk = :p', { ':p': text('A') }),
    query('pk = :p', { ':p': text('B') }),
    query('pk = :p', { ':p': text('Z') }),
    query('pk = :p AND sk BETWEEN :a AND :b', { ':p': text('A'), ':a': text('A'), ':b': text('T') }),
    query('pk = :p AND sk BETWEEN :a AND :b', { ':p': text('A'), ':a': text('T'), ':b': text('A') }),
    query('pk = :p AND sk BETWEEN :a AND :b', { ':p': text('A'), ':a': text('A'), ':b': number(3) }),
    query('pk = :p', { ':p': text('A'), ':v': text('q') }, { filter: 'contains(#s, :v)', names: { '#s': 's' } }),
    query('pk = :p', { ':p': text('A'), ':v': text('nothing') }, { filter: 'contains(#s, :v)', names: { '#s': 's' } }),
    query('pk = :p', { ':p': text('A'), ':v': number(12) }, { filter: '#s = :v', names: { '#s': 'n' } }),
    query('pk = :p', { ':p': text('A'), ':v': number(12) }, { filter: '#s = :v', names: { '#s': 's' } }),
    query('pk = :p', { ':p': text('B') }, { projection: '#a, #b', names: { '#a': 's', '#b': 'n' } }),
    query('pk = :p', { ':p': text('B') }, { projection: '#a, #b', names: { '#a': 'other', '#b': 'pk' } }),
    query('pk = :p', { ':p': text('C') }, { projection: '#a, #b', names: { '#a': 's' } }),
    new GetItemCommand({ TableName: TABLE, Key: key('B'), ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': 'n' } }),
    new GetItemCommand({ TableName: TABLE, Key: key('C'), ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': 's' } }),
  ];
}

/** Every answer, an item's attributes or a refusal with its message. */
async function answers(client: DynamoDBClient): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const request of requests()) {
    try {
      const answer = (await client.send(request as never)) as { Attributes?: unknown; Items?: unknown; Item?: unknown; Count?: number };
      seen.push({ ok: answer.Attributes ?? answer.Items ?? answer.Item ?? null, count: answer.Count });
    } catch (error) {
      seen.push({ refused: `${(error as Error).name}: ${(error as Error).message}` });
    }
  }
  return seen;
}

describe.skipIf(external)('expressions of a shape parsed before, in the embedded DynamoDB', () => {
  it('answer every request as dynalite does when it parses each, and are parsed once', async () => {
    const results: Record<'reusing' | 'parsingEach', { seen: unknown[]; parsed: number; reused: number }> = {} as never;
    for (const [name, tuned] of [
      ['reusing', true],
      ['parsingEach', false],
    ] as const) {
      const service = await emulatorsWithClient({ dataDir: newFolder(), tuned });
      try {
        await ensureTable(service.client, TABLE);
        const before = await storeCalls(service.emulators);
        const seen = await answers(service.client);
        const after = await storeCalls(service.emulators);
        results[name] = {
          seen,
          parsed: after.expressionsParsed - before.expressionsParsed,
          reused: after.expressionsReused - before.expressionsReused,
        };
      } finally {
        await service.stop();
      }
    }
    const { reusing, parsingEach } = results;
    expect(reusing.seen).toEqual(parsingEach.seen);
    // The battery is what it means to be: accepted and refused answers, items that differ by value.
    const refused = reusing.seen.filter((answer) => 'refused' in (answer as object));
    expect(refused.length).toBeGreaterThanOrEqual(14);
    expect(reusing.seen.length - refused.length).toBeGreaterThanOrEqual(20);
    expect(reusing.seen[6]).toMatchObject({ refused: expect.stringContaining('ConditionalCheckFailed') });
    expect(reusing.seen[7]).toMatchObject({ ok: { s: { S: 'q' }, n: { N: '12' } } });
    expect(reusing.seen[9]).toMatchObject({ refused: expect.stringContaining('operand type') });
    expect(reusing.seen[11]).toMatchObject({ refused: expect.stringContaining('unused in expressions') });
    expect(reusing.seen[30]).toMatchObject({ refused: expect.stringContaining('upper bound') });
    expect(reusing.reused).toBeGreaterThanOrEqual(15);
    expect(reusing.parsed + reusing.reused).toBeGreaterThanOrEqual(50);
    expect(parsingEach.reused).toBe(0);
  });
});
