// zod building blocks for request fields. Form-encoded bodies carry every value as a string, so
// booleans and numbers also accept their text forms ("true", "1", "30").
import * as z from 'zod';
import { lazySchema } from '../lazy-schema';
import { cleanJsonData, JSON_DATA_LIMITS, jsonDataProblem, type JsonDataLimits } from '../encoding/json-data';

export const boolish = lazySchema(() =>
  z.union([
    z.boolean(),
    z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
    z.literal(1).transform(() => true),
    z.literal(0).transform(() => false),
  ]),
);

export const intish = lazySchema(() =>
  z.union([
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/, 'must be an integer')
      .transform((v) => Number(v)),
  ]),
);

/** A list of ids; a single string is read as a list of one (form fields often arrive that way). */
export const idList = lazySchema(() =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1))),
);

export const trimmed = lazySchema(() => z.string().trim());
export const requiredText = lazySchema(() => z.string().trim().min(1));

/** Adds the first problem of a free-form value as plain JSON data (lib/encoding/json-data.ts) as an
 * issue at its place, so the message names the field ("meta.x must be a finite number"). */
export function refineJsonData(limits: Partial<JsonDataLimits> = {}) {
  const all = { ...JSON_DATA_LIMITS, ...limits };
  return (value: unknown, ctx: z.RefinementCtx) => {
    const problem = jsonDataProblem(value, all);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input: value });
  };
}

/**
 * A free-form object of plain JSON data (meta, options, sso, templates, …): finite numbers, at most
 * `maxDepth` levels, `maxKeys` keys per object, `maxBytes` as JSON; keys that could reach a
 * prototype are dropped. Anything else is a validation error naming the field.
 */
export function jsonData(limits: Partial<JsonDataLimits> = {}) {
  return z
    .record(z.string(), z.unknown())
    .superRefine(refineJsonData(limits))
    .transform((value) => cleanJsonData(value));
}

/** `meta` is a free-form object; `null` inside it means "unset this key" (lib/http/changes.ts). */
export const metaInput = lazySchema(() => jsonData());
