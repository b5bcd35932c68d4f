// The link to a voicemail in an alert's description. With a public base URL (CONSOLE_URL or
// PUBLIC_BASE_URL) it is `<base>/public/voicemail/<token>`: the token, signed with the one-click links'
// secret, names the recording and is valid 7 days; opening it answers 302 to an S3 GET signed for 5
// minutes at that moment. An S3 link signed once could not last 7 days: a Lambda role's credentials
// expire within hours, and a presigned URL dies with the credentials that signed it. Without a base
// URL the description gets such an S3 link (valid as long as those credentials). Loaded with the first
// voicemail or the first opened link (a chunk of its own).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { now } from '../clock';
import { config } from '../config';
import { publicBaseUrl, responseSecret } from '../notify/response-links';
import { clientPerEndpoint, withoutSdkLogging } from '../sdk';

export const VOICEMAIL_LINK_SECONDS = 7 * 86_400;
/** How long the S3 link a voicemail link redirects to lasts: enough to start the download. */
const OPENED_LINK_SECONDS = 300;
const PREFIX = 'voicemail/';

const s3: () => S3Client = clientPerEndpoint('AWS_ENDPOINT_URL_S3', () => {
  // Path-style when pointed at a stand-in; virtual-hosted (S3's default) against AWS.
  const client = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL) });
  withoutSdkLogging(client);
  return client;
});

function s3Link(bucket: string, key: string, seconds: number): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: seconds });
}

interface Claims {
  /** The recording's key in the voicemail bucket. */
  k: string;
  /** Expiry, epoch milliseconds. */
  e: number;
}

const mac = (payload: string, secret: string) => createHmac('sha256', secret).update(`voicemail.${payload}`).digest('base64url');

/** The link an alert's description carries for a recording (see above). */
export async function voicemailLink(bucket: string, key: string): Promise<string> {
  const base = publicBaseUrl();
  if (!base) return s3Link(bucket, key, VOICEMAIL_LINK_SECONDS);
  const payload = Buffer.from(JSON.stringify({ k: key, e: now() + VOICEMAIL_LINK_SECONDS * 1000 } satisfies Claims)).toString('base64url');
  return `${base}/public/voicemail/${payload}.${mac(payload, await responseSecret())}`;
}

export type OpenedVoicemail = { status: 302; location: string } | { status: 404 | 410; message: string };

/** What opening a voicemail link answers: 302 to the recording, 404 for a link that is not one of ours, 410 once expired. */
export async function openVoicemail(token: string): Promise<OpenedVoicemail> {
  const invalid = { status: 404 as const, message: 'Not a voicemail link of this service' };
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0 || token.length > 2_000) return invalid;
  const expected = Buffer.from(mac(payload, await responseSecret()));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return invalid;
  let claims: Partial<Claims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
  } catch {
    return invalid;
  }
  if (typeof claims.k !== 'string' || !claims.k.startsWith(PREFIX) || typeof claims.e !== 'number') return invalid;
  if (now() >= claims.e) return { status: 410, message: 'The voicemail link expired (links are valid 7 days)' };
  const bucket = config().VOICEMAIL_BUCKET;
  if (!bucket) return { status: 404, message: 'Voicemails are not kept by this deployment' };
  return { status: 302, location: await s3Link(bucket, claims.k, OPENED_LINK_SECONDS) };
}
