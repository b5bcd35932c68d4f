// A GET link to an S3 object, signed with Signature Version 4 in its query string (a "presigned
// URL"), as the SDK's S3 request presigner writes one for GetObject: the same address (virtual-hosted,
// path-style for a bucket name a host name cannot carry or for an endpoint of our own), the same
// query fields (checksum mode on, `x-id`), the same signature (test/voice/s3-link.test.ts compares
// the two). Issue 21: the S3 client and its presigner were ~180 KiB of the voicemail function's
// start, where signing a link is a few hashes over the function's own credentials.
import { createHash, createHmac } from 'node:crypto';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3LinkRequest {
  bucket: string;
  key: string;
  region: string;
  credentials: SigningCredentials;
  /** How long the link is valid, in seconds (S3 accepts 1 to 604 800). */
  expiresIn: number;
  /** An endpoint of our own (AWS_ENDPOINT_URL_S3: a stand-in, LocalStack): path-style there. */
  endpoint?: string;
  /** When the link is signed: S3 compares it with its own clock, so it is wall time, never the service's scaled clock. */
  signedAt: Date;
}

/** RFC 3986 percent-encoding, as SigV4 asks: every byte but the unreserved characters. */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** A bucket name that can be a host name's label (S3's rule for virtual-hosted addressing over HTTPS). */
const hostable = (bucket: string) => /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);

export function signedS3Link(request: S3LinkRequest): string {
  const { bucket, key, region, credentials, expiresIn } = request;
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  const objectPath = key.split('/').map(encode).join('/');
  let origin: string;
  let path: string;
  if (request.endpoint) {
    const endpoint = new URL(request.endpoint);
    origin = endpoint.origin;
    // An endpoint's own path (a proxy's prefix) comes first, as written.
    path = `${endpoint.pathname.replace(/\/+$/, '')}/${bucket}/${objectPath}`;
  } else if (hostable(bucket)) {
    origin = `https://${bucket}.s3.${region}.${suffix}`;
    path = `/${objectPath}`;
  } else {
    origin = `https://s3.${region}.${suffix}`;
    path = `/${bucket}/${objectPath}`;
  }
  const host = new URL(origin).host;
  const stamp = request.signedAt.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const day = stamp.slice(0, 8);
  const scope = `${day}/${region}/s3/aws4_request`;
  const fields: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': stamp,
    'X-Amz-Expires': String(expiresIn),
    ...(credentials.sessionToken ? { 'X-Amz-Security-Token': credentials.sessionToken } : {}),
    'X-Amz-SignedHeaders': 'host',
    'x-amz-checksum-mode': 'ENABLED',
    'x-id': 'GetObject',
  };
  // Names and values encoded, then sorted by name byte-wise (the canonical query string); the link
  // gives the signature its place in that order too, as the SDK's does.
  const queryOf = (entries: Record<string, string>) =>
    Object.keys(entries)
      .map((name) => [encode(name), encode(entries[name])])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
  const canonical = ['GET', path, queryOf(fields), `host:${host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', stamp, scope, createHash('sha256').update(canonical, 'utf8').digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const signature = hmac(signingKey, toSign).toString('hex');
  return `${origin}${path}?${queryOf({ ...fields, 'X-Amz-Signature': signature })}`;
}
