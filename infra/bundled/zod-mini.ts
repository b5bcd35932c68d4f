// The zod/mini builders the service uses (lib/config.ts, lib/notify/content/response-token.ts,
// lib/slack/interaction-queue.ts, the response schemas of lib/page-responses, lib/sms-replies and
// lib/delivery-receipts, and the registry of lib/lazy-schema.ts and lib/http/document-names.ts),
// re-exported to be built into one module of their own
// (infra/bundling.ts, zodMiniOnItsOwn) for the functions that load no other zod at start.
//
// Why: in a function that imports zod/mini at start and zod's classic API only in a lazy chunk (the
// queue workers, the sweeper, the 404), esbuild's code splitting puts every module of zod's core that
// both reach in a chunk the start loads, 82 KiB of it, where these builders are ~23 KiB. Built apart,
// they share no module with the classic API, which stays whole in its lazy chunk. zod keeps its
// global configuration and its global registry on globalThis, so both copies see the same ones.
//
// A builder the service starts using must be added here: the functions' bundles are built with
// esbuild's `import-is-undefined` as an error, so a missing one fails the build, not a cold start.
export {
  _default,
  boolean,
  coerce,
  enum,
  globalRegistry,
  int,
  literal,
  nullable,
  maxLength,
  minLength,
  number,
  object,
  optional,
  pipe,
  refine,
  regex,
  registry,
  strictObject,
  string,
  transform,
  trim,
  union,
  url,
} from 'zod/mini';
