// PUT /api/v4/sso (docs/api.md#single-sign-on): an admin sets the account's OpenID Connect issuer and
// client. The issuer's discovery document is read and checked on every save (a refusal is a 422
// naming issuer, and nothing changes); the client secret is stored sealed and never shown. The first
// save needs issuer, client_id and client_secret; a later one changes only what it sends (the
// console leaves the secret out to keep it).
import { sealSecret } from '../auth/sealed-secrets';
import { requireAdmin } from '../auth/permissions';
import { getSsoSettings, saveSsoSettings, ssoSealingContext, type SsoSettingsRecord } from '../auth/sso-settings-store';
import { nowIso } from '../clock';
import { definedOnly } from '../http/changes';
import { Conflict, Invalid } from '../http/errors';
import { noRoles, type Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { discoverIssuer } from './discovery';
import { IssuerCallFailed } from './issuer-calls';
import { configureSsoInput } from './schemas';

export async function configureSso(principal: Principal, body: unknown): Promise<SsoSettingsRecord> {
  requireAdmin(principal, 'set up single sign-on');
  const input = parseInput(configureSsoInput, body);
  const previous = await getSsoSettings(principal.accountId);
  const issuer = input.issuer ?? previous?.issuer;
  const clientId = input.client_id ?? previous?.client_id;
  const missing = [!issuer && 'issuer', !clientId && 'client_id', !input.client_secret && !previous && 'client_secret'].filter(Boolean);
  if (missing.length > 0) throw new Invalid(missing.map((field) => `${String(field)} can't be blank`));
  let metadata;
  try {
    metadata = await discoverIssuer(issuer!);
  } catch (error) {
    if (error instanceof IssuerCallFailed) throw new Invalid(`issuer could not be used: ${error.message}`);
    throw error;
  }
  const at = nowIso();
  const record: SsoSettingsRecord = {
    account_id: principal.accountId,
    ...metadata,
    client_id: clientId!,
    client_secret_sealed: input.client_secret
      ? await sealSecret(input.client_secret, ssoSealingContext(principal.accountId))
      : previous!.client_secret_sealed,
    enforce: input.enforce ?? previous?.enforce ?? false,
    create_users: input.create_users ?? previous?.create_users ?? false,
    default_roles: { ...noRoles(), ...previous?.default_roles, ...definedOnly(input.default_roles ?? {}) },
    updated_by: principal.accountUserId,
    created_at: previous?.created_at ?? at,
    updated_at: at,
    version: (previous?.version ?? 0) + 1,
  };
  if (!(await saveSsoSettings(record)))
    throw new Conflict('the single sign-on settings were changed by another request meanwhile; try again');
  return record;
}
