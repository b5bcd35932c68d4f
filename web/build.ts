// Builds the web console: esbuild bundles web/src (Preact, TypeScript, one CSS file) into
// content-hashed files under <outdir>/assets/, and index.html names them with their integrity
// hashes. `npm start`, the CDK asset bundling, the browser tests and the benchmark all call this,
// each with an output folder of its own, so concurrent builds never overwrite each other.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const WEB_ROOT = path.dirname(fileURLToPath(import.meta.url));
/** Where `npm start` builds the console (gitignored). */
export const DEFAULT_OUTDIR = path.join(WEB_ROOT, 'dist');

export interface ConsoleBuild {
  outdir: string;
  /** Paths of the page's script and style sheet, as the page names them (`/assets/app-<hash>.js`). */
  script: string;
  style: string;
  /** The service worker that shows push notifications (`/assets/service-worker-<hash>.js`), named by the page's meta tag. */
  serviceWorker: string;
  /** Every file written, relative to outdir. */
  files: string[];
}

function esbuildOptions(outdir: string): esbuild.BuildOptions {
  return {
    entryPoints: { app: path.join(WEB_ROOT, 'src', 'main.tsx'), 'service-worker': path.join(WEB_ROOT, 'src', 'service-worker.ts') },
    outdir,
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    loader: { '.svg': 'file' },
    metafile: true,
    write: true,
    logLevel: 'silent',
    legalComments: 'none',
  };
}

const integrity = (file: string) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The page: no inline script or style (the Content-Security-Policy forbids both). */
function indexHtml(
  script: string,
  scriptIntegrity: string,
  style: string,
  styleIntegrity: string,
  icon: string,
  serviceWorker: string,
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="service-worker" content="${escapeAttribute(serviceWorker)}">
<title>On-call console</title>
<link rel="icon" href="${escapeAttribute(icon)}" type="image/svg+xml">
<link rel="stylesheet" href="${escapeAttribute(style)}" integrity="${styleIntegrity}">
<script type="module" src="${escapeAttribute(script)}" integrity="${scriptIntegrity}"></script>
</head>
<body>
<div id="app"><p class="loading">Loading the on-call console…</p></div>
<noscript><p>The on-call console needs JavaScript.</p></noscript>
</body>
</html>
`;
}

function finish(outdir: string, result: esbuild.BuildResult): ConsoleBuild {
  const outputs = Object.keys(result.metafile!.outputs).map((file) => path.relative(outdir, path.resolve(file)));
  const script = outputs.find((file) => /^assets\/app-[\w-]+\.js$/.test(file));
  const style = outputs.find((file) => /^assets\/app-[\w-]+\.css$/.test(file));
  const serviceWorker = outputs.find((file) => /^assets\/service-worker-[\w-]+\.js$/.test(file));
  if (!script || !style || !serviceWorker) throw new Error(`console build: no script, style or service worker among ${outputs.join(', ')}`);
  const icon = writeIcon(outdir);
  const html = indexHtml(
    `/${script}`,
    integrity(path.join(outdir, script)),
    `/${style}`,
    integrity(path.join(outdir, style)),
    `/${icon}`,
    `/${serviceWorker}`,
  );
  writeFileSync(path.join(outdir, 'index.html'), html);
  return { outdir, script: `/${script}`, style: `/${style}`, serviceWorker: `/${serviceWorker}`, files: [...outputs, icon, 'index.html'] };
}

/** The tab icon, content-hashed like every asset. */
function writeIcon(outdir: string): string {
  const svg = readFileSync(path.join(WEB_ROOT, 'src', 'icon.svg'));
  const name = `assets/icon-${createHash('sha256').update(svg).digest('hex').slice(0, 8)}.svg`;
  writeFileSync(path.join(outdir, name), svg);
  return name;
}

function prepare(outdir: string): void {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(path.join(outdir, 'assets'), { recursive: true });
}

export async function buildConsole(outdir: string = DEFAULT_OUTDIR): Promise<ConsoleBuild> {
  prepare(outdir);
  return finish(outdir, await esbuild.build(esbuildOptions(outdir)));
}

/** The same build, synchronous: CDK's local asset bundling cannot wait for a promise. */
export function buildConsoleSync(outdir: string = DEFAULT_OUTDIR): ConsoleBuild {
  prepare(outdir);
  return finish(outdir, esbuild.buildSync(esbuildOptions(outdir)));
}

// `tsx web/build.ts [outdir]` builds once.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  buildConsole(process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_OUTDIR).then(
    (build) => console.log(`console built in ${Date.now() - started} ms: ${build.outdir}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
