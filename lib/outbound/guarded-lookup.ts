// The DNS step of an outbound connection, with the SSRF guard inside it: the addresses checked are
// the addresses the socket connects to, so a name that resolves to a public address when checked
// and to a private one when connecting (DNS rebinding) has no gap to slip through. A name with any
// forbidden address is refused whole.
import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { forbiddenReason } from './address-guard';
import { OutboundTargetRefused } from './errors';

export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname, family) => dns.promises.lookup(hostname, { all: true, family, verbatim: true });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export interface GuardedLookupOptions {
  allowPrivate: boolean;
  resolve: Resolver;
  /** Told every address a name resolved to (for the run's log). */
  onResolved?: (hostname: string, addresses: LookupAddress[]) => void;
}

export function guardedLookup(options: GuardedLookupOptions) {
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
    options.resolve(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          callback(error, []);
          return;
        }
        if (!options.allowPrivate) {
          for (const { address } of addresses) {
            const reason = forbiddenReason(address);
            if (reason) {
              callback(new OutboundTargetRefused(hostname, address, reason), []);
              return;
            }
          }
        }
        options.onResolved?.(hostname, addresses);
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
