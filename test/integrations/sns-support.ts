// SNS in tests: messages signed with the test key (test/fixtures/sns), and a local server standing in
// for the SNS hosts (signing certificate, ConfirmSubscription). The worker's HTTP client is pointed
// at the local server; the SNS host checks still run before any fetch.
import { sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { replaceDependencies } from '../../lib/dependencies';
import { stringToSign, type SnsMessage } from '../../lib/integrations/sns/verify-signature';

export const TEST_CERT = readFileSync(new URL('../fixtures/sns/test-signing-cert.pem', import.meta.url), 'utf8');
const TEST_KEY = readFileSync(new URL('../fixtures/sns/test-signing-key.pem', import.meta.url), 'utf8');
export const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem';

/** The message with SignatureVersion, SigningCertURL and a Signature made with the test key. */
export function signSns(
  message: Record<string, unknown>,
  options: { version?: '1' | '2'; certUrl?: string; key?: string } = {},
): Record<string, unknown> {
  const version = options.version ?? '1';
  const signed = { ...message, SignatureVersion: version, SigningCertURL: options.certUrl ?? CERT_URL } as unknown as SnsMessage;
  const text = stringToSign(signed);
  if (text === null) throw new Error('message lacks a signed field');
  signed.Signature = sign(version === '1' ? 'sha1' : 'sha256', Buffer.from(text, 'utf8'), options.key ?? TEST_KEY).toString('base64');
  return signed;
}

export interface SnsStub {
  /** Every request the stub received: `<host><path>` of the SNS URL asked for. */
  requests: string[];
  /** Status the certificate path answers with next (then 200 again). */
  failCertificateOnce(status: number): void;
  close(): Promise<void>;
}

export const SUBSCRIPTION_ARN = 'arn:aws:sns:us-east-1:123456789012:oncall-alarms:2bcfbf39-05c3-41de-beaa-fcfcc21c8f55';

/** Starts the stand-in and routes the worker's SNS fetches to it (`https://<sns host>/p` → `http://127.0.0.1:<port>/<sns host>/p`). */
export async function startSnsStub(): Promise<SnsStub> {
  let failNext: number | null = null;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const target = decodeURIComponent((req.url ?? '/').slice(1));
    requests.push(target);
    if (target.endsWith('.pem')) {
      if (failNext !== null) {
        res.writeHead(failNext).end('unavailable');
        failNext = null;
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(TEST_CERT);
      return;
    }
    if (target.includes('Action=ConfirmSubscription')) {
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          `<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><ConfirmSubscriptionResult><SubscriptionArn>${SUBSCRIPTION_ARN}</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>`,
        );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const restore = replaceDependencies({
    snsHttp: async (url) => {
      const parsed = new URL(url);
      const res = await fetch(`http://127.0.0.1:${port}/${encodeURIComponent(parsed.host + parsed.pathname + parsed.search)}`);
      return { status: res.status, body: await res.text() };
    },
  });
  return {
    requests,
    failCertificateOnce(status) {
      failNext = status;
    },
    async close() {
      restore();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Makes every SNS host unreachable at the network level: fetches go to a local port nobody listens
 * on, so they fail with a real ECONNREFUSED (as a machine without a route to AWS fails with a DNS
 * error). Returns the restore function.
 */
export async function makeSnsUnreachable(): Promise<{ requests: string[]; restore(): void }> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const requests: string[] = [];
  const restore = replaceDependencies({
    snsHttp: async (url) => {
      const parsed = new URL(url);
      requests.push(parsed.host + parsed.pathname + parsed.search);
      const res = await fetch(`http://127.0.0.1:${port}/`);
      return { status: res.status, body: await res.text() };
    },
  });
  return { requests, restore };
}
