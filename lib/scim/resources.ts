// Which SCIM resource a request's `{resource}` segment names (the routes share one route per method:
// lib/scim/routes.ts). Names compare without regard to case; anything else is SCIM's 404.
import { ScimError } from '../http/scim-errors';

export const RESOURCES = ['Users', 'Groups', 'ServiceProviderConfig', 'ResourceTypes', 'Schemas'] as const;
export type ScimResource = (typeof RESOURCES)[number];

export function resourceOf<Allowed extends ScimResource = ScimResource>(
  raw: string,
  allowed: readonly Allowed[] = RESOURCES as readonly ScimResource[] as readonly Allowed[],
): Allowed {
  const found = allowed.find((name) => name.toLowerCase() === raw.toLowerCase());
  if (!found) throw new ScimError(404, undefined, `No SCIM endpoint /${raw} here; there are /${allowed.join(', /')}`);
  return found;
}
