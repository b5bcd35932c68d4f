import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Most of a test file's time is spent waiting (on the embedded emulators, on timers a test lets
// run), not computing, so the suite runs more files at once than the machine has cores: three on
// the 2-core CI machines (docs/testing.md). VITEST_MAX_WORKERS overrides it.
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || 3;

// Files run one after another in a worker that keeps its modules loaded (isolate: false): importing
// the whole service again for every file cost more CPU than many files' tests. A file that replaces a
// module (vi.mock, fault injection) needs a module graph of its own, so it runs isolated.
const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file}`);
const replacesModules = testFiles.filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    // moto (AWS_ENDPOINT_URL, the moto pass) answers one request at a time: a test there takes longer.
    testTimeout: process.env.AWS_ENDPOINT_URL ? 90_000 : 30_000,
    hookTimeout: process.env.AWS_ENDPOINT_URL ? 120_000 : 60_000,
    pool: 'forks',
    maxWorkers,
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    // The moto pass (npm run test:moto, docs/testing.md) runs the tests tagged moto against moto's
    // server: a whole file by `// @module-tag moto`, or single tests by `{ tags: ['moto'] }`.
    tags: [{ name: 'moto', description: "rests on the store's or the queues' semantics: run against moto's server too" }],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: replacesModules, isolate: false } },
      { extends: true, test: { name: 'isolated', include: replacesModules.length ? replacesModules : ['no-such-file'], isolate: true } },
    ],
  },
});
