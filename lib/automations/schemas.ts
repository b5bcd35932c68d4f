// Input schemas of automations (api-earlier.md: name and settings required on create).
import * as z from 'zod';
import { boolish, metaInput, requiredText } from '../http/fields';

export const createAutomationInput = z.object({
  name: requiredText,
  settings: z.string(),
  enabled: boolish.optional(),
  meta: metaInput.optional(),
});

export const updateAutomationInput = createAutomationInput.partial();
