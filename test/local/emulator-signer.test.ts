// The embedded emulators check that a call carries a well-formed SigV4 header and never verify it:
// the service's clients skip signing for them (lib/sdk.ts), and only for them.
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EMBEDDED_EMULATORS_VARIABLE, emulatorSigner, serviceClientConfig, trimServiceClient } from '../../lib/sdk';
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

  it('a stamp made once a second serves the calls of that second, region and service only', async () => {
    const stamp = async (at: string, region = 'us-east-1', service = 'dynamodb') => {
      const request = { headers: {} as Record<string, string> };
      await emulatorSigner.sign(request, { signingDate: new Date(at), signingRegion: region, signingService: service });
      return `${request.headers['x-amz-date']} ${request.headers.authorization.split(' ')[1]}`;
    };
    expect(await stamp('2026-12-31T23:59:59.100Z')).toBe('20261231T235959Z Credential=local/20261231/us-east-1/dynamodb/aws4_request,');
    expect(await stamp('2026-12-31T23:59:59.900Z')).toBe('20261231T235959Z Credential=local/20261231/us-east-1/dynamodb/aws4_request,');
    expect(await stamp('2026-12-31T23:59:59.900Z', 'us-east-1', 'sqs')).toBe(
      '20261231T235959Z Credential=local/20261231/us-east-1/sqs/aws4_request,',
    );
    expect(await stamp('2026-12-31T23:59:59.950Z', 'eu-west-1', 'sqs')).toBe(
      '20261231T235959Z Credential=local/20261231/eu-west-1/sqs/aws4_request,',
    );
    expect(await stamp('2027-01-01T00:00:00.000Z')).toBe('20270101T000000Z Credential=local/20270101/us-east-1/dynamodb/aws4_request,');
  });

  it('is used only while the embedded emulators serve the process', () => {
    delete process.env[EMBEDDED_EMULATORS_VARIABLE];
    expect(serviceClientConfig().signer).toBeUndefined();
    process.env[EMBEDDED_EMULATORS_VARIABLE] = 'true';
    expect(serviceClientConfig().signer).toBe(emulatorSigner);
  });

  it('leaves out the user agent and the recursion detection header only for them', () => {
    const middlewareOf = (embedded: boolean) => {
      if (embedded) process.env[EMBEDDED_EMULATORS_VARIABLE] = 'true';
      else delete process.env[EMBEDDED_EMULATORS_VARIABLE];
      const client = new DynamoDBClient({ region: 'us-east-1' });
      trimServiceClient(client);
      const names = client.middlewareStack.identify().join(' ');
      client.destroy();
      return names;
    };
    expect(middlewareOf(false)).toContain('getUserAgentMiddleware');
    expect(middlewareOf(false)).toContain('recursionDetectionMiddleware');
    expect(middlewareOf(true)).not.toContain('getUserAgentMiddleware');
    expect(middlewareOf(true)).not.toContain('recursionDetectionMiddleware');
    expect(middlewareOf(true)).toContain('retryMiddleware');
    // The SDK's logging goes either way.
    expect(middlewareOf(false)).not.toContain('loggerMiddleware');
    expect(middlewareOf(true)).not.toContain('loggerMiddleware');
  });

  it.skipIf(Boolean(process.env.AWS_ENDPOINT_URL))('is what the runtime on embedded emulators uses, and they accept it', async () => {
    const service = await startService();
    try {
      expect(process.env[EMBEDDED_EMULATORS_VARIABLE]).toBe('true');
      expect(await db().config.signer()).toBe(emulatorSigner);
      // What a call sends: no user agent of the SDK's.
      const sent: Record<string, string>[] = [];
      db().middlewareStack.add(
        (next) => (args) => {
          sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
          return next(args);
        },
        { step: 'finalizeRequest', name: 'testHeaderCapture' },
      );
      try {
        expect(await getItem({ pk: 'A#nobody#ALERT', sk: 'none' })).toBeNull();
      } finally {
        db().middlewareStack.remove('testHeaderCapture');
      }
      expect(sent).toHaveLength(1);
      expect(Object.keys(sent[0]).filter((name) => /user-agent/i.test(name))).toEqual([]);
      expect((await service.admin.get('/api/v4/alerts')).status).toBe(200);
    } finally {
      await service.stop();
    }
    expect(process.env[EMBEDDED_EMULATORS_VARIABLE]).toBeUndefined();
  });
});
