// The names of zod's classic API the service uses (every `z.<name>` of the modules that import zod),
// re-exported for infra/bundled/zod-classic.ts, which hands this module's namespace over: esbuild
// keeps exactly these parts of the API. A name the service starts using goes here and in
// zod-deferred.ts.
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
