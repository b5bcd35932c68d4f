// A zod schema built the first time something uses it, not when its module loads. Importing a
// function used to build every schema its routes and use cases hold, 138 (the configuration's) to
// 713 of them, while a request reads one route's input and the response schemas are read only by
// the OpenAPI document and the tests (issue 21: the cold start). A module's schemas therefore stand
// in as `lazySchema(() => z…)`, or `lazyObject(() => ({ …shape }))` and `lazyStrictObject`: the
// stand-in is the schema for every purpose (parse, compose, `instanceof`, the document's names).
// Stand-ins composed inside another's builder stay lazy until it is built.
//
// The stand-in is a Proxy over an object that becomes the schema: on first use the builder makes
// the real schema, and zod's constructor then initialises the stand-in itself with the same
// definition, so every closure zod keeps (parsing, the JSON Schema conversion, registries) sees the
// stand-in's one identity. A registry entry (`documentNames.add`) or an `===` made with the stand-in
// holds, and the schemas built from it (`.optional()`, `.extend()`) refer to it. Metadata the builder
// registers on its result (`.describe()`, `.meta()`) is copied to the stand-in.
import * as z from 'zod';

/**
 * The registry every zod copy shares: zod keeps it on globalThis, made by the first copy loaded.
 * Read there, not imported from a copy: a stand-in of a mini schema (lib/page-responses/schemas.ts)
 * must not load the classic API with it, nor a function's start zod/mini's builders for it (issue
 * 21). A stand-in reads it once its builder has built a schema, so a copy of zod is loaded by then.
 */
const globalRegistry = () => (globalThis as { __zod_globalRegistry?: z.core.$ZodRegistry<z.core.GlobalMeta> }).__zod_globalRegistry!;

interface Internals {
  def: unknown;
  parent?: unknown;
  deferred?: (() => void)[];
  constr: { init(instance: object, def: unknown): void };
}

export function lazySchema<T extends z.core.$ZodType>(build: () => T): T {
  const target = {};
  let ready = false;
  const become = () => {
    if (ready) return;
    ready = true;
    let schema: T;
    try {
      schema = build();
    } catch (error) {
      // Nothing of the stand-in changed yet: a later use builds it again (a builder that ran before
      // its zod was loaded, infra/bundled/zod-deferred.ts, must not break the schema for good).
      ready = false;
      throw error;
    }
    const internals = schema._zod as unknown as Internals;
    Reflect.setPrototypeOf(target, Reflect.getPrototypeOf(schema));
    internals.constr.init(stand, internals.def);
    const own = stand._zod as unknown as Internals;
    // What zod's constructor does after init, and what a clone sets on its result.
    for (const deferred of own.deferred ?? []) deferred();
    own.deferred = undefined;
    if (internals.parent) own.parent = internals.parent;
    const meta = globalRegistry().get(schema);
    if (meta) globalRegistry().add(stand, meta);
  };
  const stand = new Proxy(target, {
    get: (t, key, receiver): unknown => (become(), Reflect.get(t, key, receiver) as unknown),
    set: (t, key, value, receiver) => (become(), Reflect.set(t, key, value, receiver)),
    has: (t, key) => (become(), Reflect.has(t, key)),
    ownKeys: (t) => (become(), Reflect.ownKeys(t)),
    getPrototypeOf: (t) => (become(), Reflect.getPrototypeOf(t)),
    setPrototypeOf: (t, prototype) => (become(), Reflect.setPrototypeOf(t, prototype)),
    defineProperty: (t, key, descriptor) => (become(), Reflect.defineProperty(t, key, descriptor)),
    deleteProperty: (t, key) => (become(), Reflect.deleteProperty(t, key)),
    getOwnPropertyDescriptor: (t, key) => (become(), Reflect.getOwnPropertyDescriptor(t, key)),
    isExtensible: (t) => (become(), Reflect.isExtensible(t)),
    preventExtensions: (t) => (become(), Reflect.preventExtensions(t)),
  }) as T;
  return stand;
}

/** `z.object(shape)`, built on first use: the shape is written as it would be, inside `() => ({ … })`. */
export function lazyObject<Shape extends z.core.$ZodLooseShape>(shape: () => Shape) {
  return lazySchema(() => z.object(shape()));
}

/** `z.strictObject(shape)`, built on first use. */
export function lazyStrictObject<Shape extends z.core.$ZodLooseShape>(shape: () => Shape) {
  return lazySchema(() => z.strictObject(shape()));
}
