// Creating an account with its first admin: shared by first start (bootstrap), public signup and
// the admin command for deployed stacks.
import { createUser } from '../account-users/create-user';
import { profileOf, type AccountUserRecord } from '../account-users/records';
import { insertAccountUser } from '../account-users/store';
import { issueApiKey } from '../api-keys/create-api-key';
import type { ApiKeyRecord } from '../api-keys/records';
import { generatePassword, generateToken } from '../auth/passwords';
import { noRoles } from '../http/principal';
import { newId } from '../ids';
import type { AccountRecord } from './records';
import { insertAccount } from './store';

export interface NewAccount {
  accountName: string;
  name: string;
  email: string;
  /** Generated when absent. */
  password?: string;
  /** An API key token to issue to the admin (at least 32 characters). */
  apiKey?: string;
}

export interface CreatedAccount {
  account: AccountRecord;
  admin: AccountUserRecord;
  password: string;
  apiKey: { record: ApiKeyRecord; token: string } | null;
}

export async function createAccountWithAdmin(input: NewAccount): Promise<CreatedAccount> {
  const now = new Date().toISOString();
  const password = input.password ?? generatePassword();
  const user = await createUser(
    { name: input.name, emails: [{ id: newId(), email: input.email.trim().toLowerCase(), primary: true }], phones: [] },
    password,
  );
  const account: AccountRecord = {
    id: newId(),
    name: input.accountName,
    token_id: generateToken(),
    meta: {},
    sso: {},
    notification_templates: {},
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertAccount(account);
  const admin: AccountUserRecord = {
    id: newId(),
    account_id: account.id,
    user_id: user.id,
    roles: { ...noRoles(), admin: true },
    notification_rule_id: null,
    user: profileOf(user),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertAccountUser(admin);
  const apiKey = input.apiKey ? await issueApiKey(account.id, admin.id, 'bootstrap', input.apiKey) : null;
  return { account, admin, password, apiKey };
}
