// A load generator on a worker thread of its own: it issues HTTP requests to the local server or
// raw DynamoDB calls to the emulator, with N in flight, and reports each one's latency. Running
// the client here keeps it off the event loop of the server under test, so a figure measures the
// service and not the benchmark; both sides of a ratio are issued from this same thread.
import http from 'node:http';
import { parentPort } from 'node:worker_threads';
import { DynamoDBClient, GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const clients = new Map();

function dynamo(endpoint) {
  let client = clients.get(endpoint);
  if (!client) {
    client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    clients.set(endpoint, client);
  }
  return client;
}

function httpRequest(base, op) {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const body = op.body;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: op.method,
        path: op.path,
        agent,
        headers: { ...op.headers, ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(task, op) {
  if (task.kind === 'http') return httpRequest(task.baseUrl, op);
  const client = dynamo(task.endpoint);
  if (task.kind === 'updateItem') await client.send(new UpdateItemCommand(op));
  else if (task.kind === 'getItem') await client.send(new GetItemCommand(op));
  else if (task.kind === 'putItem') await client.send(new PutItemCommand(op));
  return 200;
}

/**
 * Runs task.ops with task.concurrency in flight; answers the latency (ms), status and wall-clock
 * answer time (epoch ms: the server stamps its records with the same clock) of each. With
 * task.perSecond, op i does not start before start + i / perSecond (a paced sender, not a flood).
 */
async function runTask(task) {
  const latencies = new Array(task.ops.length);
  const statuses = new Array(task.ops.length);
  const answeredAt = new Array(task.ops.length);
  let next = 0;
  const started = process.hrtime.bigint();
  const startedAt = Date.now();
  await Promise.all(
    Array.from({ length: Math.min(task.concurrency, task.ops.length) }, async () => {
      while (next < task.ops.length) {
        const i = next++;
        if (task.perSecond) {
          const wait = startedAt + (i * 1000) / task.perSecond - Date.now();
          if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        const t = process.hrtime.bigint();
        statuses[i] = await run(task, task.ops[i]);
        latencies[i] = Number(process.hrtime.bigint() - t) / 1e6;
        answeredAt[i] = Date.now();
      }
    }),
  );
  return { latencies, statuses, answeredAt, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

parentPort.on('message', async ({ id, task }) => {
  try {
    parentPort.postMessage({ id, result: await runTask(task) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.stack ?? error) });
  }
});
