// PUT /account/:id (account admins): name, meta, sso and notification templates (each template
// checked: known keys and channels, strings, Handlebars that compiles with allowed placeholders).
import { requireAdmin } from '../auth/permissions';
import { definedOnly } from '../http/changes';
import { Conflict, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { validateNotificationTemplates } from '../notify/content';
import { findAccount } from './read-account';
import type { AccountRecord } from './records';
import { updateAccountInput } from './schemas';
import { saveAccount } from './store';
import { whenLoaded } from '../on-first-use';

export async function updateAccount(principal: Principal, rawId: string, body: unknown): Promise<AccountRecord> {
  const account = await findAccount(principal, rawId);
  requireAdmin(principal, 'update the account');
  const input = parseInput(updateAccountInput, body);
  let templates: Record<string, unknown> | undefined;
  if (input.notification_templates !== undefined) {
    const sent = input.notification_templates;
    const checked = await whenLoaded(() => validateNotificationTemplates(sent));
    if (!checked.ok) throw new Invalid(checked.messages);
    templates = checked.value;
  }
  const next: AccountRecord = {
    ...account,
    ...definedOnly({ ...input, notification_templates: templates }),
    updated_at: new Date().toISOString(),
    version: account.version + 1,
  };
  if (!(await saveAccount(next))) throw new Conflict('the account was changed by another request; reload and try again');
  return next;
}
