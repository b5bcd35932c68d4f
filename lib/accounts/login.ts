// POST /public/login (docs/api.md#authentication): a user's e-mail and password give a login token for one of their
// account users (the first account, or the one named by account_id). An account whose single sign-on
// is enforced (docs/api.md#single-sign-on) refuses its non-admins here (403), after the password is
// checked, so the refusal tells nothing to someone without it.
// Each outcome is an audit event (lib/audit-events/record-sign-in.ts) in the accounts it concerns: a
// wrong password in every account of the person the e-mail names (or the one account_id named), a
// refusal by enforce and a sign-in in the account signed in to. An unknown e-mail concerns no account.
import { getUser, getUserIdByEmail, listAccountUsersOfUser } from '../account-users/store';
import { recordSignIn } from '../audit-events/record-sign-in';
import { signToken } from '../auth/jwt';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { getSsoSettings } from '../auth/sso-settings-store';
import { Forbidden, Unauthorized } from '../http/errors';
import { parseInput } from '../http/validate';
import { parseId } from '../ids';
import { loginInput } from './schemas';

// Verifying against a throwaway hash when the user is unknown keeps both failures equally slow.
let decoyHash: Promise<string> | undefined;

export async function login(body: unknown): Promise<{ token: string }> {
  const input = parseInput(loginInput, body);
  const userId = await getUserIdByEmail(input.username);
  const user = userId ? await getUser(userId) : null;
  if (!user) {
    decoyHash ??= hashPassword('decoy-password');
    await verifyPassword(input.password, await decoyHash);
    throw new Unauthorized('Invalid username or password');
  }
  const named = input.account_id !== undefined ? parseId('account', input.account_id) : null;
  const passwordRight = await verifyPassword(input.password, user.password_hash);
  const memberships = (await listAccountUsersOfUser(user.id)).sort((a, b) => (a.account_id < b.account_id ? -1 : 1));
  if (!passwordRight) {
    const reason = 'wrong password';
    const concerned = memberships.filter((m) => named === null || m.account_id === named);
    await Promise.all(concerned.map((m) => recordSignIn({ accountId: m.account_id, accountUserId: m.id, method: 'password', reason })));
    throw new Unauthorized('Invalid username or password');
  }
  let membership = named === null ? memberships[0] : memberships.find((m) => m.account_id === named);
  if (!membership) throw new Unauthorized('The user has no account user in that account');
  if (membership.deactivated_at) {
    // Another account where the person is still active is the default; naming this one is refused.
    const active = input.account_id === undefined ? memberships.find((m) => !m.deactivated_at) : undefined;
    if (!active) {
      await recordSignIn({ accountId: membership.account_id, accountUserId: membership.id, method: 'password', reason: 'deactivated' });
      throw new Forbidden("This account user was deactivated by the account's identity provider");
    }
    membership = active;
  }
  if (!membership.roles.admin && (await getSsoSettings(membership.account_id))?.enforce) {
    const reason = 'single sign-on is enforced for non-admins';
    await recordSignIn({ accountId: membership.account_id, accountUserId: membership.id, method: 'password', reason });
    throw new Forbidden('This account signs in with single sign-on: use "Sign in with SSO" (only admins may use a password)');
  }
  await recordSignIn({ accountId: membership.account_id, accountUserId: membership.id, method: 'password' });
  return { token: await signToken({ sub: user.id, acc: membership.account_id, acu: membership.id, gen: user.password_generation ?? 0 }) };
}
