// Settings on create and update: they must parse and name url and method (docs/api.md#routers-and-automations: 400 naming
// the fault otherwise).
import { Invalid } from '../http/errors';
import { whenLoaded } from '../on-first-use';
import { parseAutomationSettings } from './settings';

export async function checkedSettings(text: string): Promise<string> {
  const parsed = await whenLoaded(() => parseAutomationSettings(text));
  if (!parsed.ok) throw new Invalid(parsed.messages);
  return text;
}
