// The README's benchmark figures are the results file's, never typed by hand.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BENCH_END, BENCH_START, renderBenchFigures, withBenchFigures, type BenchResults } from '../../bench/readme-figures';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const latest = JSON.parse(readFileSync(path.join(root, 'bench', 'results', 'latest.json'), 'utf8')) as BenchResults;

const block = (text: string) => text.slice(text.indexOf(BENCH_START), text.indexOf(BENCH_END) + BENCH_END.length);

describe("the README's benchmark figures", () => {
  it('are exactly what bench/results/latest.json renders (npm run bench:readme rewrites them)', () => {
    expect(block(readme)).toBe(`${BENCH_START}\n${renderBenchFigures(latest)}\n${BENCH_END}`);
  });

  it('follow the results file: a new figure replaces the old one, and only the block changes', () => {
    const changed: BenchResults = structuredClone(latest);
    changed.results.platform.api_overhead_ratio = 1.23;
    changed.results.platform.api_to_service_get_item_ratio = 2.5;
    changed.results.console['first load, gzip (bytes)'] = 40_960;

    const rewritten = withBenchFigures(readme, changed);

    expect(rewritten).toContain(
      "| `GET /api/v4/account_users/:id` (API key) ÷ one raw `GetItem` (a client's, over loopback HTTP as the GET), p50 | 1.23 (2.5× the service's own GetItem, in its process) | ≤ 1.3 |",
    );
    expect(rewritten).toContain('| Console first load (page, script, styles), gzip | 40.0 KiB | ≤ 150 KiB |');
    expect(rewritten.slice(0, rewritten.indexOf(BENCH_START))).toBe(readme.slice(0, readme.indexOf(BENCH_START)));
    expect(rewritten.slice(rewritten.indexOf(BENCH_END))).toBe(readme.slice(readme.indexOf(BENCH_END)));
  });

  it('refuse to render without a figure they show, naming it', () => {
    const missing: BenchResults = structuredClone(latest);
    delete missing.results.routing.evaluate_p99_us;

    expect(() => renderBenchFigures(missing)).toThrow(/routing figure evaluate_p99_us/);
  });

  it("name the largest start, not a function's chunks loaded on first use", () => {
    const changed: BenchResults = structuredClone(latest);
    changed.results.platform.bundle_respond_kib = 590.4;
    changed.results.platform.bundle_respond_on_first_use_kib = 700;
    changed.results.platform.bundle_sweeper_on_first_use_kib = 650;

    const rendered = renderBenchFigures(changed);
    expect(rendered).toContain('| 590 KiB (respond); all others ≤ ');
    expect(rendered).not.toContain('on_first_use');
  });

  it('group thousands and round as the README writes them', () => {
    const changed: BenchResults = structuredClone(latest);
    changed.results.ingest['ingest.accept.per_second'] = 12_345.6;

    expect(renderBenchFigures(changed)).toContain('| 12 346/s (p50 ');
  });
});
