// Storm protection (GoAlert does it): at most one SMS and one call per person per minute. Pages
// that arrive meanwhile wait and then go out as one message ("3 new alerts: …"); each bundled page
// stays a notification of its own, marked bundled into the one that carried it. Pure: the caller
// passes the person's last send on that channel and the pages waiting, and carries out the plan.
import { smsSize, smsText, type SmsSize } from './sms';
import { spellDigits, voiceText } from './voice';

export type RateLimitedChannel = 'sms' | 'voice';

export const SEND_WINDOW_MS = 60_000;

export interface PendingPage {
  notificationId: string;
  alertId: string;
  tinyId: number;
  title: string;
  urgency: string;
  createdAt: number;
  /** False once the page's workflow closed (acknowledged, timed out) before it could be sent. */
  stillWanted?: boolean;
}

export interface SendPlanInput {
  now: number;
  channel: RateLimitedChannel;
  /** When this person was last sent something on this channel; null: never. */
  lastSentAt: number | null;
  pending: readonly PendingPage[];
  windowMs?: number;
}

export type SendPlan =
  | { kind: 'idle'; cancelled: PendingPage[] }
  /** Nothing may go out before `until`: keep the pages and look again then. */
  | { kind: 'wait'; until: number; cancelled: PendingPage[] }
  /**
   * Send `carrier` now. With one alert it carries that alert's own page (`message` null: render it
   * as usual); with several, `message` is the bundle's text and `bundled` are the other pages,
   * to be recorded with status bundled pointing at the carrier.
   */
  | { kind: 'send'; carrier: PendingPage; bundled: PendingPage[]; alerts: BundledAlert[]; cancelled: PendingPage[] };

export interface BundledAlert {
  alertId: string;
  tinyId: number;
  title: string;
  urgency: string;
}

export function planSends(input: SendPlanInput): SendPlan {
  const windowMs = input.windowMs ?? SEND_WINDOW_MS;
  const ordered = [...input.pending].sort((a, b) => a.createdAt - b.createdAt || (a.notificationId < b.notificationId ? -1 : 1));
  const cancelled = ordered.filter((page) => page.stillWanted === false);
  const wanted = ordered.filter((page) => page.stillWanted !== false);
  if (wanted.length === 0) return { kind: 'idle', cancelled };
  if (input.lastSentAt !== null && input.now < input.lastSentAt + windowMs) {
    return { kind: 'wait', until: input.lastSentAt + windowMs, cancelled };
  }
  const alerts: BundledAlert[] = [];
  for (const page of wanted) {
    if (!alerts.some((alert) => alert.alertId === page.alertId)) {
      alerts.push({ alertId: page.alertId, tinyId: page.tinyId, title: page.title, urgency: page.urgency });
    }
  }
  const [carrier, ...bundled] = wanted;
  return { kind: 'send', carrier, bundled, alerts, cancelled };
}

/**
 * The text of a bundle of several alerts. SMS: one segment where it can, titles shortened evenly,
 * then left out ("+N more"); the reply codes are never cut. Voice: each alert read out.
 */
export function renderBundle(
  channel: RateLimitedChannel,
  alerts: readonly BundledAlert[],
  options: { smsReply?: boolean } = {},
): { message: string; sms: SmsSize | null } {
  const count = alerts.length;
  if (channel === 'voice') {
    const spoken = alerts
      .slice(0, 10)
      .map((alert) => `Alert number ${spellDigits(alert.tinyId)}, ${alert.urgency}: ${alert.title}.`)
      .join(' ');
    const more = count > 10 ? ` And ${count - 10} more.` : '';
    return { message: voiceText(`You have ${count} new alerts. ${spoken}${more}`), sms: null };
  }
  const reply = options.smsReply ? '\nReply A<id> to ack, R<id> to reject' : '';
  const head = `${count} new alerts: `;
  const titles = alerts.map((alert) => smsText(alert.title));
  const compose = (shown: number, titleLength: number) => {
    const items = alerts.slice(0, shown).map((alert, index) => {
      const title = titleLength > 0 ? Array.from(titles[index]).slice(0, titleLength).join('') : '';
      const cutTitle = title && title.length < titles[index].length ? `${title.trimEnd()}...` : title;
      return cutTitle ? `#${alert.tinyId} ${cutTitle}` : `#${alert.tinyId}`;
    });
    const more = shown < count ? `; +${count - shown} more` : '';
    return `${head}${items.join('; ')}${more}${reply}`;
  };
  const longest = Math.max(0, ...titles.map((title) => Array.from(title).length));
  const fits = (shown: number, length: number) => smsSize(compose(shown, length)).segments <= 1;
  // Every id with as much of each title as fits; else fewer ids, down to the count alone.
  for (let shown = count; shown > 0; shown--) {
    if (!fits(shown, 0)) continue;
    if (fits(shown, longest)) return sms(compose(shown, longest));
    let low = 0;
    let high = longest;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(shown, mid)) low = mid;
      else high = mid - 1;
    }
    return sms(compose(shown, low));
  }
  return sms(compose(0, 0));
}

function sms(message: string): { message: string; sms: SmsSize } {
  return { message, sms: smsSize(message) };
}
