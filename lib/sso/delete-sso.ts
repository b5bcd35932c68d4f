// DELETE /api/v4/sso (docs/api.md#single-sign-on): an admin turns single sign-on off; everyone signs
// in with a password again (people created by a sign-in have none they know: "Forgot password?").
// Sign-ins already under way at the issuer then fail at the callback.
import { requireAdmin } from '../auth/permissions';
import { removeSsoSettings } from '../auth/sso-settings-store';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { SSO_NOT_SET_UP } from './read-sso';

export async function deleteSso(principal: Principal): Promise<void> {
  requireAdmin(principal, 'turn single sign-on off');
  if (!(await removeSsoSettings(principal.accountId))) throw new NotFound(SSO_NOT_SET_UP);
}
