// First start (docs/api.md#roles): when the store holds no account, create one account with one admin
// from BOOTSTRAP_EMAIL / BOOTSTRAP_PASSWORD / BOOTSTRAP_API_KEY. A marker item claimed with a
// conditional write makes this happen once, even when several processes start together.
import { newId } from '../ids';
import { createAccountWithAdmin, type CreatedAccount } from './create-account';
import { claimBootstrap, getBootstrapMarker } from './store';

export interface BootstrapOptions {
  email?: string;
  password?: string;
  apiKey?: string;
  accountName?: string;
}

export function validateBootstrap(options: BootstrapOptions): void {
  if (options.apiKey !== undefined && options.apiKey.length < 32) {
    throw new Error('BOOTSTRAP_API_KEY must be at least 32 characters long');
  }
  if (options.password !== undefined && options.password.length < 8) {
    throw new Error('BOOTSTRAP_PASSWORD must be at least 8 characters long');
  }
}

/** Creates the first account when there is none; null when the store already had one. */
export async function bootstrap(options: BootstrapOptions): Promise<CreatedAccount | null> {
  validateBootstrap(options);
  if (await getBootstrapMarker()) return null;
  if (!(await claimBootstrap(newId()))) return null;
  return createAccountWithAdmin({
    accountName: options.accountName ?? 'My Account',
    name: 'Admin',
    email: options.email ?? 'admin@example.com',
    password: options.password,
    apiKey: options.apiKey,
  });
}
