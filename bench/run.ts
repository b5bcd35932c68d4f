// `npm run bench`: every benchmark, one after another (they share the machine), figures printed
// and written to bench/results/latest.json and bench/results/<timestamp>.json, and the README's
// figures rewritten from latest.json (bench/readme-figures.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReadmeFigures } from './readme-figures';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// A benchmark of pure code (the engines) runs synchronously; the others drive a runtime.
type Bench = () => Record<string, number | string> | Promise<Record<string, number | string>>;

const BENCHES: Record<string, () => Promise<Bench>> = {
  platform: async () => (await import('./platform')).benchPlatform,
  oncall: async () => (await import('./oncall-engine')).benchOncallEngine,
  escalation: async () => (await import('./escalation-engine')).benchEscalationEngine,
  paging: async () => (await import('./escalation')).benchEscalation,
  failover: async () => (await import('./failover')).benchFailover,
  routing: async () => (await import('./routing-engine')).benchRoutingEngine,
  'routing-e2e': async () => (await import('./routing-e2e')).benchRoutingEndToEnd,
  'alert-life': async () => (await import('./alert-life')).benchAlertLife,
  cost: async () => (await import('./cost')).benchCost,
  alerts: async () => (await import('./alerts')).benchAlerts,
  lists: async () => (await import('./lists')).benchLists,
  collections: async () => (await import('./collections')).benchCollections,
  ingest: async () => (await import('./ingest')).benchIngest,
  'ingest-limits': async () => (await import('./ingest-limits')).benchIngestLimits,
  limits: async () => (await import('./limits')).benchRequestLimits,
  console: async () => (await import('./console')).benchConsole,
  slack: async () => (await import('./slack')).benchSlack,
  voice: async () => (await import('./voice')).benchVoice,
  memory: async () => (await import('./memory')).benchMemory,
  'emulator-store': async () => (await import('./emulator-store')).benchEmulatorStore,
  'emulator-transport': async () => (await import('./emulator-store')).benchEmulatorTransport,
  calendars: async () => (await import('./calendars')).benchCalendars,
  reports: async () => (await import('./reports')).benchReports,
  throughput: async () => (await import('./throughput')).benchThroughput,
  sustained: async () => (await import('./sustained')).benchSustained,
};

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const names = only.length ? only : Object.keys(BENCHES);
  const results: Record<string, Record<string, number | string>> = {};
  for (const name of names) {
    const load = BENCHES[name];
    if (!load) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    console.log(`\n▶ ${name}`);
    const started = Date.now();
    results[name] = await (await load())();
    console.table(results[name]);
    console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  const report = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    results,
  };
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(report, null, 2);
  writeFileSync(path.join(dir, `${report.when.replace(/[:.]/g, '-')}.json`), json);
  // latest.json keeps the newest figures of every benchmark: a run of some of them (`npm run bench
  // console`) replaces theirs and leaves the others' as they were.
  const latestPath = path.join(dir, 'latest.json');
  const previous = existsSync(latestPath) ? (JSON.parse(readFileSync(latestPath, 'utf8')) as { results?: Record<string, unknown> }) : {};
  const latest = only.length ? { ...report, results: { ...previous.results, ...results } } : report;
  writeFileSync(latestPath, JSON.stringify(latest, null, 2));
  console.log(`\nwritten to bench/results/latest.json`);
  if (writeReadmeFigures(path.join(dir, '..', '..', 'README.md'), latestPath)) console.log('README.md: benchmark figures rewritten');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
