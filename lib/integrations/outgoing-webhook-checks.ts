// An outgoing webhook's options checked on create and update (docs/api.md#routers-and-automations): the
// URL's form, and an IP-literal host through the SSRF guard (a host name is judged by the address the
// delivery connects to), the events named, the basic auth's parts. Apart from the options' vocabulary
// (outgoing-webhook-options.ts), which the integration types' catalogue reads in every function: the
// guard's address parsing (ipaddr.js, CommonJS, whole in any start that imports it) loads only where
// options are written.
import { refusedHost } from '../outbound';
import { ALERT_EVENTS } from './outgoing-webhook-options';

/** An unknown event as sent: text as it is, anything else as JSON (String() throws on an own toString key). */
const describeEvent = (event: unknown) => (typeof event === 'string' ? event : JSON.stringify(event));

function eventList(value: unknown): unknown[] | null {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (value === null || typeof value !== 'object') return null;
  const items: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return items;
}

/**
 * Normalizes the options of an outgoing webhook in place (events as a list) and returns the faults,
 * each naming its option. `allowPrivate`: the deployment's ALLOW_PRIVATE_AUTOMATION_TARGETS.
 */
export function outgoingWebhookFaults(options: Record<string, unknown>, allowPrivate: boolean): string[] {
  const faults: string[] = [];
  const url = options.url;
  if (url === undefined || url === null || url === '') faults.push("options.url can't be blank (the URL the alert events are posted to)");
  else if (typeof url !== 'string' || url.length > 2048) faults.push('options.url must be a URL of at most 2048 characters');
  else {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url.trim());
    } catch {
      faults.push(`options.url is not a valid URL: ${JSON.stringify(url.slice(0, 200))}`);
    }
    if (parsed) {
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') faults.push('options.url must be http or https');
      const refused = refusedHost(parsed, allowPrivate);
      if (refused) faults.push(`options.url is refused: ${refused}`);
      options.url = url.trim();
    }
  }
  if (options.events !== undefined && options.events !== null) {
    const list = eventList(options.events);
    if (!list) faults.push(`options.events must be a list of alert events (${ALERT_EVENTS.join(', ')})`);
    else {
      const unknown = list.filter((event) => !(ALERT_EVENTS as readonly unknown[]).includes(event));
      if (unknown.length > 0)
        faults.push(`options.events names unknown events: ${unknown.map(describeEvent).join(', ')} (known: ${ALERT_EVENTS.join(', ')})`);
      else options.events = [...new Set(list as string[])];
    }
  }
  for (const name of ['username', 'password', 'secret'] as const) {
    const value = options[name];
    if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 512)) {
      faults.push(`options.${name} must be a text of at most 512 characters`);
    }
  }
  if (options.password && !options.username) faults.push("options.username can't be blank when options.password is set");
  return faults;
}
