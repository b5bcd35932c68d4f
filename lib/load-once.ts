// A dynamic import made once per process: `loadOnce(() => import('./x'))` is what a route or a rare
// path loads with its first use (a chunk of its own in the deployed bundle, infra/bundling.ts), as a
// plain import() is, but every later call returns the promise already made. A plain import() asks the
// module loader again on every call: under the local runtime's TypeScript loader (tsx) that is a
// round trip to the loader's thread on every request (~5 % of the main thread's CPU under API load).
// A failed load is forgotten, so the next call tries again.
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
