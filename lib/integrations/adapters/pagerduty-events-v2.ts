// PagerDuty Events API v2 (enqueue): anything that can page PagerDuty can page us. dedup_key names
// the alert; payload.summary/severity/source/component/group/class/custom_details describe it.
import { ignore, type AdaptContext, type PayloadAdapter } from './adapter';
import { alertFields, fallbackTitle, isRecord, labelledLines, requireObject, severityToUrgency, text, type Payload } from './fields';
import type { AdapterAction, AlertFields } from './types';

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
  const customDetails = details.custom_details;
  const description = labelledLines([
    ['Source', text(details.source)],
    ['Component', text(details.component)],
    ['Group', text(details.group)],
    ['Class', text(details.class)],
  ]);
  const additionalData: NonNullable<AlertFields['additionalData']> = [];
  if (customDetails !== undefined && customDetails !== null) {
    const type = typeof customDetails === 'string' ? 'string' : 'json';
    additionalData.push({ type, label: 'custom_details', value: customDetails });
  }
  const clientUrl = text(event.client_url);
  if (clientUrl !== undefined) {
    additionalData.push({ type: 'string', label: text(event.client) ?? 'client_url', value: clientUrl });
  }
  return {
    action: 'create',
    thirdpartyId,
    alert: alertFields({
      title: text(details.summary) ?? fallbackTitle(description),
      description,
      urgency: severityToUrgency(details.severity, ctx.urgency),
      additionalData,
    }),
  };
}
