// POST /api/v4/imports (docs/api.md#imports): what the console sends, and the report it answers.
import * as z from 'zod';
import { documentNames } from '../http/document-names';
import { boolish } from '../http/fields';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';

export const IMPORT_SOURCE_NAMES = ['opsgenie', 'pagerduty', 'grafana-oncall'] as const;

export const runImportInput = lazyObject(() => ({
  source: z.enum(IMPORT_SOURCE_NAMES),
  /** Used for this run only: never stored, logged or answered. */
  api_key: z.string().trim().min(1).max(512),
  api_url: z
    .string()
    .trim()
    .max(2048)
    .pipe(z.url({ protocol: /^https?$/ }))
    .optional(),
  dry_run: boolish.optional(),
  from: z.string().trim().min(1).max(64).optional(),
}));

const planAction = lazySchema(() => z.enum(['create', 'update', 'keep', 'delete', 'link']));

export const ImportReportV4 = lazyStrictObject(() => ({
  source: z.enum(IMPORT_SOURCE_NAMES),
  dry_run: z.boolean(),
  /** Every schedule's on-call here matches the source's over the proof's window. */
  proven: z.boolean(),
  plan: z.array(
    z.strictObject({
      action: planAction,
      kind: z.string(),
      source_id: z.string(),
      name: z.string(),
      our_id: z.string().nullable(),
      detail: z.string().optional(),
    }),
  ),
  unsupported: z.array(z.strictObject({ kind: z.string(), source_id: z.string(), name: z.string(), reason: z.string() })),
  integrations: z.array(z.strictObject({ name: z.string(), old_address: z.string().nullable(), new_address: z.string().nullable() })),
  /** Source user id → our account user id (placeholders in a dry run for people to be made). */
  people: z.array(z.strictObject({ source_id: z.string(), name: z.string(), account_user_id: z.string() })),
  proofs: z.array(
    z.strictObject({
      schedule_source_id: z.string(),
      name: z.string(),
      from: z.string(),
      to: z.string(),
      hand_offs: z.number().int(),
      differences: z.array(
        z.strictObject({
          start: z.string(),
          end: z.string(),
          /** Names of the people on call here, and at the source. */
          ours: z.array(z.string()),
          theirs: z.array(z.string()),
        }),
      ),
    }),
  ),
}));

documentNames.add(runImportInput, { id: 'ImportInput' });
documentNames.add(ImportReportV4, { id: 'ImportReportV4' });
