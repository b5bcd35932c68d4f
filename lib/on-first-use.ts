// Packages a function loads the first time a request needs them: the YAML parser, RE2,
// Handlebars' compiler and JMESPath (an integration's wrapper_key). Each is a dynamic import, so
// the deployed bundle keeps it in a chunk of its own (infra/bundling.ts) and a cold start does not
// parse it. The code that uses them is synchronous (rule parsing, template checks and rendering,
// a payload's adaptation), so it asks for the package through the getter `onFirstUse` returns,
// which throws NotLoadedYet until it is loaded; `whenLoaded(work)`, at the asynchronous edge, loads
// what was missing and runs the work again. The work must be pure up to that point (parsing,
// compiling, rendering, adapting are): running it twice does nothing twice.
// Declarations are marked pure (/* @__PURE__ */), so a bundle that never calls a getter leaves the
// package out altogether, chunk included.

export class NotLoadedYet extends Error {
  constructor(readonly load: () => Promise<void>) {
    super('a package loaded on first use is not loaded yet: run the work through whenLoaded()');
  }
}

export interface OnFirstUse<T> {
  /** The package, or NotLoadedYet when it has not been loaded in this process yet. */
  (): T;
  /** For a module that imports the package statically anyway: no reason to wait for it. */
  provide(loaded: T): void;
}

/** Every package declared here, for tests of the synchronous engines that use them. */
const declared: (() => Promise<void>)[] = [];

export function onFirstUse<T>(load: () => Promise<T>): OnFirstUse<T> {
  let loaded: T | undefined;
  let loading: Promise<void> | undefined;
  const start = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const get = (() => {
    if (loaded === undefined) throw new NotLoadedYet(start);
    return loaded;
  }) as OnFirstUse<T>;
  get.provide = (module) => {
    loaded = module;
  };
  declared.push(start);
  return get;
}

/** Loads every package the modules imported so far declare: for unit tests that call the engines directly. */
export async function loadEveryPackageOnFirstUse(): Promise<void> {
  await Promise.all(declared.map((start) => start()));
}

/** Runs synchronous work that may need packages loaded on first use, loading each the first time. */
export async function whenLoaded<T>(work: () => T): Promise<T> {
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof NotLoadedYet)) throw error;
      await error.load();
    }
  }
}

/** For a catch-all in synchronous work: a package not loaded yet is no fault of the input, so it goes on up. */
export function passOnNotLoaded(error: unknown): void {
  if (error instanceof NotLoadedYet) throw error;
}
