// Input schemas of automations (api-earlier.md: name and settings required on create).
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { boolish, metaInput, requiredText } from '../http/fields';
import { instant, jsonObject, prefixIdOf } from '../http/response-fields';
import { documentNames } from '../http/document-names';

export const createAutomationInput = lazyObject(() => ({
  name: requiredText,
  settings: z.string(),
  enabled: boolish.optional(),
  meta: metaInput.optional(),
}));

export const updateAutomationInput = lazySchema(() => createAutomationInput.partial());

// ---- representations: what represent.ts returns, and the document shows ----

export const AutomationEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('automation'),
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  name: z.string(),
  enabled: z.boolean(),
  settings: z.string(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createAutomationInput, { id: 'AutomationCreateEarlierInput' });
documentNames.add(updateAutomationInput, { id: 'AutomationUpdateEarlierInput' });
documentNames.add(AutomationEarlier, { id: 'AutomationEarlier' });
