// `npm run admin -- <command>`: operator commands against a deployed stack's table (or any table:
// TABLE_NAME / --table, with the usual AWS credentials and region, or AWS_ENDPOINT_URL).
//
//   create-account --name <account> --email <admin e-mail> [--admin-name <name>] [--password <p>] [--api-key <token ≥ 32>]
//   bootstrap [--email <e-mail>] [--password <p>] [--api-key <token>]    first account, only when the table has none
import { parseArgs } from 'node:util';
import { bootstrap } from '../lib/accounts/bootstrap';
import { createAccountWithAdmin, type CreatedAccount } from '../lib/accounts/create-account';

const USAGE = `usage:
  npm run admin -- create-account --name <account> --email <admin e-mail> [--admin-name <name>] [--password <p>] [--api-key <token>] [--table <name>]
  npm run admin -- bootstrap [--email <e-mail>] [--password <p>] [--api-key <token>] [--table <name>]`;

function print(created: CreatedAccount, passwordGiven: boolean): void {
  console.log(`account:   acc_${created.account.id}`);
  console.log(`username:  ${created.admin.user.emails[0].email}`);
  console.log(`password:  ${passwordGiven ? '(as given)' : created.password}`);
  if (created.apiKey) console.log(`api key:   tkn_${created.apiKey.record.id} (token as given)`);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'admin-name': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'api-key': { type: 'string' },
      table: { type: 'string' },
    },
  });
  if (values.table) process.env.TABLE_NAME = values.table;
  if (!process.env.TABLE_NAME) {
    console.error('Set TABLE_NAME (the stack output TableName) or pass --table.');
    return 2;
  }
  if (values['api-key'] !== undefined && values['api-key'].length < 32) {
    console.error('--api-key must be at least 32 characters long.');
    return 2;
  }
  if (command === 'create-account') {
    if (!values.name || !values.email) {
      console.error(USAGE);
      return 2;
    }
    const created = await createAccountWithAdmin({
      accountName: values.name,
      name: values['admin-name'] ?? 'Admin',
      email: values.email,
      password: values.password,
      apiKey: values['api-key'],
    });
    print(created, values.password !== undefined);
    return 0;
  }
  if (command === 'bootstrap') {
    const created = await bootstrap({ email: values.email, password: values.password, apiKey: values['api-key'] });
    if (!created) {
      console.log('The table already has an account; nothing to do.');
      return 0;
    }
    print(created, values.password !== undefined);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
