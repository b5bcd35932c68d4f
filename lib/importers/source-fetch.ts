// The one way an importer's reader calls its source: a GET through the guarded outbound client
// (lib/outbound), so that an api_url an account admin typed in the console cannot reach the
// function's own network even when its name resolves elsewhere by the time the reader connects
// (the console's check of the URL, source-address.ts, runs once before; the guard checks every
// address each connection uses). No redirects (a URL the key is sent to must stay the one checked),
// one deadline per request, the whole answer read (up to a bound far above a page of any source).
import { sendOutbound, type Resolver } from '../outbound';

const MAX_ANSWER_BYTES = 32 * 2 ** 20;

export interface SourceFetchOptions {
  /** Private, loopback and link-local addresses allowed: the operator's CLI, tests, a console with ALLOW_PRIVATE_IMPORT_SOURCES. */
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  /** How host names are resolved (tests replace it). */
  resolve?: Resolver;
}

export interface SourceAnswer {
  status: number;
  text: string;
  /** A response header (lower-case name). */
  header(name: string): string | undefined;
}

/** Nothing usable answered: no connection, no complete answer in time, a redirect, an answer past the bound. */
export class SourceUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`GET ${url} failed: ${reason}`);
    this.name = 'SourceUnreachable';
  }
}

/** GETs `url` with `headers`; throws SourceUnreachable, or OutboundTargetRefused for an address the guard refuses. */
export async function sourceGet(url: string, headers: Record<string, string>, options: SourceFetchOptions): Promise<SourceAnswer> {
  const result = await sendOutbound(
    { url, method: 'GET', headers },
    {
      allowPrivateTargets: options.allowPrivateAddresses,
      timeoutMs: options.timeoutMs,
      maxRedirects: 0,
      maxExcerptBytes: MAX_ANSWER_BYTES,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    },
  );
  if (result.error) {
    const reason =
      result.error.code === 'too_many_redirects' || result.error.code === 'redirect_refused' ? 'it redirects' : result.error.message;
    throw new SourceUnreachable(url, reason);
  }
  if (result.status === null) throw new SourceUnreachable(url, 'no answer');
  if (result.status >= 300 && result.status < 400) throw new SourceUnreachable(url, `it redirects (${result.status})`);
  if (result.truncated) throw new SourceUnreachable(url, `its answer is over ${MAX_ANSWER_BYTES / 2 ** 20} MiB`);
  return { status: result.status, text: result.excerpt, header: (name) => result.headers[name.toLowerCase()] };
}
