// The ingest worker's only outbound calls: fetching an SNS signing certificate (cached per URL) and
// confirming a subscription by fetching its SubscribeURL. Both only ever for URLs that passed the
// SNS host check (verify-signature.ts), never following a redirect (a 3xx is an answer like any
// other status). The HTTP client is replaceable (lib/dependencies.ts), so tests serve certificates
// from a local server (or a closed port) while the host checks still run.
//
// Three ways a fetch can end besides a 200, and they are kept apart because they decide differently:
//   SnsNetworkFailure       no HTTP answer at all (DNS, refused, reset, timeout): the host cannot be
//                           asked now; the caller decides (an unreachable certificate → unverified)
//   SnsUnavailable          the host answered 5xx or 429: try again later (the queue retries)
//   CertificateUnavailable  the host answered, but not with a certificate: no such certificate
import { dependencies, type HttpAnswer, type HttpGet } from '../../dependencies';
import { logger } from '../../log';

const TIMEOUT_MS = 5_000;
const MAX_CERTIFICATES = 64;
/** A certificate URL that could not be reached is not asked again for this long (no 5 s stall per message). */
const UNREACHABLE_RETRY_MS = 30_000;

const defaultHttp: HttpGet = async (url) => {
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: res.status, body: await res.text() };
};

type CertificateEntry = { pending: Promise<string>; unreachableUntil?: number };
type CertificateCache = Map<string, CertificateEntry>;

/** Certificates per HTTP client: a client put in place (a test's local server) starts with none. */
const certificateCaches = new WeakMap<HttpGet, CertificateCache>();

function http(): { get: HttpGet; certificates: CertificateCache } {
  const get = dependencies().snsHttp ?? defaultHttp;
  let certificates = certificateCaches.get(get);
  if (!certificates) certificateCaches.set(get, (certificates = new Map<string, CertificateEntry>()));
  return { get, certificates };
}

/** No HTTP answer at all: DNS failure, connection refused or reset, timeout. */
export class SnsNetworkFailure extends Error {
  override name = 'SnsNetworkFailure';
}

/** The host answered 5xx or 429: worth trying again later. */
export class SnsUnavailable extends Error {
  override name = 'SnsUnavailable';
}

/** SNS answered, but not with a certificate: the message names one that does not exist. */
export class CertificateUnavailable extends Error {
  override name = 'CertificateUnavailable';
}

/** The most specific cause a failed fetch gives (`ENOTFOUND`, `ECONNREFUSED`, `TimeoutError`, …). */
function networkCause(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? (cause.name === 'Error' ? cause.message : cause.name) : String(cause);
}

async function get(url: string): Promise<HttpAnswer> {
  let res: HttpAnswer;
  try {
    res = await http().get(url);
  } catch (error) {
    throw new SnsNetworkFailure(`${new URL(url).host} unreachable (${networkCause(error)})`);
  }
  if (res.status >= 500 || res.status === 429) throw new SnsUnavailable(`${new URL(url).host} answered ${res.status}`);
  return res;
}

/**
 * The PEM at a signing certificate URL, fetched once per process (SNS rotates them rarely). Rejects
 * with SnsNetworkFailure (remembered for 30 s), SnsUnavailable (try again later) or
 * CertificateUnavailable (no such certificate); only a network failure is remembered.
 */
export function signingCertificate(url: string, now = Date.now()): Promise<string> {
  const { certificates } = http();
  const cached = certificates.get(url);
  if (cached && (cached.unreachableUntil === undefined || cached.unreachableUntil > now)) return cached.pending;
  const entry: { pending: Promise<string>; unreachableUntil?: number } = {
    pending: get(url).then((res) => {
      if (res.status !== 200) throw new CertificateUnavailable(`the signing certificate could not be fetched (HTTP ${res.status})`);
      return res.body;
    }),
  };
  entry.pending.catch((error: unknown) => {
    if (error instanceof SnsNetworkFailure) entry.unreachableUntil = Date.now() + UNREACHABLE_RETRY_MS;
    else if (certificates.get(url) === entry) certificates.delete(url);
  });
  if (!cached && certificates.size >= MAX_CERTIFICATES) certificates.delete(certificates.keys().next().value!);
  certificates.set(url, entry);
  return entry.pending;
}

export interface Confirmation {
  confirmed: boolean;
  /** The HTTP status SNS answered with; absent when the SubscribeURL could not be reached. */
  status?: number;
  subscriptionArn?: string;
  /** Why it did not confirm: SNS's status, or the network failure. */
  problem?: string;
}

/**
 * Confirms a subscription: GET SubscribeURL; SNS answers with the subscription's ARN. A network
 * failure is an answer here, not an error: the attempt is recorded and the message is not retried
 * for it (SNS re-sends an unconfirmed subscription's confirmation itself). 5xx/429 reject
 * (SnsUnavailable), so the queue tries again.
 */
export async function confirmSubscription(subscribeUrl: string): Promise<Confirmation> {
  let res: HttpAnswer;
  try {
    res = await get(subscribeUrl);
  } catch (error) {
    if (!(error instanceof SnsNetworkFailure)) throw error;
    logger.warn('sns: SubscribeURL could not be reached; the subscription is not confirmed', { problem: error.message });
    return { confirmed: false, problem: error.message };
  }
  const arn = /<SubscriptionArn>([^<]+)<\/SubscriptionArn>/.exec(res.body)?.[1];
  if (res.status !== 200) logger.warn('sns: SubscribeURL refused the confirmation', { status: res.status });
  return {
    confirmed: res.status === 200,
    status: res.status,
    ...(arn ? { subscriptionArn: arn } : {}),
    ...(res.status === 200 ? {} : { problem: `SNS answered HTTP ${res.status}` }),
  };
}
