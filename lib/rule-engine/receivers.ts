// Receiver ids inside rule YAML are prefix ids (docs/api.md#ids): teams, users, routers, schedules.
// Only their form is checked when a rule set is saved; existence is checked when routing (an
// unknown receiver is logged and skipped, docs/api.md#routers-and-automations).
export type ReceiverKind = 'team' | 'user' | 'router' | 'schedule';

const RECEIVER_PREFIXES: Record<string, ReceiverKind> = {
  tem: 'team',
  usr: 'user',
  rtr: 'router',
  skd: 'schedule',
};

export const RECEIVER_PREFIX_LIST = Object.keys(RECEIVER_PREFIXES).map((p) => `${p}_`);

// The part after the prefix is a ULID in this service; any token is accepted so that the form check
// does not decide existence.
const PREFIXED = /^([a-z]{3})_([A-Za-z0-9]+)$/;

export function receiverKind(id: string): ReceiverKind | null {
  const match = PREFIXED.exec(id);
  return match ? (RECEIVER_PREFIXES[match[1]] ?? null) : null;
}

/** True for `<prefix>_<token>` where prefix is one of `prefixes` (without the underscore). */
export function hasPrefix(id: unknown, prefixes: readonly string[]): id is string {
  if (typeof id !== 'string') return false;
  const match = PREFIXED.exec(id);
  return !!match && prefixes.includes(match[1]);
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;

export function isBareUlid(value: unknown): value is string {
  return typeof value === 'string' && ULID.test(value);
}
