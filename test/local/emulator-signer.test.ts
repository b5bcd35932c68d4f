// The embedded emulators check that a call carries a well-formed SigV4 header and never verify it:
// the service's clients skip signing for them (lib/sdk.ts), and only for them.
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDDED_EMULATORS_VARIABLE, emulatorSigner, serviceClientConfig } from '../../lib/sdk';
import { db } from '../../lib/store/client';
import { getItem } from '../../lib/store/items';
import { startService } from '../support/runtime';

const before = process.env[EMBEDDED_EMULATORS_VARIABLE];
afterEach(() => {
  if (before === undefined) delete process.env[EMBEDDED_EMULATORS_VARIABLE];
  else process.env[EMBEDDED_EMULATORS_VARIABLE] = before;
});

describe('signing for the embedded emulators', () => {
  it('stamps the header the emulators check, with the scope of the call', async () => {
    const request = { headers: {} as Record<string, string> };
    await emulatorSigner.sign(request, {
      signingDate: new Date('2026-11-27T06:15:00.123Z'),
      signingRegion: 'eu-west-1',
      signingService: 'sqs',
    });
    expect(request.headers['x-amz-date']).toBe('20261127T061500Z');
    expect(request.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=local/20261127/eu-west-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=unsigned',
    );
  });

  it('is used only while the embedded emulators serve the process', () => {
    delete process.env[EMBEDDED_EMULATORS_VARIABLE];
    expect(serviceClientConfig().signer).toBeUndefined();
    process.env[EMBEDDED_EMULATORS_VARIABLE] = 'true';
    expect(serviceClientConfig().signer).toBe(emulatorSigner);
  });

  it.skipIf(Boolean(process.env.AWS_ENDPOINT_URL))('is what the runtime on embedded emulators uses, and they accept it', async () => {
    const service = await startService();
    try {
      expect(process.env[EMBEDDED_EMULATORS_VARIABLE]).toBe('true');
      expect(await db().config.signer()).toBe(emulatorSigner);
      expect(await getItem({ pk: 'A#nobody#ALERT', sk: 'none' })).toBeNull();
      expect((await service.admin.get('/api/v4/alerts')).status).toBe(200);
    } finally {
      await service.stop();
    }
    expect(process.env[EMBEDDED_EMULATORS_VARIABLE]).toBeUndefined();
  });
});
