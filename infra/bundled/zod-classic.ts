// zod's classic API as the service uses it (every `z.<name>` of the modules that import zod), for
// the functions that load it on a request's arrival rather than at their start (infra/bundling.ts,
// deferClassicZod): infra/bundled/zod-deferred.ts stands in for `zod` there and imports this module
// dynamically, so esbuild keeps it, and zod's core with it, in a chunk of its own. Evaluating it hands
// the names to the stand-in, whoever imports it.
//
// A name the service starts using must be added here (once) and in zod-deferred.ts: the functions
// are built with esbuild's `import-is-undefined` as an error, so a missing one fails the build, not
// a request.
export {
  ZodObject,
  array,
  boolean,
  email,
  enum,
  iso,
  literal,
  looseObject,
  null,
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
// The module's own namespace holds exactly the names above (esbuild keeps no other part of the API).
import * as api from './zod-classic';

classicZod.provide?.(api);
