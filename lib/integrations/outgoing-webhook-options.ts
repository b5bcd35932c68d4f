// The outgoing_webhook integration type (docs/api.md#routers-and-automations): instead of receiving alerts it sends every
// change of the account's alerts to a URL. Its options: url (required), events (a subset of
// ALERT_EVENTS; all when absent), username and password (basic auth) and secret (X-Signature), checked
// on create and update by outgoing-webhook-checks.ts. password and secret never appear in readable
// objects: representations show a marker, and saving the marker back keeps the stored value. No
// import: the integration types' catalogue reads this vocabulary in every function that names a type.

export const OUTGOING_WEBHOOK_SLUG = 'outgoing_webhook';

export const ALERT_EVENTS = [
  'alert.created',
  'alert.open',
  'alert.acknowledged',
  'alert.rejected',
  'alert.resolved',
  'alert.dropped',
  'alert.handoff',
  'alert.timeout',
] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const SECRET_OPTIONS = ['password', 'secret'] as const;
export const SECRET_MARKER = '********';

/** The events an integration's options subscribe to (all when none are named). */
export function subscribedEvents(options: Record<string, unknown>): AlertEvent[] {
  const events = options.events;
  return Array.isArray(events) && events.length > 0 ? (events as AlertEvent[]) : [...ALERT_EVENTS];
}

/** Option changes with the secrets' marker left out: sending back what was read keeps the secret. */
export function withoutSecretMarkers(changes: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!changes) return changes;
  return Object.fromEntries(
    Object.entries(changes).filter(([name, value]) => !(SECRET_OPTIONS as readonly string[]).includes(name) || value !== SECRET_MARKER),
  );
}

/** The options as representations show them: secrets replaced by the marker. */
export function shownOptions(options: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...options };
  for (const name of SECRET_OPTIONS) if (shown[name] !== undefined && shown[name] !== null) shown[name] = SECRET_MARKER;
  return shown;
}
