import { describe, expect, it } from 'vitest';
import { adaptPayload } from '../../../lib/integrations/adapters';
import { fixture, fixtureJson, request } from './support';

const adapt = (input: Parameters<typeof adaptPayload>[1]) => adaptPayload('aws_cloudwatch', input);
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:oncall-alarms';
// SNS posts JSON labelled text/plain, with its own headers.
const sns = (body: string | object, type = 'Notification') =>
  request(body, {
    contentType: 'text/plain; charset=UTF-8',
    headers: { 'x-amz-sns-message-type': type, 'x-amz-sns-topic-arn': TOPIC },
  });

describe('aws_cloudwatch adapter (SNS HTTPS subscription)', () => {
  it('creates an alert when the alarm enters ALARM, named by topic and alarm name', () => {
    expect(adapt(sns(fixture('aws-cloudwatch/sns-notification-alarm.json')))).toEqual([
      {
        action: 'create',
        thirdpartyId: `${TOPIC}:api-prod-high-cpu`,
        alert: {
          title: 'api-prod-high-cpu',
          description:
            'CPU above 80% on the production API fleet\n\nThreshold Crossed: 1 out of the last 1 datapoints ' +
            '[91.3 (02/03/26 10:10:00)] was greater than the threshold (80.0) ' +
            '(minimum 1 datapoint for OK -> ALARM transition).',
          urgency: 'medium',
          additionalData: [
            { type: 'string', label: 'AWSAccountId', value: '123456789012' },
            { type: 'string', label: 'AlarmConfigurationUpdatedTimestamp', value: '2026-02-20T14:03:11.482+0000' },
            { type: 'string', label: 'StateChangeTime', value: '2026-03-02T10:15:24.221+0000' },
            { type: 'string', label: 'Region', value: 'US East (N. Virginia)' },
            { type: 'string', label: 'AlarmArn', value: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:api-prod-high-cpu' },
            { type: 'string', label: 'OldStateValue', value: 'OK' },
            { type: 'json', label: 'OKActions', value: ['arn:aws:sns:us-east-1:123456789012:oncall-alarms'] },
            { type: 'json', label: 'AlarmActions', value: ['arn:aws:sns:us-east-1:123456789012:oncall-alarms'] },
            {
              type: 'json',
              label: 'Trigger',
              value: expect.objectContaining({ MetricName: 'CPUUtilization', Namespace: 'AWS/EC2', Threshold: 80 }),
            },
          ],
        },
      },
    ]);
  });

  it('resolves the alert when the alarm returns to OK', () => {
    expect(adapt(sns(fixture('aws-cloudwatch/sns-notification-ok.json')))).toEqual([
      { action: 'resolve', thirdpartyId: `${TOPIC}:api-prod-high-cpu` },
    ]);
  });

  it('ignores INSUFFICIENT_DATA', () => {
    expect(adapt(sns(fixture('aws-cloudwatch/sns-notification-insufficient-data.json')))).toEqual([
      {
        action: 'ignore',
        reason: 'CloudWatch alarm state is not ALARM or OK',
        details: { state: 'INSUFFICIENT_DATA', thirdpartyId: `${TOPIC}:api-prod-high-cpu` },
      },
    ]);
  });

  it('records the SubscribeURL of a subscription confirmation for the worker to visit', () => {
    const [action] = adapt(sns(fixture('aws-cloudwatch/sns-subscription-confirmation.json'), 'SubscriptionConfirmation'));

    expect(action).toEqual({
      action: 'ignore',
      reason: 'sns_subscription_confirmation',
      details: {
        subscribeUrl: expect.stringMatching(
          /^https:\/\/sns\.us-east-1\.amazonaws\.com\/\?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:oncall-alarms&Token=2336412f/,
        ),
        topicArn: TOPIC,
        messageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b',
      },
    });
  });

  it('ignores an unsubscribe confirmation without offering to re-subscribe', () => {
    expect(adapt(sns(fixture('aws-cloudwatch/sns-unsubscribe-confirmation.json'), 'UnsubscribeConfirmation'))).toEqual([
      { action: 'ignore', reason: 'sns_unsubscribe_confirmation', details: { topicArn: TOPIC } },
    ]);
  });

  it('reads an alarm delivered raw (raw message delivery), taking the topic from the SNS header', () => {
    const envelope = fixtureJson('aws-cloudwatch/sns-notification-alarm.json');
    const [action] = adapt(sns(envelope.Message as string));
    expect(action).toMatchObject({ action: 'create', thirdpartyId: `${TOPIC}:api-prod-high-cpu` });
  });

  it('captures the alarm fields, not the envelope, as additional data', () => {
    const [action] = adapt(
      request(fixture('aws-cloudwatch/sns-notification-alarm.json'), {
        contentType: 'text/plain; charset=UTF-8',
        options: { capture_additional_data: true },
      }),
    );
    const labels = action.action === 'create' ? action.alert.additionalData?.map((datum) => datum.label) : [];

    expect(labels).toContain('AlarmArn');
    expect(labels).not.toContain('Signature');
    expect(action).toMatchObject({
      alert: { additionalData: expect.arrayContaining([{ type: 'json', label: 'Trigger', value: expect.any(Object) }]) },
    });
  });

  it('rejects a Notification whose Message is not a CloudWatch alarm', () => {
    const envelope = fixtureJson('aws-cloudwatch/sns-notification-alarm.json');
    expect(() => adapt(sns({ ...envelope, Message: 'Hello world!' }))).toThrowError(/not a CloudWatch alarm/);
    expect(() => adapt(sns({ ...envelope, Message: '{"hello": "world"}' }))).toThrowError(/AlarmName/);
  });

  it('rejects a body that is not an SNS message', () => {
    expect(() => adapt(request('not json at all', { contentType: 'text/plain' }))).toThrowError(/not JSON/);
    expect(() => adapt(request({ hello: 'world' }))).toThrowError(/not an SNS message/);
  });
});
