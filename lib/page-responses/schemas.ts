// What a one-click response answers a client that asks for JSON (respond-page.ts responseJson).
import * as z from 'zod';
import { lazyStrictObject } from '../lazy-schema';
import { ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

/** A one-click response (GET /public/respond/{token} with Accept: application/json; browsers get a page). */
export const ResponseJson = lazyStrictObject(() => ({
  status: z.union([z.literal(200), z.literal(404), z.literal(409), z.literal(410)]),
  title: z.string(),
  detail: z.string(),
  action: z.enum(['acknowledge', 'reject']).nullable(),
  alert: z.strictObject({ id: ulid, tiny_id: z.number().int(), title: z.string(), urgency: z.string(), status: z.string() }).nullable(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(ResponseJson, { id: 'ResponseView' });
