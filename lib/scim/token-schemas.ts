// Input and representation schemas of SCIM tokens (docs/api.md#scim-provisioning).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';
import { instant, prefixIdOf, ulid } from '../http/response-fields';

export const createScimTokenInput = lazyObject(() => ({
  name: z.string().trim().min(1).max(200),
}));

// ---- representations: what represent.ts returns, and the document shows ----

export const ScimTokenV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('scimToken'),
  name: z.string(),
  account_id: ulid,
  created_by: ulid,
  created_at: instant,
  updated_at: instant,
}));

/** The answer to a create: the only time the token (the secret) is shown, with where to use it. */
export const ScimTokenCreatedV4 = lazySchema(() => ScimTokenV4.extend({ token: z.string().min(1), scim_base_url: z.string() }));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createScimTokenInput, { id: 'ScimTokenCreateInput' });
documentNames.add(ScimTokenV4, { id: 'ScimTokenV4' });
documentNames.add(ScimTokenCreatedV4, { id: 'ScimTokenCreatedV4' });
