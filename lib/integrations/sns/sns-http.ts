// The ingest worker's only outbound calls: fetching an SNS signing certificate (cached per URL) and
// confirming a subscription by fetching its SubscribeURL. Both only ever for URLs that passed the
// SNS host check (verify-signature.ts), never following a redirect elsewhere. The HTTP client is
// injectable, so tests serve certificates from a local server while the host checks still run.
import { logger } from '../../log';

export interface SnsHttpResponse {
  status: number;
  body: string;
}

/** GETs an (already checked) SNS URL. */
export type SnsHttp = (url: string) => Promise<SnsHttpResponse>;

const TIMEOUT_MS = 5_000;
const MAX_CERTIFICATES = 64;

const defaultHttp: SnsHttp = async (url) => {
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: res.status, body: await res.text() };
};

let http: SnsHttp = defaultHttp;
const certificates = new Map<string, Promise<string>>();

/** Tests: route SNS fetches elsewhere (null restores the real client); drops the certificate cache. */
export function useSnsHttp(client: SnsHttp | null): void {
  http = client ?? defaultHttp;
  certificates.clear();
}

/** A fetch that did not get an answer (network, timeout, 5xx): worth trying again later. */
export class SnsUnreachable extends Error {
  override name = 'SnsUnreachable';
}

async function get(url: string): Promise<SnsHttpResponse> {
  let res: SnsHttpResponse;
  try {
    res = await http(url);
  } catch (error) {
    throw new SnsUnreachable(`${new URL(url).host}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (res.status >= 500 || res.status === 429) throw new SnsUnreachable(`${new URL(url).host} answered ${res.status}`);
  return res;
}

/** SNS answered, but not with a certificate: the message names one that does not exist. */
export class CertificateUnavailable extends Error {
  override name = 'CertificateUnavailable';
}

/** The PEM at a signing certificate URL, fetched once per process (SNS rotates them rarely).
 * Rejects with SnsUnreachable (try again later) or CertificateUnavailable (no such certificate). */
export function signingCertificate(url: string): Promise<string> {
  let pending = certificates.get(url);
  if (!pending) {
    pending = get(url).then((res) => {
      if (res.status !== 200) throw new CertificateUnavailable(`the signing certificate could not be fetched (HTTP ${res.status})`);
      return res.body;
    });
    // A failed fetch is not cached: the next message tries again.
    pending.catch(() => certificates.delete(url));
    if (certificates.size >= MAX_CERTIFICATES) certificates.delete(certificates.keys().next().value!);
    certificates.set(url, pending);
  }
  return pending;
}

/** Confirms a subscription: GET SubscribeURL; SNS answers with the subscription's ARN. */
export async function confirmSubscription(subscribeUrl: string): Promise<{ confirmed: boolean; subscriptionArn?: string; status: number }> {
  const res = await get(subscribeUrl);
  const arn = /<SubscriptionArn>([^<]+)<\/SubscriptionArn>/.exec(res.body)?.[1];
  if (res.status !== 200) logger.warn('sns: SubscribeURL refused the confirmation', { status: res.status });
  return { confirmed: res.status === 200, status: res.status, ...(arn ? { subscriptionArn: arn } : {}) };
}
