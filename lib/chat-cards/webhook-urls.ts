// A team's chat webhook URLs as they are saved: https (plain http only where the deployment allows
// private targets, ALLOW_PRIVATE_AUTOMATION_TARGETS, since a chat's incoming webhook is always https
// on the internet), no IP-literal host on a private, loopback or metadata address (the outbound guard
// of the outgoing webhooks; a host name is judged by the address each post connects to), and no URL
// twice. Each fault names its entry: `chat_webhooks[1].url …`.
import { refusedHost } from '../outbound/address-guard';
import type { ChatWebhook } from './platforms';

export function chatWebhookFaults(webhooks: readonly ChatWebhook[], allowPrivate: boolean): string[] {
  const faults: string[] = [];
  const seen = new Map<string, number>();
  webhooks.forEach((webhook, index) => {
    const field = `chat_webhooks[${index}].url`;
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      faults.push(`${field} is not a valid URL`);
      return;
    }
    if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) faults.push(`${field} must be an https URL`);
    const refused = refusedHost(url, allowPrivate);
    if (refused) faults.push(`${field} is refused: ${refused}`);
    const earlier = seen.get(url.href);
    if (earlier !== undefined) faults.push(`${field} repeats chat_webhooks[${earlier}].url`);
    else seen.set(url.href, index);
  });
  return faults;
}

/** A chat webhook URL as logs show it: its secret is its path and query, so only the origin. */
export function shownWebhookUrl(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '(not a URL)';
  }
}

/** The parts of a chat webhook URL that must not appear in anything readable (logs, errors). */
export function webhookUrlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.pathname + parsed.search, parsed.pathname, parsed.search].filter((part) => part.length > 3);
  } catch {
    return [url];
  }
}
