// An integration's wrapper_key is read with JMESPath, which loads with the first payload that needs
// it (lib/integrations/adapters/index.ts, lib/on-first-use.ts): the ingest path runs the adaptation
// through whenLoaded. Run in a fresh Node process with the local runtime, so that nothing loaded the
// package before the webhook arrives (the test runner's shared modules may have).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const SCRIPT = `
const { startRuntime } = await import(${JSON.stringify(path.join(root, 'infra/local/runtime.ts'))});
const apiKey = 'w'.repeat(48);
const runtime = await startRuntime({ port: 0, dataDir: ':memory:', tableName: 'wrapper-key-' + process.pid, bootstrap: { apiKey }, env: { LOG_LEVEL: 'silent', OUTBOX: 'memory' } });
const call = async (method, url, body, auth = true) => {
  const res = await fetch(runtime.url + url, {
    method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: 'Bearer ' + apiKey } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
};
try {
  const me = (await call('GET', '/api/v4/account_users?limit=1')).body.data[0].id;
  const integration = await call('POST', '/api/v4/integrations', {
    name: 'Wrapped', urgency: 'high', integration_type_id: 'webhook', account_user_ids: [me], options: { wrapper_key: 'detail.event' },
  });
  const posted = await call('POST', '/integration/' + integration.body.prefix_id, { detail: { event: { event_type: 'create', id: 'w-1', title: 'From inside the wrapper' } } }, false);
  let titles = [];
  for (let i = 0; i < 100 && !titles.includes('From inside the wrapper'); i++) {
    await new Promise((done) => setTimeout(done, 100));
    titles = (await call('GET', '/api/v4/alerts')).body.data.map((alert) => alert.title);
  }
  const log = await call('GET', '/api/v4/logs?limit=1');
  console.log(JSON.stringify({ integration: integration.status, posted: posted.status, titles, log: log.body.data?.[0]?.status }));
} finally {
  await runtime.stop();
}
`;

describe("an integration's wrapper_key, read with JMESPath loaded on first use", () => {
  it('turns the first wrapped webhook of a fresh process into its alert', () => {
    // A file, not --eval: the runtime's worker threads take the process's flags.
    const dir = mkdtempSync(path.join(tmpdir(), 'wrapper-key-'));
    let printed: Buffer;
    try {
      writeFileSync(path.join(dir, 'run.mjs'), SCRIPT);
      printed = execFileSync(process.execPath, ['--import', 'tsx', path.join(dir, 'run.mjs')], {
        cwd: root,
        env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        timeout: 60_000,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const out = JSON.parse(printed.toString().trim().split('\n').at(-1)!) as { integration: number; posted: number; titles: string[] };
    expect(out.integration).toBe(201);
    expect(out.posted).toBe(202);
    expect(out.titles).toEqual(['From inside the wrapper']);
  });
});
