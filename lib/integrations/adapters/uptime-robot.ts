// UptimeRobot webhook alert contact: its variables (monitorID, monitorURL, monitorFriendlyName,
// alertType, alertTypeFriendlyName, alertDetails, alertDuration, alertDateTime, alertID, …) sent as
// POST parameters (form-encoded) or as the user's JSON POST value. One monitor is one alert.
import { ignore, type PayloadAdapter } from './adapter';
import { alertFields, firstText, getKey, labelledLines, requireObject, type Payload } from './fields';
import { otherFields } from './sender-details';

const PLACEHOLDER = /^\*[A-Za-z]+\*$/;

/** A variable's value; an unreplaced `*monitorID*` placeholder counts as absent. */
function read(data: Payload, key: string): string | undefined {
  const value = firstText(getKey(data, key, true));
  return value !== undefined && PLACEHOLDER.test(value) ? undefined : value;
}

// alertType: 1 = down, 2 = up, 3 = SSL certificate expiry.
const BY_ALERT_TYPE: Record<string, 'create' | 'resolve'> = { '1': 'create', '2': 'resolve' };
const BY_FRIENDLY_NAME: Record<string, 'create' | 'resolve'> = { down: 'create', up: 'resolve' };

export const uptimeRobotAdapter: PayloadAdapter = {
  accepts: { form: true, text: false },

  adapt(payload, ctx) {
    const data = requireObject(payload, 'UptimeRobot alert variables');
    const alertType = read(data, 'alertType');
    const friendlyType = read(data, 'alertTypeFriendlyName');
    const effect = alertType !== undefined ? BY_ALERT_TYPE[alertType] : BY_FRIENDLY_NAME[friendlyType?.toLowerCase() ?? ''];
    const monitorId = read(data, 'monitorID');

    if (effect === 'resolve') {
      if (monitorId === undefined) return [ignore('Up without monitorID')];
      return [{ action: 'resolve', thirdpartyId: monitorId }];
    }
    if (effect !== 'create') {
      return [ignore('UptimeRobot alert is neither down nor up', { alertType: alertType ?? friendlyType ?? null })];
    }

    const name = read(data, 'monitorFriendlyName') ?? read(data, 'monitorURL') ?? monitorId ?? 'Monitor';
    return [
      {
        action: 'create',
        thirdpartyId: monitorId ?? ctx.fallbackId,
        alert: alertFields({
          title: `${name} is DOWN`,
          description: labelledLines([
            ['Reason', read(data, 'alertDetails')],
            ['URL', read(data, 'monitorURL')],
          ]),
          urgency: ctx.urgency,
          // The other variables (monitor id and URL, alert id, date, duration, SSL expiry, …), less
          // the unreplaced `*placeholders*`.
          additionalData: otherFields(
            Object.fromEntries(Object.entries(data).filter(([, value]) => !(typeof value === 'string' && PLACEHOLDER.test(value.trim())))),
            ['monitorFriendlyName', 'alertDetails', 'alertType', 'alertTypeFriendlyName'],
          ),
        }),
      },
    ];
  },
};
