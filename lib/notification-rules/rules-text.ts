// Notification rule YAML on save (docs/api.md#escalation-and-notifications): parsed by the rule engine; any fault is a
// validation error naming it (line and column where it has one). The text is stored as sent.
import { Invalid } from '../http/errors';
import { parseNotificationRules } from '../rule-engine/notification-rules';
import { whenLoaded } from '../on-first-use';

export async function checkedNotificationRules<T extends string | null | undefined>(text: T, field = 'rules'): Promise<T> {
  if (typeof text !== 'string') return text;
  const parsed = await whenLoaded(() => parseNotificationRules(text, { field }));
  if (!parsed.ok) throw new Invalid(parsed.messages.map((message) => (message.startsWith(field) ? message : `${field}: ${message}`)));
  return text;
}
