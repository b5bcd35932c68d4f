// semver as the functions' bundles carry it (infra/bundling.ts aliases it to
// infra/bundled/semver-satisfies.ts): every range jsonwebtoken asks about at load gets the answer
// semver itself gives, for the Node versions around each bound; a range of another form throws.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { satisfies } from '../../infra/bundled/semver-satisfies';
import { ESBUILD_OPTIONS } from '../../infra/bundling';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const jwtLib = path.join(root, 'node_modules/jsonwebtoken/lib');
/** The real semver, as jsonwebtoken resolves it from source (tests and the local runtime use it). */
const semver = createRequire(path.join(jwtLib, 'psSupported.js'))('semver') as { satisfies(version: string, range: string): boolean };

/** Every range jsonwebtoken passes to semver.satisfies, read from its sources. */
const ranges = readdirSync(jwtLib)
  .filter((file) => file.endsWith('.js'))
  .flatMap((file) =>
    [...readFileSync(path.join(jwtLib, file), 'utf8').matchAll(/semver\.satisfies\([^,]+,\s*'([^']+)'\)/g)].map((m) => m[1]),
  );

const versions = [process.version];
for (let major = 0; major <= 26; major++) {
  for (const minor of [0, 1, 7, 8, 9, 11, 12, 13]) for (const patch of [0, 1, 9]) versions.push(`v${major}.${minor}.${patch}`);
}

describe('semver in the bundles', () => {
  it('finds the ranges jsonwebtoken asks about', () => {
    expect(ranges.length).toBeGreaterThanOrEqual(3);
  });

  it.each(ranges)('answers satisfies(version, %j) as semver does', (range) => {
    for (const version of versions) expect(satisfies(version, range), version).toBe(semver.satisfies(version, range));
  });

  it('refuses a range it does not read instead of answering wrong', () => {
    expect(() => satisfies('v22.1.0', '~22.1.0')).toThrow(/not supported/);
    expect(() => satisfies('v22.1.0', '<23')).toThrow(/not supported/);
    expect(() => satisfies('not a version', '>=1.0.0')).toThrow(/Invalid Version/);
  });
});

/** jsonwebtoken bundled as the functions carry it: HS256 (our login tokens) and PS256 (an algorithm it offers only when semver says the Node version has it). */
const PROGRAM = `
import jwt from 'jsonwebtoken';
import { generateKeyPairSync } from 'node:crypto';
const hs = jwt.verify(jwt.sign({ sub: 'acu_1' }, 'secret', { algorithm: 'HS256' }), 'secret', { algorithms: ['HS256'] });
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ps = jwt.verify(jwt.sign({ sub: 'acu_2' }, privateKey, { algorithm: 'PS256' }), publicKey, { algorithms: ['PS256'] });
let forged = null;
try { jwt.verify(jwt.sign({ sub: 'acu_3' }, 'other', { algorithm: 'HS256' }), 'secret'); } catch (error) { forged = error.message; }
console.log(JSON.stringify({ hs: hs.sub, ps: ps.sub, forged }));
`;

describe('jsonwebtoken in a bundle with the cut semver', () => {
  it('signs and verifies HS256 and PS256 and refuses a token signed with another secret', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jwt-bundle-'));
    try {
      writeFileSync(path.join(dir, 'entry.mjs'), PROGRAM);
      const result = await build({
        ...ESBUILD_OPTIONS,
        sourcemap: false,
        nodePaths: [path.join(root, 'node_modules')],
        entryPoints: [path.join(dir, 'entry.mjs')],
        outfile: path.join(dir, 'out.mjs'),
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((input) => input.includes('infra/bundled/semver-satisfies.ts'))).toBe(true);
      expect(inputs.filter((input) => input.includes('node_modules/semver/'))).toEqual([]);
      const out = JSON.parse(execFileSync(process.execPath, [path.join(dir, 'out.mjs')]).toString());
      expect(out).toEqual({ hs: 'acu_1', ps: 'acu_2', forged: 'invalid signature' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
