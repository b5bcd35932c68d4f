// Settings on create and update: they must parse and name url and method (docs/api.md#routers-and-automations: 400 naming
// the fault otherwise).
import { Invalid } from '../http/errors';
import { parseAutomationSettings } from './settings';

export function checkedSettings(text: string): string {
  const parsed = parseAutomationSettings(text);
  if (!parsed.ok) throw new Invalid(parsed.messages);
  return text;
}
