// The embedded emulators on their own (infra/local/emulators.ts, no runtime around them), as the
// tests of the emulators' own behaviour start them: a DynamoDB client of the test's own pointed at
// them, and data folders removed once the file's tests are done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll } from 'vitest';
import { startEmulators, type DynamoStoreCalls, type EmulatorOptions, type Emulators } from '../../infra/local/emulators';

export interface EmulatorsWithClient {
  emulators: Emulators;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

export async function emulatorsWithClient(options: EmulatorOptions): Promise<EmulatorsWithClient> {
  const emulators = await startEmulators(options);
  const client = new DynamoDBClient({
    endpoint: emulators.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return {
    emulators,
    client,
    async stop() {
      client.destroy();
      await emulators.stop();
    },
  };
}

/** The calls that reached the embedded DynamoDB so far (infra/local/emulators.ts dynamoStoreCalls); fails on an external endpoint. */
export async function storeCalls(emulators: Emulators): Promise<DynamoStoreCalls> {
  const calls = await emulators.dynamoStoreCalls();
  if (!calls) throw new Error('no embedded DynamoDB');
  return calls;
}

/** New data folders (`<prefix>…` in the system's temporary folder), each removed after the calling file's tests. */
export function dataFolders(prefix: string): () => string {
  const folders: string[] = [];
  afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
  return () => {
    const folder = mkdtempSync(path.join(tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
}
