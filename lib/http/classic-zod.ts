// Where an HTTP function's handler waits for zod's classic API before it runs a route
// (lib/api/handler.ts). In most functions the API is loaded with the function (a static import) and
// `load` answers undefined: nothing to wait for. In the functions that validate requests with it
// and are built to load it on a request's arrival (infra/bundling.ts, CLASSIC_ZOD_DEFERRED), the
// module standing in for `zod` (infra/bundled/zod-deferred.ts) sets `load` to start loading it and
// answer the promise, until it is loaded; the API's chunk (infra/bundled/zod-classic.ts) hands its
// names to the stand-in through `provide` as it is evaluated.
export const classicZod: { load: () => Promise<void> | undefined; provide?: (api: unknown) => void } = { load: () => undefined };
