// The earlier interface's automation (api-earlier.md "Automation"): settings shown with the auth
// password replaced by a marker (lib/automations/settings.ts).
import { prefixId } from '../ids';
import { EARLIER_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { ListSpec } from '../list/query';
import type { AutomationRecord } from './records';
import { redactedSettings } from './settings';
import type * as z from 'zod';
import type { AutomationEarlier } from './schemas';

export function automationToEarlier(record: AutomationRecord): z.input<typeof AutomationEarlier> {
  return {
    sid: prefixId('account', record.account_id),
    id: prefixId('automation', record.id),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    meta: record.meta,
    name: record.name,
    enabled: record.enabled,
    settings: redactedSettings(record.settings),
  };
}

export const automationListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    name: 'string',
    enabled: 'boolean',
    settings: 'string',
  },
  search: ['name'],
};
