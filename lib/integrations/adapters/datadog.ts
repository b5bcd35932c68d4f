// Datadog Webhooks integration. The payload is the user's template of Datadog's $VARIABLES, so keys
// are read loosely ($ALERT_ID as ALERT_ID, alert_id or alertId). Datadog's default payload (no
// ALERT_TRANSITION, no ALERT_ID) is read from its title, "[Triggered] …" / "[Recovered] …".
import { ignore, type AdaptContext, type PayloadAdapter } from './adapter';
import {
  alertFields,
  capUrgency,
  fallbackTitle,
  firstLongText,
  firstText,
  getKey,
  requireObject,
  stringList,
  text,
  type Payload,
} from './fields';
import { otherFields } from './sender-details';
import type { AdapterAction, Urgency } from './types';

const read = (payload: Payload, key: string) => getKey(payload, key, true);

// Datadog's $ALERT_TRANSITION values (Triggered/Re-Triggered, Warn/Re-Warn, No Data/Re-No Data,
// Recovered, Renotify, Null), compared without case, spaces and dashes.
type Effect = 'create' | 'warn' | 'resolve' | 'ignore';
const TRANSITIONS: Record<string, Effect> = {
  triggered: 'create',
  retriggered: 'create',
  renotify: 'create',
  warn: 'warn',
  rewarn: 'warn',
  recovered: 'resolve',
  nodata: 'ignore',
  renodata: 'ignore',
};

const TITLE_TRANSITION = /\[(?:P\d\]\s*\[)?((?:Re-)?(?:Triggered|Recovered|Warn|No Data|Renotify))\b/i;

export const datadogAdapter: PayloadAdapter = {
  accepts: { form: true, text: false },

  adapt(payload, ctx) {
    const data = requireObject(payload, 'a Datadog webhook payload');
    const eventTitle = firstText(read(data, 'event_title'), read(data, 'title'));
    const transition = firstText(read(data, 'alert_transition'), eventTitle?.match(TITLE_TRANSITION)?.[1]);
    const effect = transition === undefined ? undefined : TRANSITIONS[transition.toLowerCase().replace(/[\s-]/g, '')];
    const thirdpartyId = firstText(read(data, 'alert_id'), read(data, 'alert_cycle_key'), read(data, 'aggreg_key'), titleKey(eventTitle));

    switch (effect) {
      case 'create':
      case 'warn':
        return [create(data, thirdpartyId ?? ctx.fallbackId, effect === 'warn', ctx)];
      case 'resolve':
        if (thirdpartyId === undefined) return [ignore('Recovered without ALERT_ID')];
        return [{ action: 'resolve', thirdpartyId }];
      default:
        return [ignore('Datadog transition does not raise or clear an alert', { transition: transition ?? null })];
    }
  },
};

function create(data: Payload, thirdpartyId: string, warning: boolean, ctx: AdaptContext): AdapterAction {
  const description = firstLongText(
    read(data, 'text_only_msg'),
    unfence(read(data, 'event_msg')),
    unfence(read(data, 'body')),
    read(data, 'alert_status'),
  );
  const urgency = priorityToUrgency(read(data, 'alert_priority'), ctx.urgency);
  const aggregKey = text(read(data, 'aggreg_key'));
  const title = firstText(read(data, 'alert_title'), read(data, 'event_title'), read(data, 'title')) ?? fallbackTitle(description);
  return {
    action: 'create',
    thirdpartyId,
    alert: alertFields({
      title,
      description,
      urgency: warning ? capUrgency(urgency, 'medium') : urgency,
      tags: stringList(read(data, 'tags')),
      dedupKeys: aggregKey ? [aggregKey] : undefined,
      // The rest of the user's $VARIABLES (LINK, SNAPSHOT, ALERT_QUERY, ALERT_SCOPE, …), less what
      // only repeats the title or the message, and the tags already on the alert.
      additionalData: otherFields(data, ['tags', 'alert_transition', 'event_msg', 'body'], [title, description]),
    }),
  };
}

/** $EVENT_MSG is markdown wrapped in Datadog's `%%%` fences; the fences are not the message. */
function unfence(message: unknown): unknown {
  return typeof message === 'string' ? message.replace(/^\s*%%%\s*/, '').replace(/\s*%%%\s*$/, '') : message;
}

/** $ALERT_PRIORITY P1..P5 → critical, high, medium, low, low. */
function priorityToUrgency(priority: unknown, fallback: Urgency): Urgency {
  switch (text(priority)?.toUpperCase()) {
    case 'P1':
      return 'critical';
    case 'P2':
      return 'high';
    case 'P3':
      return 'medium';
    case 'P4':
    case 'P5':
      return 'low';
    default:
      return fallback;
  }
}

/**
 * The default payload names no alert: its title without the transition word is the same for the
 * trigger and the recovery ("[Triggered on {host:a}] CPU" / "[Recovered on {host:a}] CPU").
 */
function titleKey(title: string | undefined): string | undefined {
  if (title === undefined || !TITLE_TRANSITION.test(title)) return undefined;
  return `title:${title.replace(TITLE_TRANSITION, (match, word: string) => match.replace(word, '')).trim()}`;
}
