// The engine stays pure (no I/O, no configuration, no system clock), so the routing worker and the
// dry-run endpoints can share it and it is tested without emulators.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../lib/rule-engine');
const ALLOWED = new Set(['yaml', 'sift', 'handlebars', 're2js', 'node:crypto']);
/** Another pure engine: the on-call engine's zones (dependency-cruiser checks that it stays pure). */
const PURE_NEIGHBOURS = ['../oncall/'];
/** Kernel modules without I/O: the loader of packages needed on first use (yaml, re2js, handlebars). */
const PURE_KERNEL = new Set(['../on-first-use']);

describe('lib/rule-engine is pure', () => {
  it('imports only its own files, the on-call engine and pure packages, and never reads the system clock', () => {
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)) {
        const ok =
          (specifier.startsWith('./') && !specifier.includes('/..')) ||
          PURE_NEIGHBOURS.some((folder) => specifier.startsWith(folder) && !specifier.slice(folder.length).includes('..')) ||
          ALLOWED.has(specifier) ||
          PURE_KERNEL.has(specifier);
        expect(ok, `${file} imports ${specifier}`).toBe(true);
      }
      expect(source, `${file} reads the system clock`).not.toMatch(/Date\.now\(|new Date\(\)|performance\.now\(/);
      expect(source, `${file} reads the environment`).not.toMatch(/process\.env/);
    }
  });
});
