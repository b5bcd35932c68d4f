// Input schema of logs (api-earlier.md "Log": POST /log {content, owner_id, source_id}).
import * as z from 'zod';
import { lazyObject, lazyStrictObject } from '../lazy-schema';
import { intish, jsonData, requiredText } from '../http/fields';
import { instant, jsonObject, prefixIdOf, tinyId } from '../http/response-fields';
import { documentNames } from '../http/document-names';

export const createLogInput = lazyObject(() => ({
  content: requiredText,
  owner_id: requiredText,
  source_id: requiredText,
  type: z.string().trim().min(1).optional(),
  subtype: z.enum(['INCOMING', 'OUTGOING']).nullable().optional(),
  level: intish.optional(),
  meta: jsonData().optional(),
}));

// ---- representations: what represent.ts returns, and the document shows ----

export const LogEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('log'),
  tinyId: tinyId.nullable(),
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  content: z.string(),
  type: z.string(),
  subtype: z.enum(['INCOMING', 'OUTGOING']).nullable(),
  owner_id: z.string(),
  source_id: z.string(),
  level: z.number(),
  data: jsonObject,
  status: z.enum(['pending', 'processed', 'ignored', 'failed']).optional(),
  reason: z.string().optional(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createLogInput, { id: 'LogCreateEarlierInput' });
documentNames.add(LogEarlier, { id: 'LogEarlier' });
