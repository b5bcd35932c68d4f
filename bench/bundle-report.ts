// `npx tsx bench/bundle-report.ts [function…]`: bundles every function (or the named ones) with the
// stack's esbuild options and prints, per function, its size, the packages and project modules that
// weigh most in it, and for each heavy package the chain of imports that brings it in (from the
// metafile), so a bundle that grew can be traced to the import that grew it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTIONS, type FunctionName } from '../infra/functions';
import { bundleFunction, importChain, weighByOrigin, type FunctionBundle } from '../infra/bundle-analysis';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function report(name: string, bundle: FunctionBundle, top: number): void {
  console.log(
    `\n■ ${name}: ${kib(bundle.bytes)} at start, ${kib(bundle.lazyBytes)} in chunks loaded on first use (${FUNCTIONS[name as FunctionName].entry})`,
  );
  const origins = weighByOrigin(bundle.inputs);
  for (const { origin, bytes } of origins.slice(0, top)) {
    const chain = origin.startsWith('node_modules/') ? importChain(bundle, (input) => input.startsWith(`${origin}/`)) : [];
    console.log(
      `  ${kib(bytes).padStart(11)}  ${origin}${chain.length ? `\n               ← ${chain.slice(0, -1).reverse().join(' ← ')}` : ''}`,
    );
  }
  const lazy = weighByOrigin(bundle.lazyInputs);
  if (lazy.length)
    console.log(
      `  on first use: ${lazy
        .slice(0, top)
        .map(({ origin, bytes }) => `${origin} ${kib(bytes)}`)
        .join(', ')}`,
    );
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = (wanted.length ? wanted : Object.keys(FUNCTIONS)) as FunctionName[];
  const bundles = await Promise.all(names.map((name) => bundleFunction(root, FUNCTIONS[name].entry)));
  names.forEach((name, i) => report(name, bundles[i], wanted.length ? 40 : 12));
  console.log('\nsizes (at start, and on first use):');
  names
    .map((name, i) => [name, bundles[i]] as const)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .forEach(([name, bundle]) => console.log(`  ${kib(bundle.bytes).padStart(11)} ${kib(bundle.lazyBytes).padStart(11)}  ${name}`));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
