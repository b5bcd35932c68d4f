// The embedded AWS emulators: dynalite (DynamoDB, in-process, optionally persisted to a folder)
// and fauxqs (SQS, in-process). When AWS_ENDPOINT_URL points at LocalStack or moto, neither starts.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import dynalite from 'dynalite';
import { startFauxqs } from 'fauxqs';

export interface Emulators {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function startEmulators(options: { dataDir: string; endpoint?: string }): Promise<Emulators> {
  if (options.endpoint) {
    return { dynamodbEndpoint: options.endpoint, sqsEndpoint: options.endpoint, embedded: false, stop: async () => {} };
  }
  let dynamoPath: string | undefined;
  if (options.dataDir !== ':memory:') {
    dynamoPath = path.resolve(options.dataDir, 'dynamodb');
    mkdirSync(dynamoPath, { recursive: true });
  }
  const dynamo = dynalite({ path: dynamoPath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    dynamo.once('error', reject);
    dynamo.listen(0, '127.0.0.1', () => resolve());
  });
  dynamo.keepAliveTimeout = 65_000;
  const sqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  const dynamoPort = (dynamo.address() as AddressInfo).port;
  return {
    dynamodbEndpoint: `http://127.0.0.1:${dynamoPort}`,
    sqsEndpoint: `http://127.0.0.1:${sqs.port}`,
    embedded: true,
    async stop() {
      await sqs.stop();
      // dynalite's close also closes its LevelDB store (flushing it to the folder) once every
      // connection is gone, so the SDK's idle keep-alive sockets are dropped right away.
      const closed = new Promise<void>((resolve) => dynamo.close(() => resolve()));
      dynamo.closeAllConnections();
      await closed;
    },
  };
}
