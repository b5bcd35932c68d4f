// Grafana webhook contact point. Two real shapes: unified alerting (Alertmanager-like: status,
// groupKey, commonLabels/commonAnnotations, plus Grafana's title/state/message) and legacy
// dashboard alerting (ruleId, ruleName, state, message). The legacy ruleId names the alert when
// present, else the unified groupKey.
import { ignore, type PayloadAdapter } from './adapter';
import { alertFields, dig, fallbackTitle, firstLongText, firstText, requireObject, severityToUrgency, text } from './fields';
import { UnreadablePayload } from './types';

export const grafanaAdapter: PayloadAdapter = {
  accepts: { form: false, text: false },

  adapt(payload, ctx) {
    const data = requireObject(payload, 'a Grafana webhook payload');
    const thirdpartyId = firstText(data.ruleId, data.groupKey);
    if (thirdpartyId === undefined) {
      throw new UnreadablePayload('not a Grafana webhook payload: ruleId and groupKey are missing');
    }

    // Unified alerting sends both; its `status` is the group's and decides.
    const state = (text(data.status) ?? text(data.state))?.toLowerCase();
    switch (state) {
      case 'firing':
      case 'alerting':
        break;
      case 'resolved':
      case 'ok':
        return [{ action: 'resolve', thirdpartyId }];
      default:
        // legacy no_data, pending, paused: nothing is broken yet, or nothing is watched.
        return [ignore('Grafana state is neither alerting nor ok', { state: state ?? null })];
    }

    const firstAlert = Array.isArray(data.alerts) ? data.alerts[0] : undefined;
    const description = firstLongText(
      dig(data, 'commonAnnotations', 'summary'),
      dig(data, 'commonAnnotations', 'description'),
      data.message,
    );
    const title =
      firstText(data.ruleName, dig(data, 'commonLabels', 'alertname'), data.title, dig(firstAlert, 'labels', 'alertname')) ??
      fallbackTitle(description);
    return [
      {
        action: 'create',
        thirdpartyId,
        alert: alertFields({
          title,
          description,
          urgency: severityToUrgency(dig(data, 'commonLabels', 'severity'), ctx.urgency),
        }),
      },
    ];
  },
};
