// POST /public/login and POST /public/signup (contract §3).
import * as z from 'zod';
import { accountUsersOfUser, getUser, userIdByEmail } from '../account-users/store';
import { signToken } from '../auth/jwt';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { Unauthorized } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { createAccountWithAdmin } from './create-account';

const loginInput = z.object({
  username: z.string().trim().min(1),
  password: z.string().min(1),
  account_id: z.string().trim().min(1).optional(),
});

// Verifying against a throwaway hash when the user is unknown keeps both failures equally slow.
let decoyHash: Promise<string> | undefined;

export async function login(body: unknown): Promise<{ token: string }> {
  const input = parseInput(loginInput, body);
  const userId = await userIdByEmail(input.username);
  const user = userId ? await getUser(userId) : null;
  if (!user) {
    decoyHash ??= hashPassword('decoy-password');
    await verifyPassword(input.password, await decoyHash);
    throw new Unauthorized('Invalid username or password');
  }
  if (!(await verifyPassword(input.password, user.password_hash))) {
    throw new Unauthorized('Invalid username or password');
  }
  const memberships = (await accountUsersOfUser(user.id)).sort((a, b) => (a.account_id < b.account_id ? -1 : 1));
  let membership = memberships[0];
  if (input.account_id !== undefined) {
    const accountId = parseId('account', input.account_id);
    membership = memberships.find((m) => m.account_id === accountId)!;
  }
  if (!membership) throw new Unauthorized('The user has no account user in that account');
  return { token: await signToken({ sub: user.id, acc: membership.account_id, acu: membership.id }) };
}

const signupInput = z.object({
  account_name: z.string().trim().min(1),
  name: z.string().trim().min(1),
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(8, 'must be at least 8 characters'),
});

export async function signup(body: unknown): Promise<{ token: string; account_id: string }> {
  const input = parseInput(signupInput, body);
  const created = await createAccountWithAdmin({
    accountName: input.account_name,
    name: input.name,
    email: input.email,
    password: input.password,
  });
  const token = await signToken({ sub: created.admin.user_id, acc: created.account.id, acu: created.admin.id });
  return { token, account_id: created.account.id };
}
