// A function's bundle as the stack builds it (infra/bundling.ts), with esbuild's metafile: what each
// input weighs in the output and which imports bring it in. The size benchmark's report
// (bench/bundle-report.ts) and the bundle budget test (test/infra/bundles.test.ts) read it.
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { ESBUILD_OPTIONS } from './bundling';

export interface FunctionBundle {
  /** Bytes of the JavaScript output (the source map left out: it is not loaded at start). */
  bytes: number;
  /** The inputs (paths relative to the project root) and the bytes each leaves in the output. */
  inputs: Record<string, number>;
  metafile: Metafile;
  entry: string;
}

/** Bundles one function entry (relative to `root`) with the stack's options, in memory. */
export async function bundleFunction(root: string, entry: string): Promise<FunctionBundle> {
  const result = await build({
    ...ESBUILD_OPTIONS,
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, 'cdk.out', 'bundle-analysis', 'index.mjs'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [name, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.mjs'))!;
  const js = result.outputFiles.find((file) => file.path.endsWith(name.split('/').pop()!))!;
  const inputs = Object.fromEntries(Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]));
  return { bytes: js.contents.byteLength, inputs, metafile: result.metafile, entry };
}

/** The package an input belongs to (the innermost node_modules folder), or undefined for our own code. */
export function packageOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Bytes in the output per package (`node_modules/<name>`) and per module of ours, heaviest first. */
export function weighByOrigin(bundle: FunctionBundle): { origin: string; bytes: number }[] {
  const weights = new Map<string, number>();
  for (const [input, bytes] of Object.entries(bundle.inputs)) {
    const pkg = packageOf(input);
    const origin = pkg ? `node_modules/${pkg}` : input;
    weights.set(origin, (weights.get(origin) ?? 0) + bytes);
  }
  return [...weights].map(([origin, bytes]) => ({ origin, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** The shortest chain of imports from the entry to the first input that `matches`: entry first. */
export function importChain(bundle: FunctionBundle, matches: (input: string) => boolean): string[] {
  const inputs = bundle.metafile.inputs;
  const start = Object.keys(inputs).find((input) => input.endsWith(bundle.entry))!;
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (matches(current) && current !== start) {
      const chain = [current];
      for (let at = cameFrom.get(current); at; at = cameFrom.get(at)) chain.unshift(at);
      return chain;
    }
    for (const { path: next } of inputs[current]?.imports ?? []) {
      if (!cameFrom.has(next) && inputs[next]) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return [];
}
