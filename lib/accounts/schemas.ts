// Input schemas of the account (api-earlier.md "Account"), login, signup and password reset (contract §3).
import * as z from 'zod';
import { newPassword } from '../account-users/schemas';

const jsonObject = z.record(z.string(), z.unknown());

export const updateAccountInput = z.object({
  name: z.string().trim().min(1).optional(),
  meta: jsonObject.optional(),
  sso: jsonObject.optional(),
  notification_templates: jsonObject.optional(),
});

export const loginInput = z.object({
  username: z.string().trim().min(1),
  password: z.string().min(1),
  account_id: z.string().trim().min(1).optional(),
});

export const signupInput = z.object({
  account_name: z.string().trim().min(1),
  name: z.string().trim().min(1),
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(8, 'must be at least 8 characters'),
});

export const passwordResetRequestInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
});

export const passwordResetInput = z.object({
  password: newPassword,
});
