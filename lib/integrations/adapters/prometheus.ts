// Prometheus Alertmanager webhook_config payload (version "4"). One post is one alert group: the
// group's groupKey is the alert, so a re-sent group with fewer common labels stays the same alert.
// The title is the alert name; summary and description explain it; the rest is kept as details.
import { ignore, type PayloadAdapter } from './adapter';
import { groupDescription, groupDetails } from './alert-group';
import { alertFields, dig, fallbackTitle, firstText, requireObject, severityToUrgency, text } from './fields';
import { UnreadablePayload } from './types';

export const prometheusAdapter: PayloadAdapter = {
  accepts: { form: false, text: false },

  adapt(payload, ctx) {
    const data = requireObject(payload, 'an Alertmanager webhook payload');
    const groupKey = text(data.groupKey);
    if (groupKey === undefined) throw new UnreadablePayload('not an Alertmanager webhook payload: groupKey is missing');
    const status = text(data.status)?.toLowerCase();
    if (status === 'resolved') return [{ action: 'resolve', thirdpartyId: groupKey }];
    if (status !== 'firing') return [ignore('unknown Alertmanager status', { status: status ?? null })];

    const firstAlert: unknown = Array.isArray(data.alerts) ? data.alerts[0] : undefined;
    const description = groupDescription(data);
    const title = firstText(dig(data, 'commonLabels', 'alertname'), dig(firstAlert, 'labels', 'alertname')) ?? fallbackTitle(description);
    return [
      {
        action: 'create',
        thirdpartyId: groupKey,
        alert: alertFields({
          title,
          description,
          urgency: severityToUrgency(dig(data, 'commonLabels', 'severity'), ctx.urgency),
          additionalData: groupDetails(data),
        }),
      },
    ];
  },
};
