// Every call to an identity provider (its discovery document, its keys, its token endpoint) goes
// through the guarded outbound client (lib/outbound): a host name is resolved and every address it
// resolves to is checked at connect time, so a loopback, private or link-local target (the cloud
// metadata address among them) is refused unless the deployment sets ALLOW_INSECURE_SSO_ISSUER, which
// also lets plain http through. Answers are JSON objects, read up to a bound.
import { config } from '../config';
import { OutboundRequestInvalid, OutboundTargetRefused, sendOutbound, type OutboundRequest } from '../outbound';

const MAX_ANSWER_BYTES = 256 * 1024;
const TIMEOUT_MS = 8_000;

/** A call that gave no usable answer; the message says why, without secrets. */
export class IssuerCallFailed extends Error {
  constructor(
    message: string,
    /** The provider's OAuth error body, when it answered one. */
    readonly answer: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export const insecureIssuersAllowed = () => config().ALLOW_INSECURE_SSO_ISSUER;

/** Why a provider URL may not be used, or null: https only, unless insecure issuers are allowed. */
export function refusedScheme(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && insecureIssuersAllowed()) return null;
  return `${url.protocol.replace(/:$/, '')} is not allowed: the issuer must be served over https`;
}

/** The JSON object a provider answers with 2xx; IssuerCallFailed for anything else. */
export async function callIssuer(request: OutboundRequest): Promise<Record<string, unknown>> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new IssuerCallFailed(`${request.url} is not a URL`);
  }
  const scheme = refusedScheme(url);
  if (scheme) throw new IssuerCallFailed(scheme);
  let result;
  try {
    result = await sendOutbound(
      { ...request, headers: { accept: 'application/json', ...request.headers } },
      { allowPrivateTargets: insecureIssuersAllowed(), maxExcerptBytes: MAX_ANSWER_BYTES, timeoutMs: TIMEOUT_MS, maxRedirects: 0 },
    );
  } catch (error) {
    if (error instanceof OutboundTargetRefused) {
      throw new IssuerCallFailed(
        `${error.host} is refused: ${error.address === error.host ? '' : `it resolves to ${error.address}, `}${error.reason}`,
      );
    }
    if (error instanceof OutboundRequestInvalid) throw new IssuerCallFailed(error.message);
    throw error;
  }
  if (result.error && result.status === null) throw new IssuerCallFailed(`${url.host} did not answer (${result.error.message})`);
  if (result.truncated) throw new IssuerCallFailed(`${url.host} answered more than ${MAX_ANSWER_BYTES / 1024} KiB`);
  let body: unknown;
  try {
    body = JSON.parse(result.excerpt);
  } catch {
    body = null;
  }
  const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const status = result.status ?? 0;
  if (status < 200 || status > 299) {
    const code = typeof object?.error === 'string' ? `: ${object.error}` : '';
    throw new IssuerCallFailed(`${url.host} answered HTTP ${status}${code}`, object);
  }
  if (!object) throw new IssuerCallFailed(`${url.host} did not answer a JSON object`);
  return object;
}
