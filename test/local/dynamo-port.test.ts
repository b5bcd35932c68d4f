// The service's own DynamoDB calls reach the embedded emulator over a MessagePort to its thread
// (infra/local/dynamo-port.ts), every other client over loopback HTTP. The SDK is the real one on
// both: what a call answers, how an error reads, the lanes that keep background work from queueing
// in front of a request, an abort and a stopped emulator must look to the code as they do over HTTP.
import { ConditionalCheckFailedException, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoPortHandler } from '../../infra/local/dynamo-port';
import { ensureTable } from '../../infra/local/provision';
import {
  answerInProcess,
  BACKGROUND_SOCKETS,
  clientPerEndpoint,
  LaneHandler,
  runInBackground,
  serviceClientConfig,
  type ServiceRequestHandler,
} from '../../lib/sdk';
import { emulatorsWithClient, storeCalls, type EmulatorsWithClient } from '../support/embedded-emulators';
import { startService, type TestService } from '../support/runtime';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const TABLE = 'port';

/** What the service's requests cost the emulator, over each way in: a team created and read, the users listed. */
async function serviceRequests(service: TestService) {
  const me = (await service.admin.get('/api/v4/account_users?limit=1')).body.data[0].id as string;
  const before = await storeCalls(service.runtime.emulators);
  const created = await service.admin.post('/api/v4/teams', {
    name: `Over the port ${Date.now()}`,
    member_account_user_ids: [me],
    admin_account_user_ids: [me],
  });
  expect(created.status, created.text).toBe(201);
  const read = await service.admin.get(`/api/v4/teams/${created.body.id}`);
  expect(read.body.name).toBe(created.body.name);
  expect((await service.admin.get('/api/v4/account_users')).status).toBe(200);
  const after = await storeCalls(service.runtime.emulators);
  return { http: after.requestsOverHttp - before.requestsOverHttp, port: after.requestsOverPort - before.requestsOverPort };
}

describe.skipIf(external)('the service reaching the embedded DynamoDB', () => {
  it('sends its own calls over the port by default; another client still speaks HTTP to the same table', async () => {
    const service = await startService();
    try {
      const requests = await serviceRequests(service);
      expect(requests.port).toBeGreaterThanOrEqual(3);
      expect(requests.http).toBe(0);

      const before = await storeCalls(service.runtime.emulators);
      const other = new DynamoDBClient({
        endpoint: service.runtime.emulators.dynamodbEndpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const found = await other.send(
        new QueryCommand({
          TableName: service.runtime.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: 'nothing' } },
        }),
      );
      other.destroy();
      expect(found.Count).toBe(0);
      const after = await storeCalls(service.runtime.emulators);
      expect(after.requestsOverHttp - before.requestsOverHttp).toBe(1);
      expect(after.requestsOverPort - before.requestsOverPort).toBe(0);
    } finally {
      await service.stop();
    }
  });

  it("sends them over loopback HTTP with dynamoTransport 'http'", async () => {
    const service = await startService({ dynamoTransport: 'http' });
    try {
      const requests = await serviceRequests(service);
      expect(requests.http).toBeGreaterThanOrEqual(3);
      expect(requests.port).toBe(0);
    } finally {
      await service.stop();
    }
  });
});

describe.skipIf(external)('the port handler', () => {
  let started: EmulatorsWithClient;
  let endpoint: string;
  let handler: DynamoPortHandler;
  const clientOf = (maxAttempts = 4) =>
    new DynamoDBClient({
      ...serviceClientConfig(endpoint),
      maxAttempts,
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

  beforeAll(async () => {
    started = await emulatorsWithClient({ dataDir: ':memory:' });
    endpoint = started.emulators.dynamodbEndpoint;
    await ensureTable(started.client, TABLE);
    const config = serviceClientConfig(endpoint);
    if (!(config.requestHandler instanceof DynamoPortHandler)) throw new Error('the embedded DynamoDB answers no port');
    handler = config.requestHandler;
  });
  afterAll(() => started.stop());

  it('answers what HTTP answers: items, a query, a refused condition and a malformed call, as the SDK reads them', async () => {
    const client = clientOf();
    const big = 'x'.repeat(300_000);
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'P' }, sk: { S: '1' }, text: { S: big }, n: { N: '7' } } }));
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'P' }, sk: { S: '2' }, word: { S: 'é ✓ 𝄞' } } }));
    const viaPort = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P' }, sk: { S: '1' } } }));
    const viaHttp = await started.client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P' }, sk: { S: '1' } } }));
    expect(viaPort.Item).toEqual(viaHttp.Item);
    expect(viaPort.Item?.text.S).toHaveLength(300_000);
    expect(viaPort.$metadata.httpStatusCode).toBe(200);
    expect(viaPort.$metadata.requestId).toMatch(/^[A-Z0-9]{52}$/);

    const queried = await client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'P' } },
        ProjectionExpression: 'sk, word',
      }),
    );
    expect(queried.Items).toEqual([{ sk: { S: '1' } }, { sk: { S: '2' }, word: { S: 'é ✓ 𝄞' } }]);

    const refused = await client
      .send(
        new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'P' }, sk: { S: '1' } }, ConditionExpression: 'attribute_not_exists(pk)' }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConditionalCheckFailedException);
    expect((refused as ConditionalCheckFailedException).$metadata.httpStatusCode).toBe(400);

    const malformed = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P' } } })).catch((error: unknown) => error);
    expect((malformed as Error).name).toBe('ValidationException');
    expect((malformed as Error).message).toMatch(/key/i);
    client.destroy();
  });

  it("lets no more background calls in at once than the background lane's sockets: a request's call goes before those in line", async () => {
    const client = clientOf();
    const key = { pk: { S: 'P' }, sk: { S: '2' } };
    const answered: string[] = [];
    const backgroundCalls = 3 * BACKGROUND_SOCKETS;
    const background = runInBackground(() =>
      Promise.all(
        Array.from({ length: backgroundCalls }, (_, i) =>
          client.send(new GetItemCommand({ TableName: TABLE, Key: key })).then(() => answered.push(`background ${i}`)),
        ),
      ),
    );
    const foreground = client.send(new GetItemCommand({ TableName: TABLE, Key: key })).then(() => answered.push('foreground'));
    await Promise.all([background, foreground]);
    expect(answered).toHaveLength(backgroundCalls + 1);
    // The first lane-full were on their way before it; the rest waited in line behind them, not in front of it.
    expect(answered.indexOf('foreground')).toBeLessThan(2 * BACKGROUND_SOCKETS);
    client.destroy();
  });

  it('refuses a call already aborted, and ends a stopped connection as a reset and then a refused socket', async () => {
    const client = clientOf(1);
    const aborted = new AbortController();
    aborted.abort();
    const refused = await client
      .send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P' }, sk: { S: '1' } } }), { abortSignal: aborted.signal })
      .catch((error: unknown) => error);
    expect((refused as Error).name).toBe('AbortError');

    // A signal given to many calls: each answered call leaves no listener on it, and an abort after them changes nothing.
    const shared = new AbortController();
    const listeners = new Set<unknown>();
    const signal = shared.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (type: string, listener: () => void, options?: { once?: boolean }) => {
      listeners.add(listener);
      add(type, listener, options);
    };
    signal.removeEventListener = (type: string, listener: () => void) => {
      listeners.delete(listener);
      remove(type, listener);
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P' }, sk: { S: '2' } } }), { abortSignal: signal }),
      ),
    );
    expect(answers.map((answer) => answer.Item?.sk.S)).toEqual(['2', '2', '2', '2', '2']);
    expect(listeners.size).toBe(0);
    shared.abort();

    // Closed while a request is on its way: handed over in this turn, its answer cannot come before the close.
    const request = { method: 'POST', protocol: 'http:', hostname: '127.0.0.1', path: '/', query: {}, headers: {}, body: '{}' };
    const inFlight = handler.handle(request as unknown as Parameters<DynamoPortHandler['handle']>[0]).catch((error: unknown) => error);
    handler.close();
    expect(await inFlight).toMatchObject({ code: 'ECONNRESET' });
    const later = await client
      .send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'P' }, sk: { S: '2' } } }))
      .catch((error: unknown) => error);
    expect(later).toMatchObject({ code: 'ECONNREFUSED' });
    client.destroy();
  });
});

describe('the service client of an endpoint answered in process', () => {
  it('is made again when another handler answers the endpoint (an emulator on the port number a stopped one had), and with sockets once none does', () => {
    const variable = 'AWS_ENDPOINT_URL_PORT_TEST';
    const endpoint = 'http://127.0.0.1:1';
    process.env[variable] = endpoint;
    const stand = (name: string) => ({ name, destroy() {} }) as unknown as ServiceRequestHandler;
    const [first, second] = [stand('first'), stand('second')];
    let destroyed = 0;
    const client = clientPerEndpoint(variable, (at) => ({
      handler: serviceClientConfig(at).requestHandler,
      destroy: () => (destroyed += 1),
    }));
    try {
      const undoFirst = answerInProcess(endpoint, first);
      const made = client();
      expect(made.handler).toBe(first);
      expect(client()).toBe(made);
      undoFirst();
      const undoSecond = answerInProcess(endpoint, second);
      expect(client().handler).toBe(second);
      expect(destroyed).toBe(1);
      undoSecond();
      expect(client().handler).toBeInstanceOf(LaneHandler);
      expect(destroyed).toBe(2);
    } finally {
      delete process.env[variable];
    }
  });
});
