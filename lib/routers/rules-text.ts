// Router YAML on save (docs/api.md#routers): the rule engine parses it, and a fault of any kind (YAML
// that does not parse, a rule without match or actions, an unknown action or operator, a receiver
// without a known prefix, aliases that expand too far) is a validation error naming it, with its
// line and column where it has one. The text itself is stored exactly as sent.
import { Invalid } from '../http/errors';
import { parseRouterRules } from '../rule-engine';
import { whenLoaded } from '../on-first-use';

/** The text when it is valid router YAML (null and undefined pass through); Invalid otherwise. */
export async function checkedRouterRules<T extends string | null | undefined>(text: T, field = 'rules'): Promise<T> {
  if (typeof text !== 'string') return text;
  const parsed = await whenLoaded(() => parseRouterRules(text, { field }));
  if (!parsed.ok) throw new Invalid(parsed.messages.map((message) => (message.startsWith(field) ? message : `${field}: ${message}`)));
  return text;
}
