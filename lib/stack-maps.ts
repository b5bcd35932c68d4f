// Stack traces read against the bundle's source maps when an error is logged, not when the bundle
// loads. A deployed function is one minified file (and its chunks) with a source map beside each;
// Node's --enable-source-maps reads and parses every loaded file's map as it loads it: 45-70 ms of
// each cold start on this machine (the escalation worker's import 110 -> 169 ms), for stacks that
// only an error's log line shows. Here a frame of a bundled file (`/var/task/index.mjs:1:23456`) is
// replaced by its source's (`lib/escalation/run-step.ts:120:11`) the first time a stack is logged,
// each map read once and kept. A frame without a map (Node's own, a file run from source as the
// local runtime does) stays as it is, and so does the whole stack when Node maps stacks itself.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

/** Each bundled file's map, or null when it has none (read once). */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** A frame's location in a bundled file: its path (file URL or absolute path), line and column. */
const BUNDLED_FRAME = /(?:file:\/\/)?(\/[^\s():]+\.m?js):(\d+):(\d+)/g;

/** The source's path as the map names it, from the project's root (`../../lib/x.ts` → `lib/x.ts`). */
const sourcePath = (source: string) => source.replace(/^(?:webpack:\/\/|file:\/\/)?(?:\.\.\/|\.\/)*/, '');

/** `stack` with each frame of a bundled file that has a source map read as its source's frame. */
export function mappedStack(stack: string): string {
  // Node reads them itself (--enable-source-maps): the frames are the sources' already.
  if (process.sourceMapsEnabled) return stack;
  return stack.replace(BUNDLED_FRAME, (frame, file: string, line: string, column: string) => {
    const map = mapOf(file);
    if (!map) return frame;
    const entry = (map.findEntry(Number(line) - 1, Number(column) - 1) ?? {}) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return frame;
    return `${sourcePath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** Reads `error`'s stack (and its causes') against the source maps, in place; the error otherwise unchanged. */
export function mapErrorStack(error: unknown, depth = 0): void {
  if (!(error instanceof Error) || depth > 5) return;
  if (typeof error.stack === 'string') {
    const mapped = mappedStack(error.stack);
    if (mapped !== error.stack) error.stack = mapped;
  }
  mapErrorStack(error.cause, depth + 1);
}
