// The local runtime in a process of its own, for tests that kill it (SIGKILL: no shutdown, no flush):
// DATA_DIR, TABLE_NAME, BOOTSTRAP_API_KEY and POLLERS (0: nothing consumes the queues) from the
// environment; prints `READY <url>` once it serves.
import { startRuntime } from '../../infra/local/runtime';

const runtime = await startRuntime({
  port: 0,
  dataDir: process.env.DATA_DIR ?? ':memory:',
  tableName: process.env.TABLE_NAME ?? 'oncall',
  pollerConcurrency: Number(process.env.POLLERS ?? 4),
  scheduleIntervalMs: 3_600_000,
  bootstrap: { email: 'admin@example.com', password: 'correct horse battery staple', apiKey: process.env.BOOTSTRAP_API_KEY },
  env: { OUTBOX: 'memory', LOG_LEVEL: 'error' },
});
console.log(`READY ${runtime.url}`);
