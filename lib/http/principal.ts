// Who is calling: an account user of one account, authenticated by a login JWT or an API key.

export interface Roles {
  admin: boolean;
  billing: boolean;
  broadcaster: boolean;
  communicator: boolean;
}

export const ROLE_NAMES = ['admin', 'billing', 'broadcaster', 'communicator'] as const;

export function noRoles(): Roles {
  return { admin: false, billing: false, broadcaster: false, communicator: false };
}

export interface Principal {
  accountId: string;
  accountUserId: string;
  userId: string;
  roles: Roles;
  /** How the caller came: a login token, an API key, Slack (a linked Slack user's click or command),
   * or an identity provider's SCIM token (acting for the account as an admin; accountUserId is the
   * admin who made the token). */
  via: 'jwt' | 'api_key' | 'slack' | 'scim';
  apiKeyId?: string;
  scimTokenId?: string;
}
