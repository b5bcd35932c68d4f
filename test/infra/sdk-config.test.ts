// The service's clients keep their resolved configuration in fast properties (lib/sdk.ts
// withFastProperties): the SDK leaves it in dictionary mode, and three of its middlewares copy all of
// it on every call. V8 says which mode an object is in only to a process started with
// --allow-natives-syntax, so the clients are made in one, as the service makes them.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const SCRIPT = `
const fast = new Function('o', 'return %HasFastProperties(o)');
const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
const { db } = await import('./lib/store/client.ts');
const { sqs } = await import('./lib/queues/client.ts');
const { withFastProperties } = await import('./lib/sdk.ts');
const plain = new DynamoDBClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });
const before = fast(plain.config);
const credentials = plain.config.credentials;
const keys = Object.keys(plain.config).join();
withFastProperties(plain.config);
plain.config.credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
const identity = await plain.config.credentials();
console.log(JSON.stringify({
  sdkAlone: before,
  made: fast(plain.config),
  sameKeys: Object.keys(plain.config).join() === keys,
  credentialsWere: typeof credentials,
  credentialsSetAfter: identity.accessKeyId,
  db: fast(db().config),
  sqs: fast(sqs().config),
}));
`;

describe("the service clients' configuration", () => {
  it('is in fast properties, where the SDK alone leaves it in dictionary mode, with the same properties and accessors', () => {
    const printed = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: root,
      env: {
        ...process.env,
        AWS_REGION: 'us-east-1',
        AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:1',
        AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:2',
        TABLE_NAME: 'sdk-config-test',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    expect(JSON.parse(printed.toString().trim().split('\n').pop()!)).toEqual({
      // Why this exists: should an SDK stop redefining its credentials as an accessor, this fails and
      // lib/sdk.ts withFastProperties can go.
      sdkAlone: false,
      made: true,
      sameKeys: true,
      credentialsWere: 'function',
      // The SDK's setter still normalises what is set after (a provider is made of the object).
      credentialsSetAfter: 'AKIDEXAMPLE',
      db: true,
      sqs: true,
    });
  });
});
