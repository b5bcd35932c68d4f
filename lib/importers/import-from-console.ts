// POST /api/v4/imports (docs/api.md#imports): an admin runs an import from the console. The same
// run as the admin CLI's (run-import.ts), loaded on first use so the function's cold start does not
// parse the importers. The key is passed to the source's reader and nowhere else: no record, log
// line, audit event or answer holds it. A key the source refuses is the caller's mistake (422
// naming api_key); a source that cannot be reached or fails is a 502 that says which.
import { requireAdmin } from '../auth/permissions';
import { config } from '../config';
import { BadGateway, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parseDateTimeIn } from '../oncall/datetime-inputs';
import type { ImportReport } from './run-import';
import { runImportInput } from './schemas';
import { refusedSource } from './source-address';
import type { SourceName } from './source-model';
import { loadOnce } from '../load-once';

const loadRunImport = /* @__PURE__ */ loadOnce(() => import('./run-import'));
const loadSourceApi = /* @__PURE__ */ loadOnce(() => import('./source-api'));
const loadOpsgenieReader = /* @__PURE__ */ loadOnce(() => import('./opsgenie/reader'));
const loadSourceFetch = /* @__PURE__ */ loadOnce(() => import('./source-fetch'));
const loadOutbound = /* @__PURE__ */ loadOnce(() => import('../outbound'));

const LABELS: Record<SourceName, string> = { opsgenie: 'Opsgenie', pagerduty: 'PagerDuty', 'grafana-oncall': 'Grafana OnCall' };

export async function importFromConsole(principal: Principal, body: unknown, baseUrl: string): Promise<ImportReport> {
  requireAdmin(principal, 'import from another service');
  const input = parseInput(runImportInput, body);
  if (input.source === 'grafana-oncall' && !input.api_url)
    throw new Invalid("api_url can't be blank for Grafana OnCall: its API URL is per stack (OnCall's settings page shows it)");
  let from: number | undefined;
  if (input.from !== undefined) {
    const parsed = parseDateTimeIn(input.from, 'UTC');
    if (parsed === null) throw new Invalid('from must be an ISO 8601 datetime (e.g. 2026-03-20T00:00:00Z)');
    from = parsed;
  }
  if (input.api_url) {
    const refused = await refusedSource(new URL(input.api_url), config().ALLOW_PRIVATE_IMPORT_SOURCES);
    if (refused) throw new Invalid(`api_url ${refused}`);
  }
  const label = LABELS[input.source];
  const [{ runImport }, { SourceApiError }, { OpsgenieError }, { SourceUnreachable }, { OutboundTargetRefused }] = await Promise.all([
    loadRunImport(),
    loadSourceApi(),
    loadOpsgenieReader(),
    loadSourceFetch(),
    loadOutbound(),
  ]);
  try {
    return await runImport(principal, {
      source: input.source,
      apiKey: input.api_key,
      ...(input.api_url ? { apiUrl: input.api_url } : {}),
      allowPrivateAddresses: config().ALLOW_PRIVATE_IMPORT_SOURCES,
      dryRun: input.dry_run ?? true,
      ...(from !== undefined ? { from } : {}),
      baseUrl,
      by: 'an admin in the console',
    });
  } catch (error) {
    // The source's HTTP status when it answered with an error, null when it gave none.
    const status = error instanceof SourceApiError || error instanceof OpsgenieError ? error.status : undefined;
    if (status === 401 || status === 403)
      throw new Invalid(`api_key was refused by ${label} (${status}): is it right, and may it read the account?`);
    if (status !== undefined) throw new BadGateway(`${label} could not be read: ${(error as Error).message}`);
    // Nothing usable answered at the address (no connection, no answer in time, a redirect).
    if (error instanceof SourceUnreachable)
      throw new BadGateway(`${label} could not be reached at ${input.api_url ?? 'its API'}: ${error.reason}`);
    // A name that resolved to an allowed address when checked above, and to a refused one when the reader connected.
    if (error instanceof OutboundTargetRefused) throw new Invalid(`api_url ${error.message}`);
    throw error;
  }
}
