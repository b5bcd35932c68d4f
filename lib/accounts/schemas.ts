// Input schemas of the account (api-earlier.md "Account"), login, signup and password reset (docs/api.md#authentication).
import * as z from 'zod';
import { lazyObject, lazyStrictObject } from '../lazy-schema';
import { newPassword } from '../account-users/schemas';
import { jsonData } from '../http/fields';
import { instant, jsonObject, prefixIdOf, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

export const updateAccountInput = lazyObject(() => ({
  name: z.string().trim().min(1).optional(),
  meta: jsonData().optional(),
  sso: jsonData().optional(),
  // Templates are longer text than meta: up to 64 KB in all.
  notification_templates: jsonData({ maxBytes: 64 * 1024 }).optional(),
}));

export const loginInput = lazyObject(() => ({
  username: z.string().trim().min(1),
  password: z.string().min(1),
  account_id: z.string().trim().min(1).optional(),
}));

export const signupInput = lazyObject(() => ({
  account_name: z.string().trim().min(1),
  name: z.string().trim().min(1),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  password: z.string().min(8, 'must be at least 8 characters'),
}));

export const passwordResetRequestInput = lazyObject(() => ({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
}));

export const passwordResetInput = lazyObject(() => ({
  password: newPassword,
}));

// ---- representations: what represent.ts returns, and the document shows ----

export const LoginResult = lazyStrictObject(() => ({ token: z.string().min(1) }));

export const SignupResult = lazyStrictObject(() => ({ token: z.string().min(1), account_id: ulid }));

export const PasswordResetRequested = lazyStrictObject(() => ({ message: z.string().min(1) }));

export const AccountEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('account'),
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  name: z.string(),
  token_id: z.string(),
  sso: jsonObject,
  notification_templates: jsonObject,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(loginInput, { id: 'LoginInput' });
documentNames.add(signupInput, { id: 'SignupInput' });
documentNames.add(passwordResetRequestInput, { id: 'PasswordResetRequestInput' });
documentNames.add(passwordResetInput, { id: 'PasswordResetInput' });
documentNames.add(updateAccountInput, { id: 'AccountUpdateEarlierInput' });
documentNames.add(LoginResult, { id: 'LoginResult' });
documentNames.add(SignupResult, { id: 'SignupResult' });
documentNames.add(PasswordResetRequested, { id: 'PasswordResetRequested' });
documentNames.add(AccountEarlier, { id: 'AccountEarlier' });
