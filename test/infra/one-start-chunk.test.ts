// infra/bundling.ts's oneStartChunk: a function whose lazy parts share different pieces of its start
// is built with the start in one chunk, and the lazy parts keep their exports (a default too) and
// their order of evaluation, packages' too (CommonJS, ES with and without a default). Built with the
// stack's options in a folder of its own, run by Node.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunction } from '../../infra/bundling';

const SOURCES: Record<string, string> = {
  // The entry's start: three modules, each reached by a different set of lazy parts.
  'entry.ts': `
    import { one } from './one';
    import { two } from './two';
    import { three } from './three';
    export const started: string[] = [];
    started.push('entry');
    export async function handler() {
      const [a, b, c] = await Promise.all([import('./lazy-a'), import('./lazy-b'), import('./lazy-c')]);
      const [cjs, esm, named] = await Promise.all([import('cjs-pkg'), import('esm-pkg'), import('esm-named')]);
      return {
        start: [one(), two(), three()], a: a.fromA(), b: b.default(), bNamed: b.named, c: c.fromC(), started,
        packages: [cjs.default.hello(), typeof cjs.hello, esm.default(), esm.named, named.only, 'default' in named],
      };
    }`,
  'one.ts': `export const one = () => 'one';`,
  'two.ts': `export const two = () => 'two';`,
  'three.ts': `export const three = () => 'three';`,
  'lazy-a.ts': `import { one } from './one'; import { two } from './two'; export const fromA = () => 'a:' + one() + two();`,
  'lazy-b.ts': `import { two } from './two'; import { three } from './three'; export const named = 'b-named'; export default function fromB() { return 'b:' + two() + three(); }`,
  'lazy-c.ts': `import { three } from './three'; import { started } from './entry'; started.push('c'); export const fromC = () => 'c:' + three();`,
  'node_modules/cjs-pkg/package.json': `{ "name": "cjs-pkg", "main": "index.js" }`,
  'node_modules/cjs-pkg/index.js': `// an export in a comment is not an export statement\nmodule.exports = { hello: () => 'cjs' };`,
  'node_modules/esm-pkg/package.json': `{ "name": "esm-pkg", "type": "module", "main": "index.js" }`,
  'node_modules/esm-pkg/index.js': `export const named = 'esm';\nexport default function () { return 'esm-default'; }`,
  'node_modules/esm-named/package.json': `{ "name": "esm-named", "type": "module", "main": "index.js" }`,
  'node_modules/esm-named/index.js': `const only = 'named';\nexport { only };`,
};

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'one-start-chunk-'));
  for (const [file, source] of Object.entries(SOURCES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('one chunk at start (infra/bundling.ts, oneStartChunk)', () => {
  it("builds a start that lazy parts share differently into one chunk, and keeps the parts' exports", async () => {
    const outdir = path.join(root, 'out');
    const { metafile } = await buildFunction(root, 'entry.ts', outdir, { metafile: true, logLevel: 'silent' });
    const index = Object.keys(metafile.outputs).find((file) => metafile.outputs[file].entryPoint === 'entry.ts')!;
    const atStart = metafile.outputs[index].imports.filter((imported) => imported.kind === 'import-statement');
    // Without the plugin esbuild writes one chunk per set of lazy parts that reach a start's module:
    // {a} for one, {a, b} for two, {b, c} for three, {c} for the entry's own module.
    expect(atStart).toHaveLength(1);
    const script = `const { handler } = await import(${JSON.stringify(path.join(outdir, 'index.mjs'))}); console.log(JSON.stringify(await handler()));`;
    const answer = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script]).toString()) as Record<string, unknown>;
    expect(answer).toEqual({
      start: ['one', 'two', 'three'],
      a: 'a:onetwo',
      b: 'b:twothree',
      bNamed: 'b-named',
      c: 'c:three',
      // The lazy part that imports the entry's module finds it run once, before it.
      started: ['entry', 'c'],
      // A CommonJS package's properties are its default's: a dynamic import of one gives that alone in a
      // split build, with the plugin or without (esbuild's interop).
      packages: ['cjs', 'undefined', 'esm-default', 'esm', 'named', false],
    });
    expect(readdirSync(path.join(outdir, 'chunks')).filter((file) => file.endsWith('.mjs')).length).toBeGreaterThanOrEqual(4);
  });
});
