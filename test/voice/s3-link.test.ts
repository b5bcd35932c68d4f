// The voicemail link's S3 GET link (lib/voice-calls/s3-link.ts) against the SDK's own S3 request
// presigner, the reference it replaced: for the same object, credentials, region, endpoint, validity
// and signing time, the two links are the same string (address, query fields, signature).
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { signedS3Link } from '../../lib/voice-calls/s3-link';

const withToken = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'IQo/tok+en==' };
const withoutToken = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY' };

const cases = [
  { name: 'virtual-hosted, with a session token', bucket: 'oncall-voicemail-1a2b', region: 'us-east-1', credentials: withToken },
  { name: 'another region, no session token', bucket: 'oncall-voicemail', region: 'eu-west-1', credentials: withoutToken },
  { name: 'a bucket name with dots: path-style', bucket: 'voice.mail.example', region: 'eu-central-1', credentials: withToken },
  { name: 'a bucket name with two hyphens', bucket: 'voice--mail', region: 'us-west-2', credentials: withToken },
  { name: 'China', bucket: 'oncall-voicemail', region: 'cn-north-1', credentials: withToken },
  {
    name: 'an endpoint of our own: path-style, its port',
    bucket: 'oncall-voicemail',
    region: 'us-east-1',
    credentials: withToken,
    endpoint: 'http://127.0.0.1:4566',
  },
  {
    name: 'an HTTPS endpoint',
    bucket: 'oncall-voicemail',
    region: 'ap-southeast-2',
    credentials: withoutToken,
    endpoint: 'https://s3.example.test',
  },
  {
    name: 'an endpoint with a path of its own',
    bucket: 'oncall-voicemail',
    region: 'us-east-1',
    credentials: withToken,
    endpoint: 'https://proxy.example.test/s3/eu/',
  },
];

const keys = ['voicemail/01JACC/01JALERT/3f2b-c0ffee.wav', "voicemail/acc/al x/tr~ans(1)!*'é+%.wav", 'voicemail/a/b//c/ünïcödé 🎙.wav'];

describe('an S3 GET link signed as the SDK signs one', () => {
  it.each(cases)('$name', async ({ bucket, region, credentials, endpoint }) => {
    const client = new S3Client({ region, credentials, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
    try {
      for (const key of keys) {
        for (const [expiresIn, at] of [
          [300, '2026-11-29T12:00:00.000Z'],
          [604_800, '2027-02-28T23:59:59.999Z'],
        ] as const) {
          const signedAt = new Date(at);
          const reference = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
            expiresIn,
            signingDate: signedAt,
          });
          expect(signedS3Link({ bucket, key, region, credentials, expiresIn, endpoint, signedAt }), `${key} at ${at}`).toBe(reference);
        }
      }
    } finally {
      client.destroy();
    }
  });

  it('changes its signature with the secret, the time and the object', () => {
    const base = {
      bucket: 'oncall-voicemail',
      key: 'voicemail/a.wav',
      region: 'us-east-1',
      credentials: withToken,
      expiresIn: 300,
      signedAt: new Date('2026-11-29T12:00:00Z'),
    };
    const signature = (link: string) => new URL(link).searchParams.get('X-Amz-Signature');
    const first = signature(signedS3Link(base));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(signature(signedS3Link({ ...base, credentials: { ...withToken, secretAccessKey: 'other' } }))).not.toBe(first);
    expect(signature(signedS3Link({ ...base, signedAt: new Date('2026-11-29T12:00:01Z') }))).not.toBe(first);
    expect(signature(signedS3Link({ ...base, key: 'voicemail/b.wav' }))).not.toBe(first);
  });
});
