// Entry point: alert and page reports (contract §14). Flow: route → lib/reports (the window, the day
// aggregates summed) → 200.
import { httpHandler } from '../../lib/api/handler';
import { ok } from '../../lib/http/replies';
import { alertReport } from '../../lib/reports/read-alert-report';
import { pageReport } from '../../lib/reports/read-page-report';
import { reportRoutes } from '../../lib/reports/routes';

export const handler = httpHandler(reportRoutes, {
  alertReport: async (req) => ok(await alertReport(req.principal, req.query)),
  pageReport: async (req) => ok(await pageReport(req.principal, req.query)),
});
