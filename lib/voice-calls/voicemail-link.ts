// The link to a voicemail in an alert's description: an S3 GET signed for 7 days (S3's longest) with
// the SIP media function's own credentials. Loaded with the first voicemail (a chunk of its own).
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { clientPerEndpoint, withoutSdkLogging } from '../sdk';

export const VOICEMAIL_LINK_SECONDS = 7 * 86_400;

const s3: () => S3Client = clientPerEndpoint('AWS_ENDPOINT_URL_S3', () => {
  // Path-style when pointed at a stand-in; virtual-hosted (S3's default) against AWS.
  const client = new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL) });
  withoutSdkLogging(client);
  return client;
});

export function voicemailLink(bucket: string, key: string): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: VOICEMAIL_LINK_SECONDS });
}
