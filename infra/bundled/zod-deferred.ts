// Stands in for `zod` in the functions that load zod's classic API on a request's arrival rather
// than at their start (infra/bundling.ts, deferClassicZod: the HTTP functions that validate requests
// with it). Issue 21: the classic API is ~96 KiB of every such function's start, ~0.25 of the SDK's
// own initialisation, while a GET or a DELETE builds no schema.
//
// Every name the service reads from zod (infra/bundled/zod-classic-api.ts) is a binding here, empty until
// the API is loaded, then the API's own: ESM bindings are live, so `z.object` in a schema's builder
// reads the loaded function. The function's handler starts the load when a request arrives and waits
// for it before it runs the route (lib/http/classic-zod.ts, lib/api/handler.ts), so the load's
// compilation overlaps the authentication's round trips; nothing builds a schema before (schemas are
// built on first use, lib/lazy-schema.ts, and test/infra/bundles.test.ts checks that importing a
// function builds none; test/infra/deferred-zod.test.ts runs bundles whose API loads late).
import type * as Classic from 'zod/v4';
import { classicZod } from '../../lib/http/classic-zod';

type Names =
  | 'ZodObject'
  | 'array'
  | 'boolean'
  | 'email'
  | 'enum'
  | 'iso'
  | 'literal'
  | 'looseObject'
  | 'null'
  | 'number'
  | 'object'
  | 'preprocess'
  | 'record'
  | 'registry'
  | 'strictObject'
  | 'string'
  | 'toJSONSchema'
  | 'tuple'
  | 'union'
  | 'unknown'
  | 'url';
type ClassicZod = Pick<typeof Classic, Names>;

export let ZodObject: ClassicZod['ZodObject'];
export let array: ClassicZod['array'];
export let boolean: ClassicZod['boolean'];
export let email: ClassicZod['email'];
let enumOf: ClassicZod['enum'];
export let iso: ClassicZod['iso'];
export let literal: ClassicZod['literal'];
export let looseObject: ClassicZod['looseObject'];
let nullOf: ClassicZod['null'];
export let number: ClassicZod['number'];
export let object: ClassicZod['object'];
export let preprocess: ClassicZod['preprocess'];
export let record: ClassicZod['record'];
export let registry: ClassicZod['registry'];
export let strictObject: ClassicZod['strictObject'];
export let string: ClassicZod['string'];
export let toJSONSchema: ClassicZod['toJSONSchema'];
export let tuple: ClassicZod['tuple'];
export let union: ClassicZod['union'];
export let unknown: ClassicZod['unknown'];
export let url: ClassicZod['url'];
export { enumOf as enum, nullOf as null };

/** Called by infra/bundled/zod-classic.ts as it is evaluated: from then on every binding is the API's. */
classicZod.provide = (api) => {
  const zod = api as ClassicZod;
  ({ ZodObject, array, boolean, email, iso, literal, looseObject, number, object, preprocess, record, registry } = zod);
  ({ strictObject, string, toJSONSchema, tuple, union, unknown, url } = zod);
  enumOf = zod.enum;
  nullOf = zod.null;
  classicZod.load = () => undefined;
};

let loading: Promise<void> | undefined;

classicZod.load = () =>
  (loading ??= import('./zod-classic').then(
    () => undefined,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));
