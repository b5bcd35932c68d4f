// The embedded AWS emulators: dynalite (DynamoDB, in-process on a worker thread of its own,
// optionally persisted to a folder) and fauxqs (SQS, in-process). When AWS_ENDPOINT_URL points at
// LocalStack or moto, neither starts.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startFauxqs } from 'fauxqs';
import { answerInProcess } from '../../lib/sdk';
import { DynamoPortHandler } from './dynamo-port';

/**
 * The embedded DynamoDB thread's memory, its LevelDB store's own (null in memory, or not told) and
 * the store's iterators still open (each keeps the snapshot it began on: none once requests end).
 */
export type DynamoMemory = NodeJS.MemoryUsage & {
  leveldbBytes: number | null;
  /** LevelDB's table files, over its levels (write buffers written out, and their compactions); null in memory. */
  tableFiles: number | null;
  openIterators: number;
};

export interface EmulatorOptions {
  dataDir: string;
  endpoint?: string;
  /** false: dynalite's own behaviour, every Query's and Scan's iterator left open (the memory benchmark's baseline). */
  closeIterators?: boolean;
  /** false: dynalite's own access to its store, every table description read, every write alone and every read through the thread pool (the emulator-store benchmark's side by side). */
  tuned?: boolean;
  /**
   * How the service's own clients reach the embedded DynamoDB: 'port' (the default) over a
   * MessagePort to its thread (infra/local/dynamo-port.ts), 'http' over loopback HTTP as every
   * other client does (the benchmarks' side by side).
   */
  dynamoTransport?: 'port' | 'http';
}

export interface Emulators {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  embedded: boolean;
  /** The embedded DynamoDB thread's memory (its own heap; rss is the whole process's); null on an external endpoint. */
  dynamoMemory(): Promise<DynamoMemory | null>;
  /** How busy the embedded DynamoDB thread's event loop has been (benchmarks: which thread saturates first); null on an external endpoint. */
  dynamoLoopUtilization(): EventLoopUtilization | null;
  /** Calls that reached the embedded DynamoDB's store so far: reads of a table's description, writes (a batch is one), reads of items and index entries; null on an external endpoint. */
  dynamoStoreCalls(): Promise<DynamoStoreCalls | null>;
  stop(): Promise<void>;
}

export interface DynamoStoreCalls {
  tableReads: number;
  writes: number;
  /** Reads of any other key (an item, an index entry), of which those read at once on the emulator's thread (tuned: infra/local/dynalite-worker.mjs). */
  itemReads: number;
  itemReadsAtOnce: number;
  /** Requests answered, over loopback HTTP and over the service's MessagePorts (dynamoTransport). */
  requestsOverHttp: number;
  requestsOverPort: number;
  /** Expressions parsed, and expressions of a shape parsed before given that parse (tuned: infra/local/expression-cache.mjs). */
  expressionsParsed: number;
  expressionsReused: number;
}

export async function startEmulators(options: EmulatorOptions): Promise<Emulators> {
  if (options.endpoint) {
    return {
      dynamodbEndpoint: options.endpoint,
      sqsEndpoint: options.endpoint,
      embedded: false,
      dynamoMemory: () => Promise.resolve(null),
      dynamoLoopUtilization: () => null,
      dynamoStoreCalls: () => Promise.resolve(null),
      stop: async () => {},
    };
  }
  let dynamoPath: string | undefined;
  if (options.dataDir !== ':memory:') {
    dynamoPath = path.resolve(options.dataDir, 'dynamodb');
    mkdirSync(dynamoPath, { recursive: true });
  }
  const dynamo = await startDynaliteThread(dynamoPath, { closeIterators: options.closeIterators ?? true, tuned: options.tuned ?? true });
  const sqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  const dynamodbEndpoint = `http://127.0.0.1:${dynamo.port}`;
  const portHandler = options.dynamoTransport === 'http' ? undefined : dynamo.portHandler();
  const answeredInProcess = portHandler ? answerInProcess(dynamodbEndpoint, portHandler) : () => {};
  return {
    dynamodbEndpoint,
    sqsEndpoint: `http://127.0.0.1:${sqs.port}`,
    embedded: true,
    dynamoMemory: () => dynamo.memory(),
    dynamoLoopUtilization: () => dynamo.loopUtilization(),
    dynamoStoreCalls: () => dynamo.storeCalls(),
    async stop() {
      await sqs.stop();
      answeredInProcess();
      await dynamo.stop();
      portHandler?.close();
    },
  };
}

/** dynalite on a worker thread of this process: the same emulator, with a core of its own. */
async function startDynaliteThread(
  dataPath: string | undefined,
  { closeIterators, tuned }: { closeIterators: boolean; tuned: boolean },
): Promise<{
  port: number;
  memory(): Promise<DynamoMemory>;
  storeCalls(): Promise<DynamoStoreCalls>;
  loopUtilization(): EventLoopUtilization;
  /** A request handler for the SDK whose requests reach this thread over a MessagePort of their own. */
  portHandler(): DynamoPortHandler;
  stop(): Promise<void>;
}> {
  const worker = new Worker(new URL('./dynalite-worker.mjs', import.meta.url), { workerData: { path: dataPath, closeIterators, tuned } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { type: string; port?: number; message?: string }) => {
      if (message.type === 'ready') resolve(message.port!);
      else reject(new Error(`dynalite did not start: ${message.message}`));
    });
  });
  return {
    port,
    loopUtilization: () => worker.performance.eventLoopUtilization(),
    portHandler: () => new DynamoPortHandler(worker),
    memory() {
      return new Promise((resolve) => {
        const answer = (message: {
          type: string;
          usage?: NodeJS.MemoryUsage;
          leveldbBytes?: number | null;
          tableFiles?: number | null;
          openIterators?: number;
        }) => {
          if (message.type !== 'memory') return;
          worker.off('message', answer);
          resolve({
            ...message.usage!,
            leveldbBytes: message.leveldbBytes ?? null,
            tableFiles: message.tableFiles ?? null,
            openIterators: message.openIterators ?? 0,
          });
        };
        worker.on('message', answer);
        worker.postMessage('memory');
      });
    },
    storeCalls() {
      return new Promise((resolve) => {
        const answer = (message: { type: string } & DynamoStoreCalls) => {
          if (message.type !== 'store calls') return;
          worker.off('message', answer);
          resolve({
            tableReads: message.tableReads,
            writes: message.writes,
            itemReads: message.itemReads,
            itemReadsAtOnce: message.itemReadsAtOnce,
            requestsOverHttp: message.requestsOverHttp,
            requestsOverPort: message.requestsOverPort,
            expressionsParsed: message.expressionsParsed,
            expressionsReused: message.expressionsReused,
          });
        };
        worker.on('message', answer);
        worker.postMessage('store calls');
      });
    },
    async stop() {
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (message: { type: string }) => {
          if (message.type === 'stopped') resolve();
        });
        worker.once('exit', () => resolve());
      });
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
    },
  };
}
