import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const FORBIDDEN = [
  /@aws-sdk\//,
  /\/store\b/,
  /\/queues\b/,
  /\/config\b/,
  /^node:(http|https|net|dns|fs|child_process)/,
  /^(http|https|net|dns|fs)$/,
];

function sources(dir: string): [string, string][] {
  return readdirSync(path.join(ROOT, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => [`${dir}/${name}`, readFileSync(path.join(ROOT, dir, name), 'utf8')]);
}

function imports(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]);
}

describe('pure modules stay pure', () => {
  it.each([...sources('lib/escalation/engine'), ...sources('lib/notify/content')])(
    '%s imports no I/O, store, queue or config',
    (_, source) => {
      for (const target of imports(source)) for (const rule of FORBIDDEN) expect(target).not.toMatch(rule);
    },
  );

  it.each(sources('lib/escalation/engine'))('%s reads no clock and no randomness (time and ids are inputs)', (_, source) => {
    expect(source).not.toMatch(/Date\.now|new Date\(|Math\.random|performance\.now|process\./);
  });
});
