import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { startRuntime } from '../infra/local/runtime';
const apiKey = `bench-key-${randomBytes(16).toString('hex')}`;
const runtime = await startRuntime({ port: 0, dataDir: ':memory:', tableName: `dbg-${randomBytes(3).toString('hex')}`, pollerConcurrency: 0, scheduleIntervalMs: 3600000, env: { OUTBOX: 'none', LOG_LEVEL: 'error' }, bootstrap: { email: 'b@example.com', password: 'bench password 123', apiKey } });
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
const users = (await (await fetch(`${runtime.url}/api/v4/account_users`, { headers })).json()) as any;
for (const opts of [{ option_rate_limit_per_minute: 10000000, option_rate_limit_burst: 1000000 }, {}]) {
  const created = (await (await fetch(`${runtime.url}/api/v4/integrations`, { method: 'POST', headers, body: JSON.stringify({ name: 'x', urgency: 'low', integration_type_id: 'webhook', account_user_ids: [users.data[0].id], ...opts }) })).json()) as any;
  const t0 = performance.now();
  const r: any = await new Promise((resolve) => { const w = new Worker(new URL('./paced-sender.mjs', import.meta.url), { workerData: { url: created.url, perSecond: 1e9, count: 2000, concurrency: 64 } }); w.once('message', (m) => { void w.terminate(); resolve(m); }); });
  console.log(JSON.stringify(opts), 'seconds', r.seconds.toFixed(2), 'accepted', r.statuses.filter((s: number) => s === 202).length, 'wall', ((performance.now() - t0) / 1000).toFixed(2));
}
await runtime.stop(); process.exit(0);
