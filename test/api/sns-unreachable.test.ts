// SNS when its signing certificate cannot be fetched at all (no network path to AWS): the samples AWS
// documents (a fake Signature, a real SigningCertURL) are accepted as `unverified` and a CloudWatch
// ALARM makes its alert (docs/api.md#integrations); everything the verifier can decide without the certificate is
// still refused; SNS_SIGNATURE_REQUIRED=true fails them instead. The hosts fail with a real
// ECONNREFUSED (test/integrations/sns-support.ts makeSnsUnreachable).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import { logger } from '../../lib/log';
import { useService, type TestService } from '../support/runtime';
import { alertsWithThirdpartyId, createIntegration, eventually, postRaw, senderFixture } from '../integrations/support';
import { makeSnsUnreachable, startSnsStub } from '../integrations/sns-support';
import { changeEnvironment } from '../support/dependencies';

let service: TestService;
let cloudwatch: { id: string; prefix_id: string; account_id: string };
let unreachable: Awaited<ReturnType<typeof makeSnsUnreachable>>;

useService(async (started) => {
  service = started;
  cloudwatch = (await createIntegration(service.admin, { type: 'aws_cloudwatch', urgency: 'high' })) as typeof cloudwatch;
});
beforeAll(async () => {
  unreachable = await makeSnsUnreachable();
});
afterAll(() => {
  unreachable?.restore();
});
let restoreEnvironment = () => {};
afterEach(() => {
  restoreEnvironment();
  restoreEnvironment = () => {};
  vi.restoreAllMocks();
});

const SNS_HEADERS = { 'content-type': 'text/plain; charset=UTF-8' };
/** AWS's sample as documented: its Signature is made up, its SigningCertURL is SNS's real one. */
const sample = (name: string) => JSON.parse(senderFixture(`aws-cloudwatch/${name}`)) as Record<string, any>;
const topic = () => `arn:aws:sns:us-east-1:123456789012:alarms-${Math.random().toString(36).slice(2, 8)}`;

function alarm(arn: string): Record<string, unknown> {
  return { ...sample('sns-notification-alarm.json'), TopicArn: arn, MessageId: crypto.randomUUID() };
}

async function post(message: Record<string, unknown>, headers: Record<string, string> = SNS_HEADERS) {
  const res = await postRaw(service.url, `/integration/${cloudwatch.prefix_id}`, JSON.stringify(message), headers);
  expect(res.status).toBe(202);
  return res.body.log_id as string;
}

async function settled(logId: string): Promise<IncomingLog> {
  return eventually(
    async () => {
      const log = await getIncomingLog(cloudwatch.account_id, logId.replace(/^log_/, ''));
      return log && log.status !== 'pending' ? log : undefined;
    },
    15_000,
    `log ${logId}`,
  );
}

const alarmsOf = (arn: string) => alertsWithThirdpartyId(service.admin, `${arn}:api-prod-high-cpu`);

describe('certificate unreachable, SNS_SIGNATURE_REQUIRED unset (the default)', () => {
  it("AWS's sample ALARM is accepted unverified and makes its alert; the log and a warning say so", async () => {
    const warn = vi.spyOn(logger, 'warn');
    const arn = topic();
    const before = unreachable.requests.length;
    const log = await settled(await post(alarm(arn)));
    expect(log.status).toBe('processed');
    expect(log.data.sns_signature).toBe('unverified: certificate unreachable');
    const [alert] = await alarmsOf(arn);
    expect(alert).toMatchObject({ title: 'api-prod-high-cpu', status: 'open', urgency: 'high' });
    // The certificate was asked for (and could not be reached), on SNS's host.
    expect(unreachable.requests.slice(before).some((r) => r.startsWith('sns.us-east-1.amazonaws.com/') && r.endsWith('.pem'))).toBe(true);
    expect(warn.mock.calls.some(([message]) => typeof message === 'string' && message.includes('unverified'))).toBe(true);
  });

  it('the OK that follows resolves it', async () => {
    const arn = topic();
    await settled(await post(alarm(arn)));
    const ok = { ...sample('sns-notification-ok.json'), TopicArn: arn, MessageId: crypto.randomUUID() };
    expect((await settled(await post(ok))).status).toBe('processed');
    expect((await alarmsOf(arn))[0].status).toBe('resolved');
  });

  it("AWS's sample SubscriptionConfirmation: the confirmation is attempted, fails for the network, and the log is not failed", async () => {
    const confirmation: Record<string, any> = { ...sample('sns-subscription-confirmation.json'), MessageId: crypto.randomUUID() };
    const log = await settled(await post(confirmation, { ...SNS_HEADERS, 'x-amz-sns-message-type': 'SubscriptionConfirmation' }));
    expect(log).toMatchObject({ status: 'ignored', reason: 'sns_subscription_confirmation' });
    expect(log.data.sns_signature).toBe('unverified: certificate unreachable');
    expect(log.data.result).toMatchObject({
      subscribe_url: confirmation.SubscribeURL,
      subscription_confirmed: false,
      confirmation_failed: expect.stringMatching(/sns\.us-east-1\.amazonaws\.com unreachable \(ECONNREFUSED\)/),
    });
    expect(unreachable.requests).toContain(
      new URL(confirmation.SubscribeURL as string).host + '/' + new URL(confirmation.SubscribeURL as string).search,
    );
  });

  it.each<[string, (arn: string) => Record<string, unknown>, RegExp]>([
    [
      'a SigningCertURL over http',
      (arn) => ({ ...alarm(arn), SigningCertURL: 'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem' }),
      /SigningCertURL is not/,
    ],
    [
      'a SigningCertURL on another host',
      (arn) => ({ ...alarm(arn), SigningCertURL: 'https://sns.us-east-1.amazonaws.com.evil.example/x.pem' }),
      /SigningCertURL is not/,
    ],
    ['a missing Signature', (arn) => ({ ...alarm(arn), Signature: undefined }), /no Signature/],
    ['an unknown SignatureVersion', (arn) => ({ ...alarm(arn), SignatureVersion: '3' }), /unsupported SignatureVersion "3"/],
  ])('still refuses what needs no certificate to decide: %s', async (_name, build, reason) => {
    const arn = topic();
    const before = unreachable.requests.length;
    const log = await settled(await post(build(arn)));
    expect(log.status).toBe('failed');
    expect(log.reason).toMatch(reason);
    expect(log.data.result?.failure).toBe('signature');
    expect(String(log.data.sns_signature)).toMatch(/^failed: /);
    expect(await alarmsOf(arn)).toHaveLength(0);
    expect(unreachable.requests.length).toBe(before);
  });

  it('an HTTP error from the SNS host is an answer, not an unreachable host: the message fails', async () => {
    const stub = await startSnsStub();
    try {
      stub.failCertificateOnce(404);
      const arn = topic();
      const log = await settled(
        await post({ ...alarm(arn), SigningCertURL: 'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-404.pem' }),
      );
      expect(log).toMatchObject({ status: 'failed', reason: expect.stringMatching(/HTTP 404/) });
      expect(await alarmsOf(arn)).toHaveLength(0);
    } finally {
      await stub.close();
      unreachable = await makeSnsUnreachable();
    }
  });
});

describe('certificate unreachable, SNS_SIGNATURE_REQUIRED=true', () => {
  it('the sample ALARM is failed and makes no alert', async () => {
    restoreEnvironment = changeEnvironment({ SNS_SIGNATURE_REQUIRED: 'true' });
    const arn = topic();
    const log = await settled(await post(alarm(arn)));
    expect(log.status).toBe('failed');
    expect(log.reason).toMatch(/signing certificate could not be fetched: .*unreachable.*SNS_SIGNATURE_REQUIRED/);
    expect(log.data.result?.failure).toBe('signature');
    expect(await alarmsOf(arn)).toHaveLength(0);
  });

  it('a SubscriptionConfirmation is failed too, its SubscribeURL recorded but not fetched', async () => {
    restoreEnvironment = changeEnvironment({ SNS_SIGNATURE_REQUIRED: 'true' });
    const confirmation: Record<string, any> = { ...sample('sns-subscription-confirmation.json'), MessageId: crypto.randomUUID() };
    const before = unreachable.requests.length;
    const log = await settled(await post(confirmation));
    expect(log.status).toBe('failed');
    expect(log.data.result).toMatchObject({ subscribe_url: confirmation.SubscribeURL, subscription_confirmed: false });
    expect(unreachable.requests.slice(before).some((r) => r.includes('ConfirmSubscription'))).toBe(false);
  });
});
