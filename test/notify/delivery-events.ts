// Delivery receipts in tests: the service with SES and End User Messaging pointed at the AWS
// stand-in and the delivery topic configured, the SNS stand-in serving the signing certificate; the
// provider's event (test/fixtures/delivery, AWS's documented shapes) for one message id, wrapped in
// an SNS Notification of the delivery topic and signed with the test key (test/fixtures/sns), as
// SNS delivers it to POST /public/delivery/sns.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signSns, startSnsStub, type SnsStub } from '../integrations/sns-support';
import type { ApiClient } from '../support/api-client';
import { startAwsMessagingStub, type AwsMessagingStub } from '../support/aws-messaging-stub';
import { startService, type TestService } from '../support/runtime';

export const DELIVERY_TOPIC = 'arn:aws:sns:us-east-1:123456789012:oncall-delivery';

export interface DeliveryService {
  aws: AwsMessagingStub;
  sns: SnsStub;
  service: TestService;
  stop(): Promise<void>;
}

/** The service delivering e-mail, SMS and calls through the AWS stand-in (push and Slack have no provider: OUTBOX=none), reading receipts of DELIVERY_TOPIC. */
export async function startDeliveryService(
  options: { pollerConcurrency?: number; env?: Record<string, string> } = {},
): Promise<DeliveryService> {
  const aws = await startAwsMessagingStub();
  const sns = await startSnsStub();
  const service = await startService({
    ...options,
    env: {
      OUTBOX: 'none',
      AWS_ENDPOINT_URL_SESV2: aws.url,
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: aws.url,
      SES_FROM_ADDRESS: 'On-call <oncall@example.com>',
      SMS_ORIGINATION_IDENTITY: '+18005550199',
      VOICE_ORIGINATION_IDENTITY: '+18005550198',
      DELIVERY_TOPIC_ARN: DELIVERY_TOPIC,
      ...options.env,
    },
  });
  return {
    aws,
    sns,
    service,
    async stop() {
      await service.stop();
      await sns.close();
      await aws.close();
    },
  };
}

export type DeliveryFixture =
  | 'ses-delivery'
  | 'ses-bounce-permanent'
  | 'ses-bounce-transient'
  | 'ses-complaint'
  | 'ses-reject'
  | 'ses-rendering-failure'
  | 'ses-send'
  | 'ses-delivery-delay'
  | 'eum-text'
  | 'eum-voice';

/** The fixture's event for this provider message id; `changes` replace top-level fields (eventType, …). */
export function deliveryEvent(fixture: DeliveryFixture, messageId: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const text = readFileSync(new URL(`../fixtures/delivery/${fixture}.json`, import.meta.url), 'utf8');
  const event = JSON.parse(text.replaceAll('MESSAGE_ID', messageId)) as Record<string, unknown>;
  return { ...event, ...changes };
}

/** The event as SNS delivers it: a signed Notification of the topic whose Message is the event's JSON. */
export function snsDelivery(event: unknown, options: { topic?: string; key?: string } = {}): Record<string, unknown> {
  const topic = options.topic ?? DELIVERY_TOPIC;
  return signSns(
    {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: topic,
      Message: typeof event === 'string' ? event : JSON.stringify(event),
      Timestamp: new Date().toISOString(),
      UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${topic}:${randomUUID()}`,
    },
    options.key ? { key: options.key } : {},
  );
}

/** POSTs an SNS body as SNS does (text/plain). */
export function postReceipt(anonymous: ApiClient, body: unknown) {
  return anonymous.post('/public/delivery/sns', typeof body === 'string' ? body : JSON.stringify(body), {
    'content-type': 'text/plain; charset=UTF-8',
  });
}
