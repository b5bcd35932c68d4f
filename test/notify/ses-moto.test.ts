// The SES provider against moto's SES v2 (an independent implementation of the service's API): a
// sender that is not a verified identity is refused as SES refuses it (MessageRejected), recorded
// as a failed delivery with the reason; once the identity is verified the message is accepted and
// the provider id is SES's MessageId. Skipped when python3 cannot import moto.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CreateEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFor } from '../../lib/notify/providers/select-provider';
import { changeEnvironment } from '../support/dependencies';

const hasMoto = spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore' }).status === 0;
let moto: ChildProcess | undefined;
let endpoint = '';
let restoreEnvironment = () => {};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  if (!hasMoto) return;
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  moto = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  // Polled until it answers (a positive condition); a moto that never does fails here, not later.
  const answers = () =>
    fetch(`${endpoint}/moto-api/`).then(
      (res) => res.ok,
      () => false, // not listening yet
    );
  const deadline = Date.now() + 20_000;
  while (!(await answers())) {
    if (Date.now() > deadline) throw new Error(`moto did not answer at ${endpoint} within 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  restoreEnvironment = changeEnvironment({
    AWS_ENDPOINT_URL_SESV2: endpoint,
    SES_FROM_ADDRESS: 'oncall@example.com',
    TABLE_NAME: 'oncall',
    OUTBOX: 'memory',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
  });
}, 30_000);

afterAll(() => {
  if (!hasMoto) return;
  moto?.kill();
  restoreEnvironment();
});

const message = {
  notificationId: '01JD0000000000000000000000',
  accountId: 'A',
  accountUserId: 'U',
  channel: 'email' as const,
  to: 'person@example.com',
  subject: '#7 HIGH: Disk full',
  message: 'Disk full on db-1',
  html: '<p>Disk full on db-1</p>',
  template: 'alert_alert',
};

describe.skipIf(!hasMoto)('the SES provider against moto', () => {
  it('is chosen over the outbox once SES_FROM_ADDRESS is set', () => {
    expect(providerFor('email').name).toBe('ses');
    expect(providerFor('sms').name).toBe('outbox');
  });

  it('records an unverified sender as failed with SES’s reason, and sends once the identity is verified', async () => {
    const refused = await providerFor('email').send(message);
    expect(refused).toMatchObject({ status: 'failed', provider: 'ses' });
    expect(refused.err).toMatch(/^SES refused the message \(HTTP 400\): MessageRejected: .*not verified/);

    const ses = new SESv2Client({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
    await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'oncall@example.com' }));
    ses.destroy();

    const sent = await providerFor('email').send(message);
    expect(sent).toMatchObject({ status: 'sent', provider: 'ses' });
    expect(sent.provider_id).toMatch(/\S{10,}/);
  });
});
