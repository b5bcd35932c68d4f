// POST /public/sso/exchange {code} (docs/api.md#single-sign-on): the console trades the one-time code
// of a finished sign-in for the same login token POST /public/login gives. The code is spent by a
// conditional delete (of two uses one wins) and is good for 60 seconds; an unknown, spent or expired
// code, or one whose account user was deleted meanwhile, is a 401.
import { getAccountUser, getUser } from '../account-users/store';
import { signToken } from '../auth/jwt';
import { sha256 } from '../auth/passwords';
import { now } from '../clock';
import { Unauthorized } from '../http/errors';
import { parseInput } from '../http/validate';
import { exchangeCodeInput } from './schemas';
import { spendSignInCode } from './sign-in-store';

const UNUSABLE = 'This sign-in code is unknown, expired or already used; sign in again';

export async function exchangeSignInCode(body: unknown): Promise<{ token: string }> {
  const input = parseInput(exchangeCodeInput, body);
  const spent = await spendSignInCode(sha256(input.code));
  if (!spent || spent.valid_until <= now()) throw new Unauthorized(UNUSABLE);
  const [user, accountUser] = await Promise.all([getUser(spent.user_id), getAccountUser(spent.account_id, spent.account_user_id)]);
  if (!user || !accountUser || accountUser.user_id !== user.id) throw new Unauthorized(UNUSABLE);
  return { token: await signToken({ sub: user.id, acc: spent.account_id, acu: accountUser.id, gen: user.password_generation ?? 0 }) };
}
