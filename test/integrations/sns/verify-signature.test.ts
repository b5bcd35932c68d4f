import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isSigningCertUrl,
  isSnsMessage,
  isSnsUrl,
  stringToSign,
  verifySignature,
  type SnsMessage,
} from '../../../lib/integrations/sns/verify-signature';
import { senderFixture } from '../support';
import { signSns, TEST_CERT } from '../sns-support';

/** The fixtures are messages SNS sent: every one carries its Message as text. */
type SnsFixture = SnsMessage & { Message: string; Subject?: string };
const fixture = (name: string) => JSON.parse(senderFixture(`aws-cloudwatch/${name}`)) as SnsFixture;

describe('SNS signatures', () => {
  it('signs the fields AWS lists per type, `Name\\nvalue\\n`, Subject only when present', () => {
    const notification = fixture('sns-notification-alarm.json');
    expect(stringToSign(notification)).toBe(
      `Message\n${notification.Message}\nMessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\nSubject\n${notification.Subject}\n` +
        'Timestamp\n2026-03-02T10:15:24.266Z\nTopicArn\narn:aws:sns:us-east-1:123456789012:oncall-alarms\nType\nNotification\n',
    );
    const { Subject: _, ...withoutSubject } = notification;
    expect(stringToSign(withoutSubject as SnsMessage)).not.toContain('Subject');
    const confirmation = fixture('sns-subscription-confirmation.json');
    expect(stringToSign(confirmation)).toMatch(
      /^Message\n[^]*\nMessageId\n[^\n]+\nSubscribeURL\n[^\n]+\nTimestamp\n[^\n]+\nToken\n[^\n]+\nTopicArn\n[^\n]+\nType\nSubscriptionConfirmation\n$/,
    );
    const { Token: __, ...withoutToken } = confirmation;
    expect(stringToSign(withoutToken as SnsMessage)).toBeNull();
  });

  it.each(['1', '2'] as const)('verifies SignatureVersion %s (SHA1withRSA / SHA256withRSA) and refuses any change', (version) => {
    for (const name of ['sns-notification-alarm.json', 'sns-subscription-confirmation.json', 'sns-unsubscribe-confirmation.json']) {
      const signed = signSns(fixture(name), { version }) as SnsFixture;
      expect(verifySignature(signed, TEST_CERT), name).toEqual({ valid: true });
      expect(verifySignature({ ...signed, Message: `${signed.Message} ` }, TEST_CERT)).toEqual({
        valid: false,
        reason: 'the signature does not match the message',
      });
      expect(verifySignature({ ...signed, TopicArn: 'arn:aws:sns:us-east-1:999999999999:other' }, TEST_CERT).valid).toBe(false);
    }
  });

  it('refuses a signature made with another key, an unknown version, or none', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = signSns(fixture('sns-notification-alarm.json'), {
      key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    }) as SnsMessage;
    expect(verifySignature(forged, TEST_CERT).valid).toBe(false);
    const signed = signSns(fixture('sns-notification-alarm.json')) as SnsMessage;
    expect(verifySignature({ ...signed, SignatureVersion: '3' }, TEST_CERT)).toEqual({
      valid: false,
      reason: 'unsupported SignatureVersion "3"',
    });
    expect(verifySignature({ ...signed, Signature: '' }, TEST_CERT)).toEqual({ valid: false, reason: 'the message has no Signature' });
    expect(verifySignature(signed, 'not a certificate').valid).toBe(false);
  });

  it('refuses a certificate that is not valid at the time of checking', () => {
    const signed = signSns(fixture('sns-notification-alarm.json')) as SnsMessage;
    expect(verifySignature(signed, TEST_CERT, Date.UTC(2200, 0, 1))).toEqual({
      valid: false,
      reason: 'the signing certificate is not valid now',
    });
  });

  it('trusts only https URLs on an SNS host, in any region, the China regions included', () => {
    for (const ok of [
      'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.eu-central-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.us-gov-west-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem',
    ]) {
      expect(isSigningCertUrl(ok), ok).toBe(true);
    }
    for (const bad of [
      'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-abc.pem',
      'https://evil.example/sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://s3.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://evil-sns.us-east-1.amazonaws.com/x.pem',
      'https://user:pass@sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-abc.pem',
      'https://sns.us-east-1.amazonaws.com/?Action=Anything',
      'not a url',
      42,
    ]) {
      expect(isSigningCertUrl(bad), String(bad)).toBe(false);
    }
    expect(isSnsUrl('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t')).toBe(true);
    expect(isSnsUrl('http://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t')).toBe(false);
  });

  it('recognises SNS envelopes by their Type', () => {
    expect(isSnsMessage(fixture('sns-notification-alarm.json'))).toBe(true);
    expect(isSnsMessage({ AlarmName: 'raw delivery', NewStateValue: 'ALARM' })).toBe(false);
    expect(isSnsMessage({ Type: 'Something' })).toBe(false);
  });
});
