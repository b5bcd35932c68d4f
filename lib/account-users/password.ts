// Setting a person's password (a reset by e-mail link, or a change with the current password,
// docs/api.md#authentication). Every change bumps the user's password generation: login tokens name the generation
// they were issued under, so every token issued before the change is refused from then on
// (lib/api/authenticate.ts) — at once in this instance, whose cached principals of the person are
// dropped, and in other warm instances once their cache entry expires (AUTH_CACHE_SECONDS).
// API keys are not login tokens and keep working.
import { hashPassword } from '../auth/passwords';
import { forgetUser } from '../auth/principal-cache';
import { Conflict, NotFound } from '../http/errors';
import { logger } from '../log';
import { deliver } from '../notify/personal-messages';
import type { UserRecord } from './records';
import type { AuditTarget } from '../store/audit-carried';
import { getUser, saveUser } from './store';

const ATTEMPTS = 5;

/**
 * Sets `password` as the user's password. `check` runs against the stored user before the write (the
 * current password, the generation a reset link was issued under) and throws to refuse; a write
 * that lost a race with another change of the user is tried again on a fresh read.
 */
export async function setPassword(
  userId: string,
  password: string,
  check: (user: UserRecord) => Promise<void> | void = () => {},
  audit?: AuditTarget,
): Promise<UserRecord> {
  const hash = await hashPassword(password);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const user = await getUser(userId);
    if (!user) throw new NotFound('User not found');
    await check(user);
    const next: UserRecord = {
      ...user,
      password_hash: hash,
      password_generation: (user.password_generation ?? 0) + 1,
      password_changed_at: new Date().toISOString(),
      version: user.version + 1,
    };
    if (await saveUser(next, audit)) {
      forgetUser(userId);
      logger.info('password changed', { userId, generation: next.password_generation });
      return next;
    }
  }
  throw new Conflict('the user was changed by other requests meanwhile; try again');
}

/** Tells the person their password changed, so a change they did not make does not go unnoticed. */
export async function notifyPasswordChanged(accountId: string, user: UserRecord): Promise<void> {
  const address = user.emails.find((e) => e.primary)?.email ?? user.emails[0]?.email;
  if (!address) return;
  const text = `Hello ${user.name},\n\nThe password of your on-call sign-in (${address}) was just changed.\n\nIf you did not change it, choose a new one at once with "Forgot password?" on the sign-in page, and tell an admin of your account.`;
  await deliver({
    accountId,
    userId: user.id,
    channel: 'email',
    to: address,
    subject: 'Your on-call password was changed',
    template: 'password_changed',
    message: text,
    redacted: text,
  });
}
