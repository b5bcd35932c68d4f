// The link to a voicemail in an alert's description. With a public base URL (CONSOLE_URL or
// PUBLIC_BASE_URL) it is `<base>/public/voicemail/<token>`: the token, signed with the one-click links'
// secret, names the recording and is valid 7 days; opening it answers 302 to an S3 GET signed for 5
// minutes at that moment. An S3 link signed once could not last 7 days: a Lambda role's credentials
// expire within hours, and a presigned URL dies with the credentials that signed it. Without a base
// URL the description gets such an S3 link (valid as long as those credentials). Loaded with the first
// voicemail or the first opened link (a chunk of its own).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { now } from '../clock';
import { config } from '../config';
import { publicBaseUrl, responseSecret } from '../notify/response-links';
import { signedS3Link } from './s3-link';

export const VOICEMAIL_LINK_SECONDS = 7 * 86_400;
/** How long the S3 link a voicemail link redirects to lasts: enough to start the download. */
const OPENED_LINK_SECONDS = 300;
const PREFIX = 'voicemail/';

/** The SDK clients' credential chain (in a deployed bundle its environment link: the role's credentials), kept and refreshed by the chain. */
let credentials: ReturnType<typeof defaultProvider> | undefined;

/**
 * An S3 GET link signed for `seconds` with the function's own credentials, in its region:
 * path-style at AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL) when set, S3's own address otherwise.
 */
async function s3Link(bucket: string, key: string, seconds: number): Promise<string> {
  credentials ??= defaultProvider();
  const region = process.env.AWS_REGION ?? 'us-east-1';
  const endpoint = process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  return signedS3Link({ bucket, key, region, credentials: await credentials(), expiresIn: seconds, endpoint, signedAt: new Date() });
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
