// Input schema of API keys (docs/api.md#authentication).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { instant, prefixIdOf, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

export const createApiKeyInput = lazyObject(() => ({
  name: z.string().trim().min(1),
  account_user_id: z.string().trim().min(1).optional(),
}));

// ---- representations: what represent.ts returns, and the document shows ----

export const ApiKeyV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('apiKey'),
  name: z.string(),
  account_id: ulid,
  account_user_id: ulid,
  created_at: instant,
  updated_at: instant,
}));

/** The answer to a create: the only time the token (the secret) is shown. */
export const ApiKeyCreatedV4 = lazySchema(() => ApiKeyV4.extend({ token: z.string().min(1) }));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createApiKeyInput, { id: 'ApiKeyCreateInput' });
documentNames.add(ApiKeyV4, { id: 'ApiKeyV4' });
documentNames.add(ApiKeyCreatedV4, { id: 'ApiKeyCreatedV4' });
