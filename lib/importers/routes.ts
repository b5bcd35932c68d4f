// The routes of the `imports` function (functions/http/imports.ts): an import run from the console.
// A function of its own because an import outlives the 10 s of the other HTTP functions.
import { declareRoutes } from '../http/route-contract';
import { ImportReportV4, runImportInput } from './schemas';

export const importRoutes = declareRoutes('imports', {
  run: {
    method: 'POST',
    path: '/api/v4/imports',
    summary: 'Import from Opsgenie, PagerDuty or Grafana OnCall',
    description:
      "Account admins only (403 otherwise). Reads the source account with api_key (used for this run only: never stored, logged or answered), plans or makes its people, teams, schedules, escalation policies and integrations here (dry_run defaults to true: nothing is written), then compares every schedule's on-call with the source's over 28 days from `from`. A key the source refuses is a 422 naming api_key; a source that cannot be reached or answers an error is a 502. API Gateway answers 504 after 29 s while the import goes on; running it again is safe (it updates what it made and creates no duplicates). While a run that writes goes on in the account, another is a 409 (dry runs may run beside it).",
    tag: 'Imports',
    body: runImportInput,
    success: [
      { status: 200, description: 'The report: plan, what has no equivalent, integrations old → new, the proof', schema: ImportReportV4 },
    ],
    errors: [400, 401, 403, 409, 413, 'invalid', 502],
  },
});
