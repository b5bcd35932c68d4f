// A vitest reporter that ends a run with its ten slowest test files: where the suite's wall time
// goes, in every CI log, so a file that starts to wait shows up where someone will see it. The time
// of a file is the sum of its tests and hooks (its service's start and stop included).
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules
      .map((module) => ({ file: module.relativeModuleId, seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds);
    if (files.length === 0) return;
    const total = files.reduce((sum, f) => sum + f.seconds, 0);
    const lines = files.slice(0, SHOWN).map((f) => `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.file}`);
    process.stdout.write(
      `\nSlowest ${Math.min(SHOWN, files.length)} of ${files.length} test files (${total.toFixed(0)} s of test time in all):\n${lines.join('\n')}\n`,
    );
  }
}
