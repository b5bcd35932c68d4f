// CloudWatch through SNS for real, through the local server: every SNS message is verified before
// the worker acts on it (certificate fetched from an SNS host only, cached), a forged one is logged
// failed and makes no alert, and a verified SubscriptionConfirmation is confirmed. The SNS hosts are
// a local stand-in (test/integrations/sns-support.ts); the host checks run as deployed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { useService, type TestService } from '../support/runtime';
import { alertsWithThirdpartyId, createIntegration, eventually, postRaw, senderFixture } from '../integrations/support';
import { CERT_URL, signSns, startSnsStub, SUBSCRIPTION_ARN, type SnsStub } from '../integrations/sns-support';

let service: TestService;
let sns: SnsStub;
let cloudwatch: { id: string; prefix_id: string; account_id: string };

useService(async (started) => {
  service = started;
  cloudwatch = (await createIntegration(service.admin, { type: 'aws_cloudwatch', urgency: 'high' })) as typeof cloudwatch;
});
beforeAll(async () => {
  sns = await startSnsStub();
});
afterAll(async () => {
  await sns?.close();
});

const SNS_HEADERS = { 'content-type': 'text/plain; charset=UTF-8' };
const fixture = (name: string) => JSON.parse(senderFixture(`aws-cloudwatch/${name}`)) as Record<string, any>;

/** A Notification for a fresh alarm (its own topic, so tests do not share alerts). */
function alarm(state: 'ALARM' | 'OK', topic: string): Record<string, unknown> {
  const message = fixture(state === 'ALARM' ? 'sns-notification-alarm.json' : 'sns-notification-ok.json');
  return { ...message, TopicArn: topic, MessageId: crypto.randomUUID() };
}

const topic = () => `arn:aws:sns:us-east-1:123456789012:alarms-${Math.random().toString(36).slice(2, 8)}`;

async function post(message: Record<string, unknown>, headers: Record<string, string> = SNS_HEADERS) {
  const res = await postRaw(service.url, `/integration/${cloudwatch.prefix_id}`, JSON.stringify(message), headers);
  expect(res.status).toBe(202);
  return res.body.log_id as string;
}

async function settled(logId: string, timeoutMs = 15_000): Promise<IncomingLog> {
  return eventually(
    async () => {
      const log = await getIncomingLog(cloudwatch.account_id, logId.replace(/^log_/, ''));
      return log && log.status !== 'pending' ? log : undefined;
    },
    timeoutMs,
    `log ${logId}`,
  );
}

describe('signed SNS messages', () => {
  it.each(['1', '2'] as const)('SignatureVersion %s: an ALARM makes the alert and an OK resolves it', async (version) => {
    const arn = topic();
    const created = await settled(await post(signSns(alarm('ALARM', arn), { version })));
    expect(created.status).toBe('processed');
    expect(created.data.sns_signature).toBe('verified');
    const [alert] = await alertsWithThirdpartyId(service.admin, `${arn}:api-prod-high-cpu`);
    expect(alert).toMatchObject({ title: 'api-prod-high-cpu', status: 'open' });

    expect((await settled(await post(signSns(alarm('OK', arn), { version })))).status).toBe('processed');
    expect((await alertsWithThirdpartyId(service.admin, `${arn}:api-prod-high-cpu`))[0].status).toBe('resolved');
  });

  it('fetches the signing certificate once and keeps it', async () => {
    const before = sns.requests.filter((r) => r.endsWith('.pem')).length;
    for (let i = 0; i < 3; i++) await settled(await post(signSns(alarm('ALARM', topic()))));
    expect(sns.requests.filter((r) => r.endsWith('.pem')).length).toBe(before);
  });

  it('tries again later when the certificate cannot be fetched now', async () => {
    const arn = topic();
    sns.failCertificateOnce(503);
    const other = signSns(alarm('ALARM', arn), { certUrl: 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-rotated.pem' });
    const log = await settled(await post(other), 20_000);
    expect(log.status).toBe('processed');
    expect(sns.requests.filter((r) => r.startsWith('sns.eu-west-1.amazonaws.com/')).length).toBe(2);
    expect(await alertsWithThirdpartyId(service.admin, `${arn}:api-prod-high-cpu`)).toHaveLength(1);
  });
});

describe('messages that do not verify are failed and make no alert', () => {
  it.each<[string, (arn: string) => Record<string, unknown>, RegExp]>([
    ['a changed message', (arn) => ({ ...signSns(alarm('ALARM', arn)), Subject: 'ALARM: something else' }), /signature does not match/],
    ['an unsigned message', (arn) => alarm('ALARM', arn), /signature does not match|no Signature/],
    ['a missing signature', (arn) => ({ ...signSns(alarm('ALARM', arn)), Signature: undefined }), /no Signature/],
    [
      'a certificate on another host',
      (arn) => signSns(alarm('ALARM', arn), { certUrl: 'https://certs.example.org/SimpleNotificationService-x.pem' }),
      /SigningCertURL is not/,
    ],
    [
      'a certificate over http',
      (arn) => signSns(alarm('ALARM', arn), { certUrl: 'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem' }),
      /SigningCertURL is not/,
    ],
    [
      'a look-alike host',
      (arn) => signSns(alarm('ALARM', arn), { certUrl: 'https://sns.us-east-1.amazonaws.com.example.org/x.pem' }),
      /SigningCertURL is not/,
    ],
  ])('%s', async (_name, build, reason) => {
    const arn = topic();
    const before = sns.requests.length;
    const log = await settled(await post(build(arn)));
    expect(log.status).toBe('failed');
    expect(log.reason).toMatch(reason);
    expect(log.data.result?.failure).toBe('signature');
    expect(await alertsWithThirdpartyId(service.admin, `${arn}:api-prod-high-cpu`)).toHaveLength(0);
    // A URL that fails the host check is never fetched.
    if (/SigningCertURL/.test(reason.source)) expect(sns.requests.length).toBe(before);
  });

  it('a certificate SNS does not have', async () => {
    const arn = topic();
    const missing = signSns(alarm('ALARM', arn), { certUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-gone.cer' });
    const log = await settled(await post(missing));
    expect(log).toMatchObject({ status: 'failed', reason: expect.stringMatching(/SigningCertURL is not/) });
  });
});

describe('subscriptions', () => {
  it('confirms a verified SubscriptionConfirmation by fetching its SubscribeURL, and records it', async () => {
    const sent = fixture('sns-subscription-confirmation.json');
    const confirmation = signSns({ ...sent, MessageId: crypto.randomUUID() });
    const log = await settled(await post(confirmation, { ...SNS_HEADERS, 'x-amz-sns-message-type': 'SubscriptionConfirmation' }));
    expect(log).toMatchObject({ status: 'ignored', reason: 'sns_subscription_confirmation' });
    expect(log.data.result).toMatchObject({
      subscribe_url: sent.SubscribeURL,
      subscription_confirmed: true,
      subscription_arn: SUBSCRIPTION_ARN,
    });
    expect(sns.requests).toContain(
      `sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:oncall-alarms&Token=${sent.Token}`,
    );
  });

  it('does not fetch a SubscribeURL that is not https on an SNS host, even when signed', async () => {
    const before = sns.requests.length;
    const confirmation = signSns({
      ...fixture('sns-subscription-confirmation.json'),
      SubscribeURL: 'http://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t',
    });
    const log = await settled(await post(confirmation));
    expect(log.status).toBe('ignored');
    expect(log.data.result).toMatchObject({
      subscription_confirmed: false,
      confirmation_skipped: expect.stringMatching(/not an https URL/),
    });
    expect(sns.requests.slice(before).some((r) => r.includes('ConfirmSubscription'))).toBe(false);
  });

  it('does not confirm a forged SubscriptionConfirmation', async () => {
    const before = sns.requests.length;
    const forged: Record<string, unknown> = { ...signSns(fixture('sns-subscription-confirmation.json')), Token: 'another-token' };
    const log = await settled(await post(forged));
    expect(log).toMatchObject({ status: 'failed', reason: expect.stringMatching(/signature does not match/) });
    // Its SubscribeURL is recorded on the log, never fetched.
    expect(log.data.result).toMatchObject({ failure: 'signature', subscribe_url: forged.SubscribeURL, subscription_confirmed: false });
    expect(sns.requests.slice(before).some((r) => r.includes('ConfirmSubscription'))).toBe(false);
  });

  it('logs a verified UnsubscribeConfirmation and does not re-subscribe', async () => {
    const before = sns.requests.length;
    const log = await settled(await post(signSns(fixture('sns-unsubscribe-confirmation.json'))));
    expect(log).toMatchObject({ status: 'ignored', reason: 'sns_unsubscribe_confirmation' });
    expect(sns.requests.slice(before).some((r) => r.includes('ConfirmSubscription'))).toBe(false);
  });
});

describe('raw message delivery', () => {
  it('has no envelope to verify: the alarm itself is read, as from any webhook', async () => {
    const arn = topic();
    const raw = JSON.parse(fixture('sns-notification-alarm.json').Message as string) as Record<string, unknown>;
    const log = await settled(await post(raw, { ...SNS_HEADERS, 'x-amz-sns-topic-arn': arn, 'x-amz-sns-rawdelivery': 'true' }));
    expect(log.status).toBe('processed');
    expect(await alertsWithThirdpartyId(service.admin, `${arn}:api-prod-high-cpu`)).toHaveLength(1);
  });
});

it('the certificate URL the tests sign with is one the verifier trusts', () => {
  expect(CERT_URL).toMatch(/^https:\/\/sns\.us-east-1\.amazonaws\.com\/.+\.pem$/);
});
