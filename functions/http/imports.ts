// Entry point: an import from the console (/api/v4/imports). Flow: route → lib/importers (validate,
// the run loaded on first use) → 200 with the report.
import { httpHandler } from '../../lib/api/handler';
import { baseUrlOf } from '../../lib/http/base-url';
import { ok } from '../../lib/http/replies';
import { importFromConsole } from '../../lib/importers/import-from-console';
import { importReportToV4 } from '../../lib/importers/represent';
import { importRoutes } from '../../lib/importers/routes';

export const handler = httpHandler(importRoutes, {
  run: async (req) => ok(importReportToV4(await importFromConsole(req.principal, req.body(), baseUrlOf(req)))),
});
