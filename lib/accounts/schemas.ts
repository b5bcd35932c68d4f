// Input schemas of the account (api-earlier.md "Account"), login, signup and password reset (docs/api.md#authentication).
import * as z from 'zod';
import { newPassword } from '../account-users/schemas';
import { jsonData } from '../http/fields';

export const updateAccountInput = z.object({
  name: z.string().trim().min(1).optional(),
  meta: jsonData().optional(),
  sso: jsonData().optional(),
  // Templates are longer text than meta: up to 64 KB in all.
  notification_templates: jsonData({ maxBytes: 64 * 1024 }).optional(),
});

export const loginInput = z.object({
  username: z.string().trim().min(1),
  password: z.string().min(1),
  account_id: z.string().trim().min(1).optional(),
});

export const signupInput = z.object({
  account_name: z.string().trim().min(1),
  name: z.string().trim().min(1),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  password: z.string().min(8, 'must be at least 8 characters'),
});

export const passwordResetRequestInput = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
});

export const passwordResetInput = z.object({
  password: newPassword,
});
