// An account's single sign-on settings (lib/sso, docs/api.md#single-sign-on). They sit with the
// other credentials' items because password sign-in (lib/accounts/login.ts) reads them too: with
// `enforce`, the account's members may not sign in with a password.
//   settings   A#<acc>#SSO / SETTINGS   one item per account at most
import type { Roles } from '../http/principal';
import { auditedDelete, finishEvent, prepareCreate, prepareUpdate, withoutCarried } from '../store/audit-carried';
import { deleteItem, fromItem, getItem, putIfVersion, putNew } from '../store/items';

export interface SsoSettingsRecord {
  account_id: string;
  /** The issuer exactly as its discovery document names it. */
  issuer: string;
  client_id: string;
  /** Sealed with the context `sso:<account>:client_secret` (lib/auth/sealed-secrets.ts). */
  client_secret_sealed: string;
  enforce: boolean;
  create_users: boolean;
  default_roles: Roles;
  /** From the discovery document when the settings were last saved. */
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  /** Client authentication the token endpoint takes: HTTP Basic unless it supports only the form. */
  token_endpoint_auth: 'client_secret_basic' | 'client_secret_post';
  /** ID token signature algorithms the issuer says it uses (none and HMAC left out). */
  id_token_algorithms: string[];
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export const ssoSealingContext = (accountId: string) => `sso:${accountId}:client_secret`;

const settingsKey = (accountId: string) => ({ pk: `A#${accountId}#SSO`, sk: 'SETTINGS' });

export async function getSsoSettings(accountId: string): Promise<SsoSettingsRecord | null> {
  const item = await getItem(settingsKey(accountId));
  return item ? fromItem<SsoSettingsRecord>(withoutCarried(item)) : null;
}

// Audited as the account's `sso_settings` (docs/api.md#audit-trail): the client secret's seal is redacted.
const auditTarget = (accountId: string) => ({ accountId, objectType: 'sso_settings', objectId: accountId });

/** Writes the settings if nobody changed them since `record.version - 1` was read (the first: none stored); false when someone did. */
export async function saveSsoSettings(record: SsoSettingsRecord): Promise<boolean> {
  const key = settingsKey(record.account_id);
  const item = { ...key, ...record };
  const first = record.version === 1;
  const audit = first
    ? await prepareCreate(key, item, auditTarget(record.account_id))
    : await prepareUpdate(key, item, auditTarget(record.account_id));
  if (!(first ? await putNew(item) : await putIfVersion(item, record.version - 1))) return false;
  await finishEvent(audit);
  return true;
}

export async function removeSsoSettings(accountId: string): Promise<SsoSettingsRecord | null> {
  const key = settingsKey(accountId);
  const item = await auditedDelete(key, auditTarget(accountId), () => deleteItem(key));
  return item ? fromItem<SsoSettingsRecord>(withoutCarried(item)) : null;
}
