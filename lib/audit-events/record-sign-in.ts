// A sign-in's audit event (docs/api.md#audit-trail): by password (lib/accounts/login.ts) or single
// sign-on (lib/sso/complete-sign-in.ts), succeeded or refused. A sign-in changes nothing, so its event
// is one put of its own. A refused one names nobody as its actor (no one proved who they are: the
// system), and the account user it was for as its object when the e-mail named one; an e-mail that
// names no user has no account whose trail could hold it, and is only logged.
import { logger } from '../log';
import { newId } from '../ids';
import { auditEvent, writeAuditEvent as insertAuditEvent } from '../store/audit-trail';

export interface SignInOutcome {
  accountId: string;
  /** The account user signed in, or whose sign-in was refused (null when the refusal named none). */
  accountUserId: string | null;
  method: 'password' | 'sso';
  /** Why it was refused; absent for a sign-in. */
  reason?: string;
}

export async function recordSignIn(outcome: SignInOutcome): Promise<void> {
  const refused = outcome.reason !== undefined;
  const changes: Record<string, [unknown, unknown]> = { method: [null, outcome.method] };
  if (refused) changes.reason = [null, outcome.reason];
  const event = auditEvent({
    accountId: outcome.accountId,
    action: refused ? 'sign_in_failed' : 'sign_in',
    objectType: 'account_user',
    objectId: outcome.accountUserId,
    changes,
    seed: newId(),
    actor: refused || !outcome.accountUserId ? { type: 'system', id: null } : { type: 'account_user', id: outcome.accountUserId },
  });
  try {
    await insertAuditEvent(event);
  } catch (error) {
    // The sign-in's answer does not wait on the trail: a refused one stays a 401, a good one signs in.
    logger.error('audit: a sign-in event could not be written', { accountId: outcome.accountId, error: error as Error });
  }
}
