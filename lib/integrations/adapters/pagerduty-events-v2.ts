// PagerDuty Events API v2 (enqueue): anything that can page PagerDuty can page us. dedup_key names
// the alert; payload.summary/severity/source/component/group/class/custom_details describe it, and
// all of it, with the event's links and images, is kept on the alert.
import { ignore, type AdaptContext, type PayloadAdapter } from './adapter';
import { alertFields, fallbackTitle, isRecord, labelledLines, requireObject, severityToUrgency, text, type Payload } from './fields';
import { datum, details, type Datum } from './sender-details';
import type { AdapterAction } from './types';

export const pagerdutyEventsV2Adapter: PayloadAdapter = {
  accepts: { form: false, text: false },

  adapt(payload, ctx) {
    const event = requireObject(payload, 'a PagerDuty Events v2 event');
    const action = text(event.event_action)?.toLowerCase();
    const dedupKey = text(event.dedup_key);
    switch (action) {
      case 'trigger':
        return [create(event, dedupKey ?? ctx.fallbackId, ctx)];
      case 'acknowledge':
      case 'resolve':
        // PagerDuty itself refuses these without dedup_key; there is no alert to name.
        if (dedupKey === undefined) return [ignore(`${action} without dedup_key`)];
        return [{ action, thirdpartyId: dedupKey }];
      default:
        return [ignore('unknown event_action', { event_action: action ?? null })];
    }
  },
};

function create(event: Payload, thirdpartyId: string, ctx: AdaptContext): AdapterAction {
  const details = isRecord(event.payload) ? event.payload : {};
  const description = labelledLines([
    ['Source', text(details.source)],
    ['Component', text(details.component)],
    ['Group', text(details.group)],
    ['Class', text(details.class)],
  ]);
  return {
    action: 'create',
    thirdpartyId,
    alert: alertFields({
      title: text(details.summary) ?? fallbackTitle(description),
      description,
      urgency: severityToUrgency(details.severity, ctx.urgency),
      additionalData: eventDetails(event, details),
    }),
  };
}

/** Everything the event says besides its summary: PD-CEF fields, custom_details (one entry per key),
 * the client's link, and the event's links and images. */
function eventDetails(event: Payload, payload: Payload): Datum[] {
  const custom = payload.custom_details;
  const customEntries = isRecord(custom)
    ? Object.entries(custom).map(([key, value]) => datum(`custom_details.${key}`, value))
    : [datum('custom_details', custom)];
  const client = text(event.client);
  const entries: Array<Datum | undefined> = [
    datum('severity', text(payload.severity)),
    datum('source', text(payload.source)),
    datum('component', text(payload.component)),
    datum('group', text(payload.group)),
    datum('class', text(payload.class)),
    datum('timestamp', text(payload.timestamp), 'datetime'),
    ...customEntries,
    text(event.client_url) ? datum(client ?? 'client_url', text(event.client_url), 'link') : datum('client', client),
  ];
  for (const link of Array.isArray(event.links) ? event.links.filter(isRecord) : []) {
    const href = text(link.href);
    if (href) entries.push(datum(text(link.text) ?? href, href, 'link'));
  }
  for (const image of Array.isArray(event.images) ? event.images.filter(isRecord) : []) {
    const src = text(image.src);
    if (!src) continue;
    const label = text(image.alt) ?? 'image';
    entries.push(datum(label, src, 'image'));
    const href = text(image.href);
    if (href && href !== src) entries.push(datum(`${label} (link)`, href, 'link'));
  }
  return details(entries);
}
