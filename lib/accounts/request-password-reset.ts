// POST /public/password_reset {email} (docs/api.md#authentication): 202 whether or not the address is known, so the
// answer tells nobody who has an account. A known address gets an e-mail with a link to the console's
// reset page carrying a one-time token, valid PASSWORD_RESET_TTL_SECONDS (1 hour); only the token's
// hash is stored, and the notification records that a link was sent, never the link.
//   No enumeration: the same status and body either way, and every answer takes at least
//   ANSWER_FLOOR_MS, longer than the extra work for a known address, so timing does not tell either.
//   No flooding: requests are limited per address (known or not, so the 429 tells nothing either)
//   and per source address, in 15-minute windows.
import { getUser, getUserIdByEmail, listAccountUsersOfUser } from '../account-users/store';
import { takeAttempt } from '../auth/attempt-limit';
import { generateToken, sha256 } from '../auth/passwords';
import { now as clockNow } from '../clock';
import { config } from '../config';
import { parseUnprocessable } from '../http/validate';
import { logger } from '../log';
import { deliver } from '../notify/personal-messages';
import { insertResetToken } from './reset-token-store';
import { passwordResetRequestInput } from './schemas';

const WINDOW_SECONDS = 15 * 60;
export const ANSWER_FLOOR_MS = 250;

/** The one answer, known address or not. */
export function resetRequested(): { message: string } {
  const ttl = describeTtl(config().PASSWORD_RESET_TTL_SECONDS);
  return { message: `If the address belongs to a user, a link to choose a new password was sent to it. The link is valid for ${ttl}.` };
}

export interface RequestSource {
  sourceIp: string;
  headers: Record<string, string>;
}

/** The console's address: CONSOLE_URL (the stack and the local server set it), else the request's own origin. */
export function consoleBaseUrl(headers: Record<string, string>): string {
  const configured = config().CONSOLE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim() || 'https';
  return `${proto}://${headers.host ?? 'localhost'}`;
}

export function resetLink(baseUrl: string, token: string): string {
  return `${baseUrl}/#/reset-password/${token}`;
}

function describeTtl(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

async function sendResetLink(email: string, baseUrl: string): Promise<void> {
  const userId = await getUserIdByEmail(email);
  const user = userId ? await getUser(userId) : null;
  const memberships = user ? await listAccountUsersOfUser(user.id) : [];
  // A person in no account cannot sign in: there is nothing to reset.
  if (!user || memberships.length === 0) return;
  const ttl = config().PASSWORD_RESET_TTL_SECONDS;
  const token = generateToken();
  const now = clockNow();
  await insertResetToken(sha256(token), {
    user_id: user.id,
    generation: user.password_generation ?? 0,
    valid_until: now + ttl * 1000,
    created_at: new Date(now).toISOString(),
  });
  // One message, recorded in the account the person signs in to by default (the first).
  const accountId = memberships.map((m) => m.account_id).sort()[0];
  await deliver({
    accountId,
    userId: user.id,
    channel: 'email',
    to: email,
    subject: 'Choose a new on-call password',
    template: 'password_reset',
    message: `Hello ${user.name},\n\nSomeone (we hope you) asked to reset the password of ${email}. Open this link within ${describeTtl(ttl)} to choose a new one:\n\n${resetLink(baseUrl, token)}\n\nThe link works once. If you did not ask, ignore this message: your password stays as it is.`,
    redacted: `Password reset link sent to ${email}`,
  });
  logger.info('password reset link sent', { userId: user.id, accountId });
}

export async function requestPasswordReset(body: unknown, source: RequestSource): Promise<{ message: string }> {
  const input = parseUnprocessable(passwordResetRequestInput, body);
  const settings = config();
  await takeAttempt([
    {
      bucket: `pwreset:ip:${source.sourceIp || 'unknown'}`,
      limit: settings.PASSWORD_RESET_PER_IP,
      windowSeconds: WINDOW_SECONDS,
      message: 'Too many password reset requests from your network; try again later',
    },
    {
      bucket: `pwreset:email:${sha256(input.email)}`,
      limit: settings.PASSWORD_RESET_PER_EMAIL,
      windowSeconds: WINDOW_SECONDS,
      message: 'Too many password reset requests for this e-mail address; try again later',
    },
  ]);
  const started = Date.now();
  await sendResetLink(input.email, consoleBaseUrl(source.headers));
  const rest = ANSWER_FLOOR_MS - (Date.now() - started);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  return resetRequested();
}
