// Grafana webhook contact point. Two real shapes: unified alerting (Alertmanager-like: status,
// groupKey, commonLabels/commonAnnotations, plus Grafana's title/state/message) and legacy
// dashboard alerting (ruleId, ruleName, state, message). The legacy ruleId names the alert when
// present, else the unified groupKey. What Grafana says beyond title and description is kept as
// details: the unified group's labels, annotations and per-alert links, the legacy rule's URL,
// image and evaluated values.
import { ignore, type PayloadAdapter } from './adapter';
import { groupDescription, groupDetails } from './alert-group';
import { alertFields, dig, fallbackTitle, firstLongText, firstText, requireObject, severityToUrgency, text, type Payload } from './fields';
import { otherFields, type Datum } from './sender-details';
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

    const firstAlert: unknown = Array.isArray(data.alerts) ? data.alerts[0] : undefined;
    const unified = Array.isArray(data.alerts);
    // Grafana renders every alert into `message`: better than the first alert's annotations alone.
    const explained = unified ? groupDescription(data, { firstAlert: false }) : undefined;
    const description = firstLongText(explained, data.message);
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
          additionalData: unified ? unifiedDetails(data, explained !== undefined) : legacyDetails(data),
        }),
      },
    ];
  },
};

const GRAFANA_PER_ALERT = ['silenceURL', 'dashboardURL', 'panelURL', 'imageURL', 'values', 'valueString'] as const;

/** The group's details; Grafana's rendered `message` too when the description came from annotations. */
function unifiedDetails(data: Payload, messageLeftOut: boolean): Datum[] {
  const extra = otherFields(data, [
    'receiver',
    'status',
    'alerts',
    'groupLabels',
    'commonLabels',
    'commonAnnotations',
    'externalURL',
    'version',
    'groupKey',
    'truncatedAlerts',
    'title',
    'state',
    'orgId',
    'message',
  ]);
  const message = messageLeftOut ? otherFields({ message: data.message }, []) : [];
  return [...groupDetails(data, GRAFANA_PER_ALERT), ...message, ...extra];
}

/** Legacy alerting: everything but what became title, description and the alert's id. */
function legacyDetails(data: Payload): Datum[] {
  return otherFields(data, ['ruleId', 'ruleName', 'state', 'message', 'title']);
}
