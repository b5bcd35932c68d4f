// `npm run admin -- <command>`: operator commands against a deployed stack's table (or any table:
// TABLE_NAME / --table, with the usual AWS credentials and region, or AWS_ENDPOINT_URL).
//
//   create-account --name <account> --email <admin e-mail> [--admin-name <name>] [--password <p>] [--api-key <token ≥ 32>]
//   bootstrap [--email <e-mail>] [--password <p>] [--api-key <token>]    first account, only when the table has none
//   recount [--account <acc_… or ULID>]                                   recompute every counter from the items
//   reindex-alerts [--account <acc_… or ULID>]                            rewrite the alerts' list indexes, then recount
//   import opsgenie --api-key <key> [--api-url …] [--account …] [--dry-run] [--from …]   infra/import-command.ts
//   help (or --help, -h)                                                   this usage
import { parseArgs } from 'node:util';
import { bootstrap } from '../lib/accounts/bootstrap';
import { createAccountWithAdmin, type CreatedAccount } from '../lib/accounts/create-account';
import { reindexAlerts } from '../lib/alerts/bulk-store';
import { allAccountIds, recountAccount } from '../lib/counters/recount-counters';
import { parseId } from '../lib/ids';
import { logsWritten } from '../lib/log';
import { importCommand, IMPORT_USAGE } from './import-command';

const USAGE = `Operator commands against the service's table (TABLE_NAME or --table; AWS credentials and region as usual,
AWS_ENDPOINT_URL for an emulator).

usage:
  npm run admin -- create-account --name <account> --email <admin e-mail> [--admin-name <name>] [--password <p>] [--api-key <token>] [--table <name>]
      a new account and its admin (a generated password is printed once)
  npm run admin -- bootstrap [--email <e-mail>] [--password <p>] [--api-key <token>] [--table <name>]
      the first account, only when the table has none
  npm run admin -- recount [--account <acc_… or ULID>] [--table <name>]
      recompute every counter (list totals, per-state counts) of one account or of every account from
      its items, and repair those that are off; prints one line per counter
  npm run admin -- reindex-alerts [--account <acc_… or ULID>] [--table <name>]
      rewrite what the alert lists read besides the alerts (index keys, team and word items) for one
      account or every account, then recount its counters: after deploying new list indexes, or to
      repair the links of an alert whose writes a crash cut short
${IMPORT_USAGE}
  npm run admin -- help
      this text`;

function print(created: CreatedAccount, passwordGiven: boolean): void {
  console.log(`account:   acc_${created.account.id}`);
  console.log(`username:  ${created.admin.user.emails[0].email}`);
  console.log(`password:  ${passwordGiven ? '(as given)' : created.password}`);
  if (created.apiKey) console.log(`api key:   tkn_${created.apiKey.record.id} (token as given)`);
}

async function recount(account: string | undefined): Promise<number> {
  const accountId = account === undefined ? null : parseId('account', account);
  if (account !== undefined && !accountId) {
    console.error(`--account must be an account id (acc_… or a ULID): ${account}`);
    return 2;
  }
  let problems = 0;
  const accounts = accountId ? [accountId] : allAccountIds();
  for await (const id of accounts) {
    for (const result of await recountAccount(id)) {
      const all = Object.entries(result.corrections);
      // Owner counts may correct thousands of owners at once (the first recount after an upgrade).
      const fixes = all.slice(0, 20).map(([field, { was, now }]) => `${field} ${was} → ${now}`);
      if (all.length > 20) fixes.push(`… and ${all.length - 20} more`);
      console.log(`acc_${id} ${result.type.padEnd(6)} ${result.status}${fixes.length ? `: ${fixes.join(', ')}` : ''}`);
      if (result.status === 'busy' || result.status === 'unknown-type') problems++;
    }
  }
  if (problems > 0) console.error(`${problems} counter(s) could not be settled: run the command again when the service is quieter.`);
  return problems > 0 ? 1 : 0;
}

async function reindex(account: string | undefined): Promise<number> {
  const accountId = account === undefined ? null : parseId('account', account);
  if (account !== undefined && !accountId) {
    console.error(`--account must be an account id (acc_… or a ULID): ${account}`);
    return 2;
  }
  const accounts = accountId ? [accountId] : allAccountIds();
  for await (const id of accounts) console.log(`acc_${id} alerts reindexed: ${await reindexAlerts(id)}`);
  return recount(account);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || ['help', '--help', '-h'].includes(command)) {
    (command === undefined ? console.error : console.log)(USAGE);
    return command === undefined ? 2 : 0;
  }
  // The import reads its own options: its --api-key is the source's key, not one of ours.
  if (command === 'import') return importCommand(rest);
  if (!['create-account', 'bootstrap', 'recount', 'reindex-alerts'].includes(command)) {
    console.error(`unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        'admin-name': { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        'api-key': { type: 'string' },
        account: { type: 'string' },
        table: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (typeof values.table === 'string') process.env.TABLE_NAME = values.table;
  if (!process.env.TABLE_NAME) {
    console.error('Set TABLE_NAME (the stack output TableName) or pass --table.');
    return 2;
  }
  const apiKey = values['api-key'] as string | undefined;
  if (apiKey !== undefined && apiKey.length < 32) {
    console.error('--api-key must be at least 32 characters long.');
    return 2;
  }
  if (command === 'recount') return recount(values.account as string | undefined);
  if (command === 'reindex-alerts') return reindex(values.account as string | undefined);
  if (command === 'create-account') {
    if (!values.name || !values.email) {
      console.error(USAGE);
      return 2;
    }
    const created = await createAccountWithAdmin({
      accountName: values.name as string,
      name: (values['admin-name'] as string | undefined) ?? 'Admin',
      email: values.email as string,
      password: values.password as string | undefined,
      apiKey,
    });
    print(created, values.password !== undefined);
    return 0;
  }
  const created = await bootstrap({ email: values.email as string | undefined, password: values.password as string | undefined, apiKey });
  if (!created) {
    console.log('The table already has an account; nothing to do.');
    return 0;
  }
  print(created, values.password !== undefined);
  return 0;
}

// Lines the service's code logged while the Logger loaded wait for it (lib/log.ts): out before the process ends.
main().then(
  async (code) => {
    await logsWritten();
    process.exit(code);
  },
  async (error) => {
    console.error(error instanceof Error ? error.message : error);
    await logsWritten();
    process.exit(1);
  },
);
