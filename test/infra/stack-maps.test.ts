// A logged error's stack read against the bundle's source maps (lib/stack-maps.ts): deployed
// functions run without --enable-source-maps (Node would parse every loaded file's map at each cold
// start), so the frames of a bundled file are mapped when an error is logged. The harness is bundled
// with the stack's own esbuild options (minified, a linked map beside the file) and run by plain
// Node in a process of its own (vitest maps the stacks of what it runs itself).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS } from '../../infra/bundling';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = mkdtempSync(path.join(tmpdir(), 'stack-maps-'));
const bundle = path.join(out, 'index.mjs');

interface Printed {
  raw: string;
  mapped: string;
  logged: string;
  cause: string;
  withoutMap: boolean;
  sourceMapsEnabled: boolean;
}

const run = (nodeOptions: string[] = []): Printed => {
  const printed = execFileSync(process.execPath, [...nodeOptions, bundle], {
    env: { ...process.env, LOG_LEVEL: 'error', NODE_OPTIONS: '' },
  });
  return JSON.parse(printed.toString().trim().split('\n').pop()!) as Printed;
};

const linesOf = (stack: string) =>
  stack
    .split('\n')
    .filter((frame) => frame.includes('thrower.ts'))
    .map((frame) => /test\/fixtures\/stack-maps\/thrower\.ts:(\d+):\d+\)?$/.exec(frame)?.[1]);

beforeAll(async () => {
  await build({
    ...ESBUILD_OPTIONS,
    absWorkingDir: root,
    entryPoints: [path.join(root, 'test/fixtures/stack-maps/harness.ts')],
    outfile: bundle,
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('stack traces of a bundled function', () => {
  it('are minified as Node leaves them, and read against the map as their sources', () => {
    const printed = run();
    expect(printed.sourceMapsEnabled).toBe(false);
    expect(printed.raw).toContain(`${bundle}:`);
    expect(printed.raw).not.toContain('thrower.ts');
    // throwHere's throw (line 8), callThrower's call of it (4) and its recursion (3) down to the first call.
    expect(linesOf(printed.mapped)).toEqual(['8', '4', '3', '3']);
    // The frame's location is the source's, its path as the map names it from the bundle's folder
    // (leading ../ left out: a deployed bundle's is the project's lib/…); the name stays minified.
    expect(printed.mapped.split('\n')[1]).toMatch(/^ {4}at \S+ \((?:[\w.-]+\/)*test\/fixtures\/stack-maps\/thrower\.ts:8:\d+\)$/);
    expect(printed.withoutMap).toBe(true);
  });

  it("are read so when the service logs an error, its causes' too", () => {
    const printed = run();
    expect(printed.logged).toBe(printed.mapped);
    expect(linesOf(printed.cause)[0]).toBe('4');
  });

  it('are left as Node gives them when Node reads the maps itself', () => {
    const printed = run(['--enable-source-maps']);
    expect(printed.sourceMapsEnabled).toBe(true);
    expect(printed.mapped).toBe(printed.raw);
    expect(linesOf(printed.raw)).toEqual(['8', '4', '3', '3']);
  });
});
