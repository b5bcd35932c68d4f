// How every function is bundled: the stack's NodejsFunction settings and the cold-start benchmark
// both read these, so the benchmark measures exactly what is deployed.
export const BUNDLE_TARGET = 'node22';

/** ESM output still meets CommonJS dependencies that call require() for Node built-ins. */
export const ESM_REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export const ESBUILD_OPTIONS = {
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm' as const,
  platform: 'node' as const,
  target: BUNDLE_TARGET,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_SHIM },
  // The SDK v3 ships in the Lambda runtime too, but bundling it pins the version we tested.
  external: [] as string[],
};
