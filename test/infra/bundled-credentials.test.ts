// The SDK clients as the functions' bundles carry them (infra/bundling.ts): their credential chain
// is cut to the environment, which is where Lambda puts a function's role credentials, and the
// nested STS/SSO clients of the other links are gone from the bundle.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ESBUILD_OPTIONS } from '../../infra/bundling';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PROGRAM = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
const read = async (client) => {
  try {
    const c = await client.config.credentials();
    return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken ?? null };
  } catch (error) {
    return { error: error.message };
  }
};
console.log(JSON.stringify([await read(new DynamoDBClient({ region: 'us-east-1' })), await read(new SQSClient({ region: 'us-east-1' }))]));
`;

describe('AWS credentials in a deployed bundle', () => {
  it("come from Lambda's environment variables, and the other links of the SDK's chain are not bundled", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'credentials-bundle-'));
    try {
      writeFileSync(path.join(dir, 'entry.mjs'), PROGRAM);
      const out = path.join(dir, 'out.mjs');
      const result = await build({
        ...ESBUILD_OPTIONS,
        sourcemap: false,
        nodePaths: [path.join(root, 'node_modules')],
        entryPoints: [path.join(dir, 'entry.mjs')],
        outfile: out,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((file) => file.includes('infra/bundled/lambda-credentials.ts'))).toBe(true);
      expect(inputs.filter((file) => /nested-clients|credential-provider-(node|sso|ini|web-identity|process)\//.test(file))).toEqual([]);

      const run = (env: Record<string, string>) => {
        const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
        return JSON.parse(execFileSync(process.execPath, [out], { env: { ...base, ...env } }).toString());
      };
      const lambda = { AWS_ACCESS_KEY_ID: 'ASIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };
      const expected = { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' };
      expect(run(lambda)).toEqual([expected, expected]);
      const [missing] = run({});
      expect(missing.error).toMatch(/AWS_ACCESS_KEY_ID/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
