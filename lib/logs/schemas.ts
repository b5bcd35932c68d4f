// Input schema of logs (api-earlier.md "Log": POST /log {content, owner_id, source_id}).
import * as z from 'zod';
import { intish, jsonData, requiredText } from '../http/fields';

export const createLogInput = z.object({
  content: requiredText,
  owner_id: requiredText,
  source_id: requiredText,
  type: z.string().trim().min(1).optional(),
  subtype: z.enum(['INCOMING', 'OUTGOING']).nullable().optional(),
  level: intish.optional(),
  meta: jsonData().optional(),
});
