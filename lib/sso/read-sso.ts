// GET /api/v4/sso (docs/api.md#single-sign-on): the account's settings, for any of its account users
// (reading is open to every role); 404 while single sign-on is not set up.
import { getSsoSettings, type SsoSettingsRecord } from '../auth/sso-settings-store';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';

export const SSO_NOT_SET_UP = 'Single sign-on is not set up for this account';

export async function readSso(principal: Principal): Promise<SsoSettingsRecord> {
  const record = await getSsoSettings(principal.accountId);
  if (!record) throw new NotFound(SSO_NOT_SET_UP);
  return record;
}
