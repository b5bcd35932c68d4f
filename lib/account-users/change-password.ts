// POST /api/v4/account_users/:id/password {current_password, password} (docs/api.md#authentication): by that
// account user only (anyone else, an admin included, 403); a wrong current password is a 422 naming
// current_password. Guesses of the current password are limited per person (429 beyond).
import { takeAttempt } from '../auth/attempt-limit';
import { verifyPassword } from '../auth/passwords';
import { Forbidden, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { notifyPasswordChanged, setPassword } from './password';
import { findAccountUser } from './read-account-users';
import { changePasswordInput } from './schemas';

const GUESSES_PER_WINDOW = 10;
const WINDOW_SECONDS = 15 * 60;

export async function changePassword(principal: Principal, rawId: string, body: unknown): Promise<void> {
  const target = await findAccountUser(principal, rawId);
  if (target.id !== principal.accountUserId) throw new Forbidden('Only the account user themselves may change their password');
  const input = parseInput(changePasswordInput, body);
  await takeAttempt([
    {
      bucket: `password:user:${target.user_id}`,
      limit: GUESSES_PER_WINDOW,
      windowSeconds: WINDOW_SECONDS,
      message: 'Too many attempts to change the password; try again later',
    },
  ]);
  const user = await setPassword(
    target.user_id,
    input.password,
    async (stored) => {
      if (!(await verifyPassword(input.current_password, stored.password_hash))) throw new Invalid('current_password is incorrect');
    },
    { accountId: principal.accountId, objectType: 'account_user', objectId: target.id },
  );
  await notifyPasswordChanged(principal.accountId, user);
}
