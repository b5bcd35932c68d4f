// A function's bundle as the stack builds it (infra/bundling.ts), with esbuild's metafile: what each
// input weighs in what a cold start loads and in the chunks loaded later, and which imports bring it in. The size benchmark's report
// (bench/bundle-report.ts) and the bundle budget test (test/infra/bundles.test.ts) read it.
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { buildFunction } from './bundling';

export interface FunctionBundle {
  /** Bytes of JavaScript a cold start loads: index.mjs and the chunks it imports statically (source maps left out). */
  bytes: number;
  /** How many files those are: each costs a cold start ~0.45 ms beside its bytes (infra/bundling.ts, oneStartChunk). */
  startFiles: number;
  /** The inputs (paths relative to the project root) and the bytes each leaves in what loads at start. */
  inputs: Record<string, number>;
  /** Bytes of the chunks loaded only by a dynamic import(), the first time a request needs them. */
  lazyBytes: number;
  /** The inputs of those chunks and their bytes. */
  lazyInputs: Record<string, number>;
  metafile: Metafile;
  entry: string;
  /** Every file of the build (index.mjs, chunks, source maps): path relative to the output folder, contents. */
  files: { path: string; contents: Uint8Array }[];
  /**
   * Packages left out of the bundle (esbuild's `external`) that a file of it imports statically, as
   * `<file> → <package>`. A Lambda function has no node_modules beside its code: such a file fails to
   * load (ERR_MODULE_NOT_FOUND) the moment it is imported. Node's own modules are not listed.
   */
  staticExternals: string[];
  /** Node's own modules (`node:…`) that what a cold start loads imports statically: each one Node loads at start. */
  startBuiltins: string[];
}

/** Bundles one function entry (relative to `root`) with the stack's options, in memory. */
export async function bundleFunction(root: string, entry: string): Promise<FunctionBundle> {
  const outdir = path.join(root, 'cdk.out', 'bundle-analysis');
  const result = await buildFunction(root, entry, outdir, { write: false, metafile: true, logLevel: 'silent' });
  const outputs = result.metafile.outputs;
  const sizes = new Map(result.outputFiles.map((file) => [path.relative(root, file.path), file.contents.byteLength]));
  // A chunk of a dynamic import() is an entry point of its own in the metafile too: the function's is the one of its entry file.
  const entryFile = path.relative(root, path.join(root, entry));
  const index = Object.keys(outputs).find((file) => outputs[file].entryPoint === entryFile)!;
  // What a cold start loads: the entry and, transitively, what it imports statically. Then what
  // that code can import dynamically, and so on. esbuild writes a chunk for the target of every
  // dynamic import it meets, even one whose import tree shaking removed: such a chunk nothing
  // loads is counted in neither.
  const reach = (from: Set<string>, kinds: string[]) => {
    for (const file of from) {
      for (const imported of outputs[file].imports) if (kinds.includes(imported.kind) && outputs[imported.path]) from.add(imported.path);
    }
    return from;
  };
  const atStart = reach(new Set([index]), ['import-statement']);
  const loadable = reach(new Set(atStart), ['import-statement', 'dynamic-import']);
  const gather = (files: string[]) => {
    const inputs: Record<string, number> = {};
    let bytes = 0;
    for (const file of files) {
      bytes += sizes.get(file) ?? 0;
      for (const [input, { bytesInOutput }] of Object.entries(outputs[file].inputs)) inputs[input] = (inputs[input] ?? 0) + bytesInOutput;
    }
    return { bytes, inputs };
  };
  const scripts = Object.keys(outputs).filter((file) => file.endsWith('.mjs'));
  const start = gather(scripts.filter((file) => atStart.has(file)));
  const lazy = gather(scripts.filter((file) => loadable.has(file) && !atStart.has(file)));
  const files = result.outputFiles.map((file) => ({ path: path.relative(outdir, file.path), contents: file.contents }));
  const staticExternals = scripts.flatMap((file) =>
    outputs[file].imports
      .filter((imported) => imported.external && imported.kind === 'import-statement' && !isBuiltin(imported.path))
      .map((imported) => `${path.basename(file)} → ${imported.path}`),
  );
  const startBuiltins = [
    ...new Set(
      scripts
        .filter((file) => atStart.has(file))
        .flatMap((file) =>
          outputs[file].imports.filter((imported) => imported.kind === 'import-statement' && isBuiltin(imported.path)).map((i) => i.path),
        ),
    ),
  ].sort();
  return {
    bytes: start.bytes,
    startFiles: scripts.filter((file) => atStart.has(file)).length,
    inputs: start.inputs,
    lazyBytes: lazy.bytes,
    lazyInputs: lazy.inputs,
    metafile: result.metafile,
    entry,
    files,
    staticExternals,
    startBuiltins,
  };
}

/** The package an input belongs to (the innermost node_modules folder), or undefined for our own code. */
export function packageOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Bytes in the output per package (`node_modules/<name>`) and per module of ours, heaviest first. */
export function weighByOrigin(inputs: Record<string, number>): { origin: string; bytes: number }[] {
  const weights = new Map<string, number>();
  for (const [input, bytes] of Object.entries(inputs)) {
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
