// POST /public/password_reset/<token> {password} (docs/api.md#authentication): a token that is unknown, expired,
// already spent, or older than the person's last password change is a 404; a password shorter than
// 8 characters is a 422 and leaves the token usable; otherwise the token is spent (a conditional
// delete, so two requests cannot both use it) and the password set, which refuses every login token
// issued before (lib/account-users/password.ts).
import { setPassword } from '../account-users/password';
import { sha256 } from '../auth/passwords';
import { now } from '../clock';
import { NotFound } from '../http/errors';
import { parseUnprocessable } from '../http/validate';
import { getResetToken, spendResetToken, type ResetTokenRecord } from './reset-token-store';
import { passwordResetInput } from './schemas';

const UNUSABLE = 'This password reset link is invalid, expired or already used; ask for a new one';

const usable = (token: ResetTokenRecord | null, now: number): token is ResetTokenRecord => token !== null && token.valid_until > now;

export async function resetPassword(rawToken: string, body: unknown): Promise<void> {
  const hash = sha256(rawToken.trim());
  if (!usable(await getResetToken(hash), now())) throw new NotFound(UNUSABLE);
  const input = parseUnprocessable(passwordResetInput, body);
  const spent = await spendResetToken(hash);
  if (!usable(spent, now())) throw new NotFound(UNUSABLE);
  try {
    await setPassword(spent.user_id, input.password, (user) => {
      if ((user.password_generation ?? 0) !== spent.generation) throw new NotFound(UNUSABLE);
    });
  } catch (error) {
    // The person was deleted since the link was sent: the link is as unusable as any other.
    if (error instanceof NotFound) throw new NotFound(UNUSABLE);
    throw error;
  }
}
