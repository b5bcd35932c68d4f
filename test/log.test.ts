// lib/log.ts loads Powertools' Logger with the first line written (issue 21: not at a cold start):
// lines written meanwhile wait and go out in their order, at the level set before, and an entry
// point's invocation does not end before they are out. Run in a fresh Node process: the test
// runner's shared modules have the Logger made long before this file.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SCRIPT = `
const { logger } = await import(${JSON.stringify(path.join(root, 'lib/log.ts'))});
const { flushedAtEnd } = await import(${JSON.stringify(path.join(root, 'lib/metrics.ts'))});
const written = [];
const streams = [process.stdout, process.stderr];
const writes = streams.map((stream) => stream.write.bind(stream));
for (const stream of streams) stream.write = (chunk) => (written.push(String(chunk)), true);
logger.setLogLevel('WARN');
const levelBefore = logger.getLevelName();
let atOnce = -1;
const handler = flushedAtEnd(async () => {
  logger.info('below the level');
  logger.warn('first', { n: 1 });
  logger.error('second', { error: new Error('boom') });
  logger.warn('third');
  atOnce = written.length;
  return 'answered';
});
const answer = await handler();
const atEnd = written.length;
streams.forEach((stream, i) => (stream.write = writes[i]));
console.log(JSON.stringify({ levelBefore, atOnce, atEnd, answer, lines: written.join('').split('\\n').filter(Boolean).map((line) => JSON.parse(line)) }));
`;

describe('the logger, loaded by its first line', () => {
  it('writes the lines that waited for it in order, at the level set before, before the invocation ends', () => {
    const printed = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: root,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'info', AWS_LAMBDA_FUNCTION_NAME: 'oncall-test' },
    });
    const out = JSON.parse(printed.toString().trim().split('\n').at(-1)!) as {
      levelBefore: string;
      atOnce: number;
      atEnd: number;
      answer: string;
      lines: Record<string, unknown>[];
    };
    expect(out.levelBefore).toBe('WARN');
    // Nothing is written while the package loads; everything is by the time the handler's promise settles.
    expect(out.atOnce).toBe(0);
    expect(out.answer).toBe('answered');
    expect(out.lines.map((line) => [line.level, line.message])).toEqual([
      ['WARN', 'first'],
      ['ERROR', 'second'],
      ['WARN', 'third'],
    ]);
    expect(out.atEnd).toBe(3);
    expect(out.lines[0]).toMatchObject({ service: 'oncall', n: 1 });
    expect(out.lines[1].error).toMatchObject({ name: 'Error', message: 'boom' });
  });
});
