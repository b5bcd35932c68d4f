// The table's commands in plain JavaScript values, as @aws-sdk/lib-dynamodb's document client takes
// them (the same input and output types), carried out by the DynamoDB client itself (lib/store/client.ts).
//
// Why not the document client: each of its calls builds a second command and a second middleware
// stack around the client's, and it cannot have the client's stack resolved once per command (the
// SDK's cacheMiddleware, turned on by lib/sdk.ts resolveStackOnce, breaks its commands: each would
// send the first call's input). With both, a GetItem's main-thread CPU against dynalite fell
// ~20–27 % and an UpdateItem's ~6–19 % (alternating rounds in one process, two runs; the client's
// own command alone, without the cache, 1–20 % on a GetItem). Here each command names the members
// it (un)marshals, with the options the document client was made with: undefined values dropped, no
// class instance turned into a map, numbers as JavaScript numbers. What a middleware added to the
// client sees is the client's own command: its name (`GetItemCommand`, …) and the marshalled input
// at every step.
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand as QueryItemsCommand,
  ScanCommand as ScanItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  UpdateCommandInput,
};

type Values = Record<string, unknown>;
type Marshalled = Record<string, AttributeValue>;

const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;
const UNMARSHALL = { wrapNumbers: false } as const;

const toAttributes = (values: Values | undefined): Marshalled | undefined =>
  values === undefined ? undefined : marshall(values, MARSHALL);
const toValues = (attributes: Marshalled | undefined): Values | undefined =>
  attributes === undefined ? undefined : unmarshall(attributes, UNMARSHALL);
const allToValues = (list: Marshalled[] | undefined): Values[] | undefined => list?.map((each) => unmarshall(each, UNMARSHALL));

/** `input` with each of `members` that it holds replaced by `convert`'s result (the others as they are). */
function converted<T extends object>(input: T, members: readonly string[], convert: (value: never) => unknown): T {
  const out = { ...input } as Record<string, unknown>;
  for (const member of members) if (out[member] !== undefined) out[member] = convert(out[member] as never);
  return out as T;
}

const perTable = <V, R>(tables: Record<string, V> | undefined, convert: (value: V) => R): Record<string, R> | undefined =>
  tables === undefined ? undefined : Object.fromEntries(Object.entries(tables).map(([table, value]) => [table, convert(value)]));

type KeysAndAttributes = { Keys?: Values[] } & Record<string, unknown>;
type WriteRequest = { PutRequest?: { Item?: Values }; DeleteRequest?: { Key?: Values } };

const keysTo =
  <F, T>(convert: (key: F) => T) =>
  (request: { Keys?: F[] } & Record<string, unknown>) =>
    request.Keys === undefined ? request : { ...request, Keys: request.Keys.map(convert) };

const writesTo =
  <F, T>(convert: (values: F) => T) =>
  (requests: Array<{ PutRequest?: { Item?: F }; DeleteRequest?: { Key?: F } }>) =>
    requests.map((request) => ({
      ...request,
      ...(request.PutRequest
        ? { PutRequest: { ...request.PutRequest, Item: request.PutRequest.Item && convert(request.PutRequest.Item) } }
        : {}),
      ...(request.DeleteRequest
        ? { DeleteRequest: { ...request.DeleteRequest, Key: request.DeleteRequest.Key && convert(request.DeleteRequest.Key) } }
        : {}),
    }));

/** A command of the table: its input as the caller wrote it, and how the client's own command carries it out. */
export abstract class TableCommand<Input extends object, Output> {
  /** The phantom output type, for `send`'s answer. */
  declare readonly output?: Output;
  constructor(readonly input: Input) {}
  /** Sends it with `client`'s own command and gives the answer in plain values. */
  abstract sendWith(client: DynamoDBClient): Promise<Output>;
}

/** The client's command class a table command sends: what it takes is the marshalled input. */
type ClientCommand = new (input: never) => object;

/**
 * A command of one item: `members` of its input marshalled, the item its answer holds in `answer`
 * (`Item`, or `Attributes` when it returns values) unmarshalled.
 */
function itemCommand<Input extends object, Output extends object>(
  Command: ClientCommand,
  members: readonly string[],
  answer: 'Item' | 'Attributes',
) {
  return class extends TableCommand<Input, Output> {
    async sendWith(client: DynamoDBClient): Promise<Output> {
      const out = (await client.send(new Command(converted(this.input, members, toAttributes) as never) as never)) as Output;
      return converted(out, [answer], toValues);
    }
  };
}

export class GetCommand extends itemCommand<GetCommandInput, GetCommandOutput>(GetItemCommand, ['Key'], 'Item') {}
export class PutCommand extends itemCommand<PutCommandInput, PutCommandOutput>(
  PutItemCommand,
  ['Item', 'ExpressionAttributeValues'],
  'Attributes',
) {}
export class UpdateCommand extends itemCommand<UpdateCommandInput, UpdateCommandOutput>(
  UpdateItemCommand,
  ['Key', 'ExpressionAttributeValues'],
  'Attributes',
) {}
export class DeleteCommand extends itemCommand<DeleteCommandInput, DeleteCommandOutput>(
  DeleteItemCommand,
  ['Key', 'ExpressionAttributeValues'],
  'Attributes',
) {}

/** A command of a range of items (Query, Scan): where it starts and its values marshalled, the items it found and where it stopped unmarshalled. */
function listCommand<Input extends object, Output extends object>(Command: ClientCommand) {
  return class extends TableCommand<Input, Output> {
    async sendWith(client: DynamoDBClient): Promise<Output> {
      const input = converted(this.input, ['ExclusiveStartKey', 'ExpressionAttributeValues'], toAttributes);
      const out = (await client.send(new Command(input as never) as never)) as Output;
      return converted(converted(out, ['Items'], allToValues), ['LastEvaluatedKey'], toValues);
    }
  };
}

export class QueryCommand extends listCommand<QueryCommandInput, QueryCommandOutput>(QueryItemsCommand) {}
export class ScanCommand extends listCommand<ScanCommandInput, ScanCommandOutput>(ScanItemsCommand) {}

export class BatchGetCommand extends TableCommand<BatchGetCommandInput, BatchGetCommandOutput> {
  async sendWith(client: DynamoDBClient): Promise<BatchGetCommandOutput> {
    const input = {
      ...this.input,
      RequestItems: perTable(this.input.RequestItems as Record<string, KeysAndAttributes>, keysTo(toAttributes)),
    };
    const out = await client.send(new BatchGetItemCommand(input as never));
    return {
      ...out,
      Responses: perTable(out.Responses, (items) => allToValues(items) ?? []),
      UnprocessedKeys: perTable(out.UnprocessedKeys as Record<string, { Keys?: Marshalled[] }>, keysTo(toValues)),
    } as BatchGetCommandOutput;
  }
}

export class BatchWriteCommand extends TableCommand<BatchWriteCommandInput, BatchWriteCommandOutput> {
  async sendWith(client: DynamoDBClient): Promise<BatchWriteCommandOutput> {
    const input = {
      ...this.input,
      RequestItems: perTable(this.input.RequestItems as Record<string, WriteRequest[]>, writesTo(toAttributes)),
    };
    const out = await client.send(new BatchWriteItemCommand(input as never));
    return {
      ...out,
      UnprocessedItems: perTable(
        out.UnprocessedItems as Record<string, Array<{ PutRequest?: { Item?: Marshalled }; DeleteRequest?: { Key?: Marshalled } }>>,
        writesTo(toValues),
      ),
    } as BatchWriteCommandOutput;
  }
}
