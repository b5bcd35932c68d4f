// zod's classic API as the service uses it (every `z.<name>` of the modules that import zod), for
// the functions that load it on a request's arrival rather than at their start (infra/bundling.ts,
// deferClassicZod): infra/bundled/zod-deferred.ts stands in for `zod` there and imports this module
// dynamically, so esbuild keeps it, and zod's core with it, in a chunk of its own. Evaluating it hands
// the names to the stand-in, whoever imports it.
//
// A name the service starts using must be added here and in zod-deferred.ts: the functions are built
// with esbuild's `import-is-undefined` as an error, so a missing one fails the build, not a request.
import {
  ZodObject,
  array,
  boolean,
  email,
  enum as enumOf,
  iso,
  literal,
  looseObject,
  null as nullOf,
  number,
  object,
  preprocess,
  record,
  registry,
  strictObject,
  string,
  toJSONSchema,
  tuple,
  union,
  unknown,
  url,
} from 'zod/v4';
import { classicZod } from '../../lib/http/classic-zod';

classicZod.provide?.({
  ZodObject,
  array,
  boolean,
  email,
  enum: enumOf,
  iso,
  literal,
  looseObject,
  null: nullOf,
  number,
  object,
  preprocess,
  record,
  registry,
  strictObject,
  string,
  toJSONSchema,
  tuple,
  union,
  unknown,
  url,
});
