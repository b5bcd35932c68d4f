// What a one-click response answers a client that asks for JSON (respond-page.ts responseJson). Written
// with zod/mini: the respond function validates nothing with zod, and this schema, which only the
// OpenAPI document and the tests read, would otherwise load zod's classic API at its start (~75 KiB:
// the one-click answer is the 3 a.m. path). The document shows it as it showed the classic one.
import * as z from 'zod/mini';
import { ULID_PATTERN } from '../ids';
import { lazySchema } from '../lazy-schema';
import { documentNames } from '../http/document-names';

/** A one-click response (GET /public/respond/{token} with Accept: application/json; browsers get a page). */
export const ResponseJson = lazySchema(() =>
  z.strictObject({
    status: z.union([z.literal(200), z.literal(404), z.literal(409), z.literal(410)]),
    title: z.string(),
    detail: z.string(),
    action: z.nullable(z.enum(['acknowledge', 'reject'])),
    alert: z.nullable(
      z.strictObject({
        id: z.string().check(z.regex(new RegExp(`^${ULID_PATTERN}$`))),
        tiny_id: z.int(),
        title: z.string(),
        urgency: z.string(),
        status: z.string(),
      }),
    ),
  }),
);

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(ResponseJson, { id: 'ResponseView' });
