// Generic webhook (docs/api.md#inbound-webhooks): the service's own format. Keys are read case-insensitively (and
// `dedup_keys` = `dedupKeys` = `DEDUP_KEYS`), since senders template them by hand.
import { ignore, type AdaptContext, type PayloadAdapter } from './adapter';
import {
  alertFields,
  fallbackTitle,
  flag,
  getKey,
  isRecord,
  longText,
  normalizeKey,
  parseUrgency,
  requireObject,
  stringList,
  text,
  type Payload,
} from './fields';
import { otherFields } from './sender-details';
import type { AdapterAction, AlertFields } from './types';

const MAPPED = [
  'id',
  'event_type',
  'title',
  'description',
  'urgency',
  'tags',
  'dedup_keys',
  'meta',
  'incident',
  'incident_severity',
  'incident_message',
];
const MAPPED_KEYS = new Set(MAPPED.map((key) => normalizeKey(key, true)));

const read = (payload: unknown, key: string) => getKey(payload, key, true);

export const webhookAdapter: PayloadAdapter = {
  accepts: { form: true, text: true },

  adapt(payload, ctx) {
    const data = requireObject(payload, 'a webhook payload');
    const eventType = text(read(data, 'event_type'))?.toLowerCase() ?? 'create';
    const id = text(read(data, 'id'));
    switch (eventType) {
      case 'create':
        return [{ action: 'create', thirdpartyId: id ?? ctx.fallbackId, alert: alertFrom(data, ctx) }];
      case 'acknowledge':
      case 'resolve':
        // A generated id can never name an existing alert, so there is nothing to act on.
        if (id === undefined) return [ignore(`${eventType} without id`)];
        return [{ action: eventType, thirdpartyId: id }];
      default:
        return [ignore('unknown event_type', { event_type: eventType })];
    }
  },

  adaptText(body, ctx): AdapterAction[] {
    const description = longText(body);
    return [
      {
        action: 'create',
        thirdpartyId: ctx.fallbackId,
        alert: alertFields({ title: fallbackTitle(description), description, urgency: ctx.urgency }),
      },
    ];
  },

  capturedFields(payload) {
    if (!isRecord(payload)) return undefined;
    return Object.fromEntries(Object.entries(payload).filter(([key]) => !MAPPED_KEYS.has(normalizeKey(key, true))));
  },
};

function alertFrom(data: Payload, ctx: AdaptContext): AlertFields {
  const description = longText(read(data, 'description'));
  return alertFields({
    title: text(read(data, 'title')) ?? fallbackTitle(description),
    description,
    urgency: parseUrgency(read(data, 'urgency'), ctx.urgency),
    tags: stringList(read(data, 'tags')),
    dedupKeys: stringList(read(data, 'dedup_keys')),
    meta: incidentMeta(data),
    // Fields of the sender's own beyond the format's (a host, a link, a runbook, …).
    additionalData: otherFields(data, MAPPED),
  });
}

/** meta.incident* wins over the flattened top-level incident* keys. */
function incidentMeta(data: Payload): AlertFields['meta'] {
  const meta = read(data, 'meta');
  const pick = (key: string) => read(meta, key) ?? read(data, key);
  const incident = flag(pick('incident'));
  const severity = text(pick('incident_severity'))?.toUpperCase();
  const message = longText(pick('incident_message'));
  const result: NonNullable<AlertFields['meta']> = {};
  if (incident !== undefined) result.incident = incident;
  if (severity !== undefined) result.incident_severity = severity;
  if (message !== undefined) result.incident_message = message;
  return result;
}
