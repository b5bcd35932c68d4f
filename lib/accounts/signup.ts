// POST /public/signup (docs/api.md#roles): a new account and its admin, signed in at once. Off unless
// SIGNUP_ENABLED is set: then the route answers 404, as if it did not exist.
import { signToken } from '../auth/jwt';
import { config } from '../config';
import { NotFound } from '../http/errors';
import { parseInput } from '../http/validate';
import { createAccountWithAdmin } from './create-account';
import { signupInput } from './schemas';

export async function signup(readBody: () => unknown): Promise<{ token: string; account_id: string }> {
  if (!config().SIGNUP_ENABLED) throw new NotFound('Signup is not enabled');
  const input = parseInput(signupInput, readBody());
  const created = await createAccountWithAdmin({
    accountName: input.account_name,
    name: input.name,
    email: input.email,
    password: input.password,
  });
  const token = await signToken({ sub: created.admin.user_id, acc: created.account.id, acu: created.admin.id, gen: 0 });
  return { token, account_id: created.account.id };
}
