// A request body as the service keeps it: text stays text, but bytes that are not UTF-8 (an image, a
// gzip, a sender's wrong charset) are kept as base64 with a marker instead of being mangled by a
// UTF-8 decode, so the stored request is what the sender sent.
import { isUtf8 } from 'node:buffer';

export interface StoredBody {
  body: string;
  bodyEncoding?: 'base64';
  /** Size in bytes as received. */
  bytes: number;
}

export function storedBody(bytes: Buffer): StoredBody {
  if (isUtf8(bytes)) return { body: bytes.toString('utf8'), bytes: bytes.length };
  return { body: bytes.toString('base64'), bodyEncoding: 'base64', bytes: bytes.length };
}
