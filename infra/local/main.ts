// `npm start`: builds the web console, runs the whole service locally and prints where it listens,
// where the console is and how to sign in.
import { buildConsole, DEFAULT_OUTDIR } from '../../web/build';
import { logsWritten } from '../../lib/log';
import { startRuntime } from './runtime';

function environment() {
  const env = process.env;
  return {
    host: env.HOST || '127.0.0.1',
    port: env.PORT ? Number(env.PORT) : 3000,
    dataDir: env.DATA_DIR || '.data',
    endpoint: env.AWS_ENDPOINT_URL || undefined,
    tableName: env.TABLE_NAME || 'oncall',
    // How often the scheduled functions (the sweeper) run; default every 10 s.
    scheduleIntervalMs: env.SWEEP_INTERVAL_MS ? Number(env.SWEEP_INTERVAL_MS) : undefined,
    bootstrap: {
      email: env.BOOTSTRAP_EMAIL || undefined,
      password: env.BOOTSTRAP_PASSWORD || undefined,
      apiKey: env.BOOTSTRAP_API_KEY || undefined,
    },
  };
}

async function main(): Promise<void> {
  const options = environment();
  const build = await buildConsole(DEFAULT_OUTDIR);
  const runtime = await startRuntime({ ...options, consoleDir: build.outdir });
  const where = runtime.emulators.embedded
    ? `embedded emulators (data: ${options.dataDir === ':memory:' ? 'in memory' : options.dataDir})`
    : `AWS endpoint ${options.endpoint}`;
  const lines = [
    `On-call service listening on ${runtime.url}  (${where})`,
    `Web console: ${runtime.url}/  (open it in a browser; sign in with ${runtime.created ? 'the username and password below' : "an account user's e-mail and password"})`,
  ];
  if (runtime.created) {
    const { account, admin, password, apiKey } = runtime.created;
    lines.push(
      'First start: created an account and its admin.',
      `  account:   acc_${account.id}`,
      `  username:  ${admin.user.emails[0].email}`,
      `  password:  ${options.bootstrap.password ? '(BOOTSTRAP_PASSWORD)' : password}`,
    );
    if (apiKey) lines.push(`  api key:   ${apiKey.token}  (BOOTSTRAP_API_KEY, id tkn_${apiKey.record.id})`);
    lines.push(
      `Sign in: curl -s -X POST ${runtime.url}/public/login -H 'content-type: application/json' -d '{"username":"…","password":"…"}'`,
    );
  }
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await runtime.stop();
    // Lines written while the Logger loads wait for it (lib/log.ts): out before the process ends.
    await logsWritten();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  await logsWritten();
  process.exit(1);
});
