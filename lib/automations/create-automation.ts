// POST /automation (account admins, docs/api.md#roles): name and settings (url and method at least).
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newEntity } from '../store/entity-store';
import type { AutomationRecord } from './records';
import { createAutomationInput } from './schemas';
import { checkedSettings } from './settings-input';
import { insertAutomation } from './store';

export async function createAutomation(principal: Principal, body: unknown): Promise<AutomationRecord> {
  requireAdmin(principal, 'create automations');
  const input = parseInput(createAutomationInput, body);
  const record: AutomationRecord = {
    ...newEntity(principal.accountId),
    name: input.name,
    enabled: input.enabled ?? true,
    settings: await checkedSettings(input.settings),
    meta: withoutNulls(input.meta),
  };
  await insertAutomation(record);
  return record;
}
