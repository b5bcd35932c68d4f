// Where an import started from the console may read its source. The admin CLI is run by an operator;
// the console's api_url is typed by an account admin, and the import runs inside our function: it
// must not reach the function's own network (loopback: the Lambda runtime API; private and
// link-local ranges), and the key must not travel in clear text.
import { lookup } from 'node:dns/promises';
import { forbiddenReason } from '../outbound';

/** Why the source at `url` may not be called, or null. `allowPrivate`: local tests and development. */
export async function refusedSource(url: URL, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  if (url.protocol !== 'https:') return 'must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = forbiddenReason(host) === 'not an IP address' ? (await lookup(host, { all: true })).map((a) => a.address) : [host];
  } catch {
    return `names a host that does not resolve: ${url.hostname}`;
  }
  for (const address of addresses) {
    const reason = forbiddenReason(address);
    if (reason) return `may not name ${url.hostname}: ${address} is ${reason}`;
  }
  return null;
}
