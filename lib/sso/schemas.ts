// Input schemas of single sign-on (contract §16, docs/api.md#single-sign-on) and its answers.
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { rolesInput } from '../account-users/schemas';
import { documentNames } from '../http/document-names';
import { boolish } from '../http/fields';
import { instant, ulid } from '../http/response-fields';

const email = lazySchema(() => z.string().trim().toLowerCase().max(254).pipe(z.email()));

/** PUT /api/v4/sso. The first PUT needs issuer, client_id and client_secret; later ones change what they send. */
export const configureSsoInput = lazyObject(() => ({
  issuer: z
    .string()
    .trim()
    .max(2048)
    .pipe(z.url({ protocol: /^https?$/, error: 'must be the https URL of an OpenID Connect issuer' }))
    .optional(),
  client_id: z.string().trim().min(1).max(512).optional(),
  client_secret: z.string().min(1).max(2048).optional(),
  enforce: boolish.optional(),
  create_users: boolish.optional(),
  default_roles: rolesInput.optional(),
}));

export type ConfigureSsoInput = z.infer<typeof configureSsoInput>;

/** GET /public/sso/start and /public/sso/accounts: who is signing in. */
export const signInQuery = lazyObject(() => ({
  email: email.optional(),
  account_id: z.string().trim().min(1).max(64).optional(),
}));

export const exchangeCodeInput = lazyObject(() => ({
  code: z.string().trim().min(1).max(256),
}));

// ---- representations: what represent.ts and the use cases return, and the document shows ----

/** The account's settings, never the client secret. */
export const SsoSettingsV4 = lazyStrictObject(() => ({
  account_id: ulid,
  issuer: z.string(),
  client_id: z.string(),
  enforce: z.boolean(),
  create_users: z.boolean(),
  default_roles: z.strictObject({ admin: z.boolean(), billing: z.boolean(), broadcaster: z.boolean(), communicator: z.boolean() }),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  /** What to register at the identity provider as the sign-in redirect URI. */
  redirect_uri: z.string(),
  created_at: instant,
  updated_at: instant,
}));

/** The accounts an address may sign in to with single sign-on: the console asks which when there are several. */
export const SsoAccountChoices = lazyStrictObject(() => ({
  data: z.array(z.strictObject({ account_id: ulid, account_name: z.string() })),
}));

documentNames.add(configureSsoInput, { id: 'SsoSettingsInput' });
documentNames.add(exchangeCodeInput, { id: 'SsoExchangeInput' });
documentNames.add(SsoSettingsV4, { id: 'SsoSettingsV4' });
documentNames.add(SsoAccountChoices, { id: 'SsoAccountChoices' });
