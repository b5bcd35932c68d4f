// PUT /automation/:id (account admins): only the fields sent change. Settings that send the password
// marker back keep the stored password (lib/automations/settings.ts).
import { requireAdmin } from '../auth/permissions';
import { mergeKeys } from '../http/changes';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { findAutomation } from './read-automations';
import type { AutomationRecord } from './records';
import { updateAutomationInput } from './schemas';
import { withStoredPassword } from './settings';
import { checkedSettings } from './settings-input';
import { saveAutomation } from './store';

export async function updateAutomation(principal: Principal, rawId: string, body: unknown): Promise<AutomationRecord> {
  const current = await findAutomation(principal, rawId);
  requireAdmin(principal, 'update automations');
  const input = parseInput(updateAutomationInput, body);
  const next: AutomationRecord = {
    ...current,
    name: input.name ?? current.name,
    enabled: input.enabled ?? current.enabled,
    settings: input.settings === undefined ? current.settings : await checkedSettings(withStoredPassword(input.settings, current.settings)),
    meta: mergeKeys(current.meta, input.meta),
    version: current.version + 1,
    updated_at: new Date().toISOString(),
  };
  if (!(await saveAutomation(next))) throw new Conflict('the automation was changed by another request; reload and try again');
  return next;
}
