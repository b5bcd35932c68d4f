// GET/PUT /api/v4/sso: the settings as the API shows them, never the client secret.
import type * as z from 'zod';
import type { SsoSettingsRecord } from '../auth/sso-settings-store';
import type { SsoSettingsV4 } from './schemas';

export function ssoSettingsToV4(record: SsoSettingsRecord, redirectUri: string): z.input<typeof SsoSettingsV4> {
  return {
    account_id: record.account_id,
    issuer: record.issuer,
    client_id: record.client_id,
    enforce: record.enforce,
    create_users: record.create_users,
    default_roles: record.default_roles,
    authorization_endpoint: record.authorization_endpoint,
    token_endpoint: record.token_endpoint,
    jwks_uri: record.jwks_uri,
    redirect_uri: redirectUri,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
