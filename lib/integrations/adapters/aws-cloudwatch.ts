// CloudWatch alarms through an SNS HTTP(S) subscription. The body is the SNS envelope (sent as
// text/plain); a Notification's `Message` is the alarm as a JSON string. With raw message delivery
// the body is the alarm itself and the topic comes from the x-amz-sns-topic-arn header.
import { ignore, type PayloadAdapter } from './adapter';
import { alertFields, firstText, isRecord, longText, requireObject, text, type Payload } from './fields';
import { otherFields } from './sender-details';
import { UnreadablePayload, type AdapterAction, type Urgency } from './types';

export const awsCloudwatchAdapter: PayloadAdapter = {
  accepts: { form: false, text: false },

  adapt(payload, ctx) {
    const envelope = requireObject(payload, 'an SNS message');
    if (isAlarm(envelope)) return alarmActions(envelope, ctx.headers['x-amz-sns-topic-arn'], ctx.urgency);

    const type = firstText(envelope.Type, ctx.headers['x-amz-sns-message-type']);
    const topicArn = text(envelope.TopicArn);
    switch (type) {
      case 'SubscriptionConfirmation':
        // Confirming means fetching SubscribeURL: I/O, so the worker does it from these details.
        return [
          ignore('sns_subscription_confirmation', {
            subscribeUrl: text(envelope.SubscribeURL) ?? null,
            topicArn: topicArn ?? null,
            messageId: text(envelope.MessageId) ?? null,
          }),
        ];
      case 'UnsubscribeConfirmation':
        // Its SubscribeURL would re-subscribe; someone unsubscribed on purpose, so it is not offered.
        return [ignore('sns_unsubscribe_confirmation', { topicArn: topicArn ?? null })];
      case 'Notification':
        return alarmActions(decodeMessage(envelope.Message), topicArn, ctx.urgency);
      default:
        throw new UnreadablePayload('not an SNS message: Type is missing or unknown');
    }
  },

  capturedFields(payload) {
    if (!isRecord(payload)) return undefined;
    if (isAlarm(payload) || payload.Type !== 'Notification') return payload;
    try {
      return decodeMessage(payload.Message);
    } catch {
      return payload;
    }
  },
};

function isAlarm(value: Payload): boolean {
  return value.AlarmName !== undefined && value.NewStateValue !== undefined;
}

function decodeMessage(message: unknown): Payload {
  if (typeof message !== 'string') throw new UnreadablePayload('SNS Notification has no Message string');
  let alarm: unknown;
  try {
    alarm = JSON.parse(message);
  } catch {
    throw new UnreadablePayload('SNS Message is not JSON: not a CloudWatch alarm');
  }
  if (!isRecord(alarm) || !isAlarm(alarm)) {
    throw new UnreadablePayload('SNS Message is not a CloudWatch alarm: AlarmName or NewStateValue is missing');
  }
  return alarm;
}

function alarmActions(alarm: Payload, topicArn: string | undefined, urgency: Urgency): AdapterAction[] {
  const alarmName = text(alarm.AlarmName);
  if (alarmName === undefined) throw new UnreadablePayload('CloudWatch alarm has no AlarmName');
  if (topicArn === undefined) throw new UnreadablePayload('SNS TopicArn is missing');
  const thirdpartyId = `${topicArn}:${alarmName}`;
  const state = text(alarm.NewStateValue);
  switch (state) {
    case 'ALARM': {
      const reasons = [longText(alarm.AlarmDescription), longText(alarm.NewStateReason)].filter(
        (part): part is string => part !== undefined,
      );
      return [
        {
          action: 'create',
          thirdpartyId,
          alert: alertFields({
            title: alarmName,
            description: reasons.length > 0 ? reasons.join('\n\n') : undefined,
            urgency,
            // The rest of the alarm: its ARN, account, region, state change time, trigger (metric,
            // threshold, dimensions), previous state, actions.
            additionalData: otherFields(alarm, ['AlarmName', 'NewStateValue', 'AlarmDescription', 'NewStateReason']),
          }),
        },
      ];
    }
    case 'OK':
      return [{ action: 'resolve', thirdpartyId }];
    default:
      // INSUFFICIENT_DATA: the alarm cannot tell; neither raise nor clear.
      return [ignore('CloudWatch alarm state is not ALARM or OK', { state: state ?? null, thirdpartyId })];
  }
}
