// How every function is bundled: the stack's function assets, the bundle budget test and the
// cold-start benchmark all read these, so what is measured is exactly what is deployed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, buildSync, type BuildResult, type Plugin } from 'esbuild';

export const BUNDLE_TARGET = 'node22';

/**
 * yaml's ESM build (the package's own entry for other platforms, the same code): esbuild leaves out
 * what the service does not use, where the CommonJS build that Node resolves carries all of it.
 */
const YAML_ESM = fileURLToPath(new URL('../node_modules/yaml/browser/dist/index.js', import.meta.url));

/** The SDK's credential chain cut to its environment link, the one Lambda answers (infra/bundled/lambda-credentials.ts). */
const LAMBDA_CREDENTIALS = fileURLToPath(new URL('./bundled/lambda-credentials.ts', import.meta.url));

/** semver cut to the `satisfies` jsonwebtoken calls at load (infra/bundled/semver-satisfies.ts). */
const SEMVER_SATISFIES = fileURLToPath(new URL('./bundled/semver-satisfies.ts', import.meta.url));

/** @middy/core cut to what lib/api/handler.ts runs, without response streaming's imports (infra/bundled/middy-core.ts). */
const MIDDY_CORE = fileURLToPath(new URL('./bundled/middy-core.ts', import.meta.url));

/** ESM output still meets CommonJS dependencies that call require() for Node built-ins. */
export const ESM_REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

const EVENT_STREAMS = '@smithy/core/event-streams';

export const ESBUILD_OPTIONS = {
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm' as const,
  platform: 'node' as const,
  target: BUNDLE_TARGET,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_SHIM },
  // The SDK v3 ships in the Lambda runtime too, but bundling it pins the version we tested. Left out:
  // source-map, which Handlebars' compiler loads only to map compiled templates and skips when absent;
  // bowser, which the SDK imports dynamically only to parse a browser's user agent (with code split,
  // esbuild would otherwise ship it as a chunk nothing loads); and the SDK's event-stream codec, which
  // its HTTP protocol imports dynamically only for an operation that streams events (none of
  // DynamoDB's, SQS's, SES's or End User Messaging's that we call does): 14 KiB per function. No
  // function holds a client that imports it statically (the S3 client did: voicemail links are signed
  // without it now, lib/voice-calls/s3-link.ts); test/infra/bundles.test.ts fails for one that would.
  external: ['source-map', 'bowser', EVENT_STREAMS] as string[],
  // An import of a name its module does not export is undefined at run time: a build error instead
  // (it guards the cut modules of infra/bundled/, whose exports are a subset of the package's).
  logOverride: { 'import-is-undefined': 'error' } as Record<string, 'error'>,
  alias: {
    yaml: YAML_ESM,
    '@aws-sdk/credential-provider-node': LAMBDA_CREDENTIALS,
    semver: SEMVER_SATISFIES,
    '@middy/core': MIDDY_CORE,
  } as Record<string, string>,
};

/**
 * Entries that load zod's classic API only on first use, if at all (the queue workers, the sweeper,
 * the 404, and the public functions that validate no request with zod: one-click responses, voicemail
 * links, SMS replies, delivery receipts): their zod/mini is built apart (zodMiniOnItsOwn), so their
 * start holds the builders they run and not zod's core. The other HTTP functions load the classic
 * API on a request's arrival (deferClassicZod). test/infra/bundles.test.ts holds both: no function of
 * the catalogue loads a module of the zod package at start.
 */
export const ZOD_MINI_APART_ENTRIES: ReadonlySet<string> = new Set([
  'functions/http/not-found.ts',
  'functions/http/respond.ts',
  'functions/http/sms-inbound.ts',
  'functions/http/delivery-receipts.ts',
  'functions/http/voicemail.ts',
  'functions/queue/ingest-worker.ts',
  'functions/queue/routing-worker.ts',
  'functions/queue/escalation-worker.ts',
  'functions/queue/webhook-worker.ts',
  'functions/scheduled/sweeper.ts',
]);

const ZOD_MINI_BUILDERS = fileURLToPath(new URL('./bundled/zod-mini.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let zodMiniFile: string | undefined;

/**
 * zod/mini's builders that the service uses (infra/bundled/zod-mini.ts) as one module of their own, a
 * file under node_modules/.cache named by what it is built from (zod's version, the list, the
 * target): built once, by the first bundle that needs it. Code splitting then has no module of zod's
 * core to share between the start and a lazy chunk that loads the classic API (infra/bundled/zod-mini.ts).
 */
export function zodMiniOnItsOwn(): string {
  if (zodMiniFile) return zodMiniFile;
  const zodVersion = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/zod/package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256')
    .update(`${zodVersion}\n${BUNDLE_TARGET}\n${readFileSync(ZOD_MINI_BUILDERS, 'utf8')}`)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(ROOT, 'node_modules/.cache/oncall-bundles', `zod-mini-${hash}.mjs`);
  if (!existsSync(file)) {
    const built = buildSync({
      entryPoints: [ZOD_MINI_BUILDERS],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: BUNDLE_TARGET,
      write: false,
      logLevel: 'error',
    });
    mkdirSync(path.dirname(file), { recursive: true });
    // Written whole under another name, then renamed: a bundle built meanwhile in another process
    // never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, built.outputFiles[0].contents);
    renameSync(partial, file);
  }
  zodMiniFile = file;
  return file;
}

/**
 * Whether an entry loads zod's classic API on a request's arrival rather than at its start: every
 * HTTP function that validates requests with it (those not in ZOD_MINI_APART_ENTRIES). `zod` is
 * infra/bundled/zod-deferred.ts there, whose bindings are filled by a dynamic import of the API
 * (infra/bundled/zod-classic.ts, a chunk of its own); the handler starts that import when a request
 * arrives and waits for it before it runs the route (lib/api/handler.ts), so a cold start's
 * compilation of the API overlaps the request's authentication, and a GET or a DELETE that builds no
 * schema has it loaded by then. Their zod/mini is built apart as the workers' is, so no module of zod's
 * core is shared between the start and the chunk.
 */
export function deferClassicZod(entry: string): boolean {
  return entry.startsWith('functions/http/') && !ZOD_MINI_APART_ENTRIES.has(entry);
}

const ZOD_DEFERRED = fileURLToPath(new URL('./bundled/zod-deferred.ts', import.meta.url));

/** zod's classic API by its file, for infra/bundled/zod-classic.ts's `zod/v4`: where the API is deferred, the alias of `zod` would catch that path too. */
const ZOD_CLASSIC = fileURLToPath(new URL('../node_modules/zod/v4/index.js', import.meta.url));

/** The esbuild options for one function entry (relative to the project root). */
export function esbuildOptionsFor(entry: string): typeof ESBUILD_OPTIONS {
  let options = ESBUILD_OPTIONS;
  if (ZOD_MINI_APART_ENTRIES.has(entry) || deferClassicZod(entry))
    options = { ...options, alias: { ...options.alias, 'zod/mini': zodMiniOnItsOwn() } };
  if (deferClassicZod(entry)) options = { ...options, alias: { ...options.alias, zod: ZOD_DEFERRED, 'zod/v4': ZOD_CLASSIC } };
  return options;
}

/**
 * A function is built into a folder: index.mjs, what it loads at start, and beside it in chunks/ the
 * code it reaches only through a dynamic import() (a delivery provider, the YAML parser, RE2, the
 * Handlebars compiler), loaded the first time a request needs it. esbuild keeps a dynamic import
 * apart only when it splits code; without splitting the imported module is inlined and every cold
 * start parses it. Code shared by the entry and a lazy part stays in what loads at start.
 */
export const SPLIT_OPTIONS = {
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
};

const LAZY_PART = 'lazy-part';

/**
 * Whether importing `file` gives a default export: a CommonJS module always does (its
 * `module.exports`, which is all a dynamic import of one gives in a split build), an ES module when
 * it declares one. A module is ES by its extension, else by an import or export statement in it, as
 * esbuild tells them apart.
 */
function hasDefaultExport(file: string): boolean {
  if (file.endsWith('.cjs')) return true;
  const source = readFileSync(file, 'utf8');
  const esm =
    file.endsWith('.mjs') ||
    /(?:^|[\n;{}])\s*(?:export\s*(?:[{*]|default\b|const\b|let\b|var\b|function\b|class\b|async\b)|import\s*(?:[\w{*]|["']))/.test(source);
  return !esm || /\bexport\s+default\b|\bas\s+default\b|\bexport\s*\{\s*default\b/.test(source);
}

/**
 * Every lazy part of ours reaches the whole start, so that the start is one chunk. esbuild splits
 * code by the set of entry points (the function's, and each dynamic import()'s target) a module is
 * reached from: the modules of a start that some lazy parts reach too went into one chunk per such
 * set, up to 22 files at start (public, the sweeper), and a start's files cost ~0.45 ms each beside
 * their bytes (docs/ARCHITECTURE.md, cold starts). Here the target of each dynamic import() in our
 * own code (lib/, functions/, infra/bundled/), a module of ours or a package's, is a small module in
 * its place, `import * as start from '<entry>'; export const __start = start; export * from
 * '<target>'`: every lazy part is reached from every entry point's set with the whole start in it,
 * and the start becomes index.mjs and one chunk (esbuild's runtime helpers in it too, which lazily
 * loaded CommonJS packages share). The target's exports are the same: `export *` leaves a default
 * out, so it is re-exported by name where the target has one (hasDefaultExport; a CommonJS
 * module's is its `module.exports`, which is all a dynamic import of one gives in a split build
 * anyway). No module of a start awaits at its top level, so a lazy part is evaluated after the start
 * has run and its import of the entry finds it done: a top-level await of a lazy part in a start
 * would wait for itself.
 */
export function oneStartChunk(root: string, entry: string): Plugin {
  // Paths relative to the project's root, in the wrapper and as its name: the source maps (and so
  // the asset's hash) are the same wherever the project is checked out.
  const fromRoot = (file: string) => `./${path.relative(root, file).split(path.sep).join('/')}`;
  const entrySpecifier = JSON.stringify(fromRoot(path.resolve(root, entry)));
  const ours = (file: string) => file.startsWith(root + path.sep) && !path.relative(root, file).split(path.sep).includes('node_modules');
  return {
    name: 'one-start-chunk',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === LAZY_PART || !ours(args.importer) || isBuiltin(args.path))
          return undefined;
        const target = await builder.resolve(args.path, {
          kind: 'dynamic-import',
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: LAZY_PART,
        });
        if (target.errors.length || target.external || target.namespace !== 'file') return undefined;
        return { path: fromRoot(target.path), namespace: LAZY_PART };
      });
      builder.onLoad({ filter: /.*/, namespace: LAZY_PART }, (args) => {
        const target = JSON.stringify(args.path);
        const withDefault = hasDefaultExport(path.join(root, args.path));
        return {
          contents: [
            `import * as start from ${entrySpecifier};`,
            'export const __start = start;',
            `export * from ${target};`,
            ...(withDefault ? [`export { default } from ${target};`] : []),
          ].join('\n'),
          resolveDir: root,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * Builds one function (its entry relative to `root`) as it is deployed: the options above, split,
 * one chunk at start. `write: false` keeps the files in memory (the budget test, the benchmarks).
 */
export function buildFunction<Write extends boolean = true>(
  root: string,
  entry: string,
  outdir: string,
  { write, metafile = false, logLevel = 'error' }: { write?: Write; metafile?: boolean; logLevel?: 'error' | 'silent' } = {},
): Promise<BuildResult<{ write: Write; metafile: true }>> {
  return build({
    ...esbuildOptionsFor(entry),
    ...SPLIT_OPTIONS,
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    outdir,
    write: write ?? true,
    metafile,
    logLevel,
    plugins: [oneStartChunk(root, entry)],
  }) as Promise<BuildResult<{ write: Write; metafile: true }>>;
}

const THIS_FILE = fileURLToPath(import.meta.url);

/**
 * buildFunction for CDK's local bundling, which is synchronous: esbuild runs plugins only in its
 * asynchronous build, so this runs this file in a child Node process (TypeScript through tsx, a
 * development dependency as the CDK app's own runner is) and waits for it.
 */
export function buildFunctionSync(root: string, entry: string, outdir: string): void {
  execFileSync(process.execPath, ['--import', 'tsx', THIS_FILE, entry, outdir], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

// `node --import tsx infra/bundling.ts <entry> <outdir>` (from the project root): buildFunctionSync's child.
if (process.argv[1] && path.resolve(process.argv[1]) === THIS_FILE) {
  const [entry, outdir] = process.argv.slice(2);
  buildFunction(process.cwd(), entry, path.resolve(outdir)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
