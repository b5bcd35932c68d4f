// `npm run admin -- import opsgenie --api-key … [--api-url …] [--account acc_…] [--as <admin e-mail>]
// [--dry-run] [--from <ISO datetime>] [--table …]`: reads the source's account through its REST API,
// prints the plan (or what was done), the integrations' old → new addresses, what has no
// equivalent here, and the on-call proof; exits 1 when the on-call differs. The API key is used for
// this run only: it is neither stored nor printed.
import { parseArgs } from 'node:util';
import { actingAs } from '../lib/audit-actor';
import { parseId } from '../lib/ids';
import { allAccountIds } from '../lib/counters/recount-counters';
import { formatReport } from '../lib/importers/format-report';
import { importPrincipal } from '../lib/importers/import-principal';
import { runImport, SOURCES } from '../lib/importers/run-import';
import type { SourceName } from '../lib/importers/source-model';

export const IMPORT_USAGE = `  npm run admin -- import opsgenie|pagerduty|grafana-oncall --api-key <key> [--api-url <url>] [--account <acc_…>] [--as <admin e-mail>] [--dry-run] [--from <ISO datetime>] [--table <name>]
      read an Opsgenie account (API v2; --api-url https://api.eu.opsgenie.com for the EU), a PagerDuty
      account (REST API v2; https://api.eu.pagerduty.com for the EU) or a Grafana OnCall stack (public
      API v1; --api-url required: the stack's OnCall API URL from its settings page) and import its
      people, teams, schedules, escalation policies and integrations; --dry-run prints the whole plan and
      writes nothing; a second run updates what the first made. Then compares who is on call here with
      the source over 28 days from --from (default now) and exits 1 when they differ anywhere`;

async function soleAccount(): Promise<string | null> {
  const ids: string[] = [];
  for await (const id of allAccountIds()) {
    ids.push(id);
    if (ids.length > 1) return null;
  }
  return ids[0] ?? null;
}

export async function importCommand(args: string[]): Promise<number> {
  const [sourceName, ...rest] = args;
  if (!sourceName || !(sourceName in SOURCES)) {
    console.error(`import needs a source: ${Object.keys(SOURCES).join(', ')}\n\n${IMPORT_USAGE}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      options: {
        'api-key': { type: 'string' },
        'api-url': { type: 'string' },
        account: { type: 'string' },
        as: { type: 'string' },
        'dry-run': { type: 'boolean' },
        from: { type: 'string' },
        table: { type: 'string' },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${IMPORT_USAGE}`);
    return 2;
  }
  if (typeof values.table === 'string') process.env.TABLE_NAME = values.table;
  if (!process.env.TABLE_NAME) {
    console.error('Set TABLE_NAME (the stack output TableName) or pass --table.');
    return 2;
  }
  const apiKey = values['api-key'];
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    console.error(`--api-key is required\n\n${IMPORT_USAGE}`);
    return 2;
  }
  const apiUrl = values['api-url'] as string | undefined;
  if (apiUrl !== undefined && !/^https?:\/\/[^/]+/.test(apiUrl)) {
    console.error(`--api-url must be an http(s) URL: ${apiUrl}`);
    return 2;
  }
  const from = values.from === undefined ? undefined : Date.parse(values.from as string);
  if (from !== undefined && Number.isNaN(from)) {
    console.error(`--from must be an ISO 8601 datetime (e.g. 2026-03-20T00:00:00Z): ${values.from as string}`);
    return 2;
  }
  const rawAccount = values.account as string | undefined;
  const accountId = rawAccount === undefined ? await soleAccount() : parseId('account', rawAccount);
  if (!accountId) {
    console.error(
      rawAccount === undefined
        ? 'The table has several accounts (or none): name one with --account acc_…'
        : `--account must be an account id (acc_… or a ULID): ${rawAccount}`,
    );
    return 2;
  }
  const principal = await importPrincipal(accountId, values.as as string | undefined);
  if (!principal) {
    console.error(
      values.as ? `acc_${accountId} has no admin with the address ${values.as as string}` : `acc_${accountId} has no admin to import as`,
    );
    return 2;
  }
  const report = await actingAs(
    { type: 'account_user', id: principal.accountUserId, ip: null, userAgent: `admin import ${sourceName}` },
    () =>
      runImport(principal, {
        source: sourceName as SourceName,
        apiKey,
        ...(apiUrl ? { apiUrl } : {}),
        // The operator's own run: a source on their network (a proxy, a stand-in) is theirs to name.
        allowPrivateAddresses: true,
        dryRun: values['dry-run'] === true,
        ...(from !== undefined ? { from } : {}),
        baseUrl: process.env.PUBLIC_BASE_URL?.replace(/\/+$/, '') || null,
        by: 'the admin CLI',
      }),
  );
  console.log(formatReport(report, { color: process.stdout.isTTY || process.env.FORCE_COLOR === '1' }));
  return report.proven ? 0 : 1;
}
