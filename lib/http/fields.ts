// zod building blocks for request fields. Form-encoded bodies carry every value as a string, so
// booleans and numbers also accept their text forms ("true", "1", "30").
import * as z from 'zod';

export const boolish = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
]);

export const intish = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform((v) => Number(v)),
]);

/** A list of ids; a single string is read as a list of one (form fields often arrive that way). */
export const idList = z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string().trim().min(1)));

export const trimmed = z.string().trim();
export const requiredText = z.string().trim().min(1);

/** `meta` is a free-form object; `null` inside it means "unset this key" (lib/http/changes.ts). */
export const metaInput = z.record(z.string(), z.unknown());
