// zod's classic API as the service uses it (every `z.<name>` of the modules that import zod), for
// the functions that load it on a request's arrival rather than at their start (infra/bundling.ts,
// deferClassicZod): infra/bundled/zod-deferred.ts stands in for `zod` there and imports this module
// dynamically, so esbuild keeps it, and zod's core with it, in a chunk of its own. Evaluating it hands
// the names to the stand-in, whoever imports it.
//
// A name the service starts using must be added to zod-classic-api.ts and zod-deferred.ts: the
// functions are built with esbuild's `import-is-undefined` as an error, so a missing one fails the
// build, not a request.
import { classicZod } from '../../lib/http/classic-zod';
import * as api from './zod-classic-api';

classicZod.provide?.(api);
