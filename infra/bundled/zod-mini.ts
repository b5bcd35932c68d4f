// The zod/mini builders the service uses (lib/notify/content/response-token.ts,
// lib/slack/interaction-queue.ts, the response schemas of lib/page-responses, lib/sms-replies and
// lib/delivery-receipts; the configuration is validated without zod since issue 21), re-exported
// to be built into one module of their own (infra/bundling.ts, zodMiniOnItsOwn) for the functions
// that load no other zod at start.
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
  boolean,
  enum,
  int,
  literal,
  nullable,
  maxLength,
  minLength,
  number,
  object,
  optional,
  regex,
  strictObject,
  string,
  union,
} from 'zod/mini';
