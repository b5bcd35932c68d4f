// The building blocks of the response schemas (each area's schemas.ts): ids, datetimes, the list
// envelope and the error bodies of both interfaces. Objects are strict: a field a serializer adds
// without its schema fails to compile (represent.ts returns z.input of its schema) and fails the
// real responses' check against the document (test/openapi).
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import { PREFIXES, ULID_PATTERN, type EntityKind } from '../ids';
import { documentNames } from './document-names';

export const ulid = lazySchema(() => z.string().regex(new RegExp(`^${ULID_PATTERN}$`)));

/** `<prefix>_<ULID>` of one kind, or of any of several kinds (mixed reference lists). */
export function prefixIdOf(...kinds: EntityKind[]) {
  const prefixes = kinds.map((kind) => PREFIXES[kind]);
  const alternatives = prefixes.length === 1 ? prefixes[0] : `(?:${prefixes.join('|')})`;
  return z.string().regex(new RegExp(`^${alternatives}_${ULID_PATTERN}$`));
}

/** v4 datetimes: ISO 8601 in UTC with milliseconds (`2026-11-22T09:00:00.000Z`); the document adds format date-time. */
export const instant = lazySchema(() => z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/));

/** The earlier interface's timestamps other than createdAt/updatedAt: Unix seconds. */
export const unixSeconds = lazySchema(() => z.number().int());

/** A free-form JSON object (meta, options, data). */
export const jsonObject = lazySchema(() => z.record(z.string(), z.unknown()));
export const count = lazySchema(() => z.number().int().min(0));
export const tinyId = lazySchema(() => z.number().int().min(1));

/** What a sender said beyond title and description (adapters keep it, capped in size): labelled values. */
export const additionalData = lazySchema(() => z.array(z.strictObject({ type: z.string(), label: z.string(), value: z.unknown() })));

const errorMessages = lazySchema(() => z.array(z.strictObject({ message: z.string() })).min(1));

/** Every error under /api/v4: the messages plus the status as `code`. */
export const ErrorV4 = lazyStrictObject(() => ({ code: z.number().int().min(400).max(599), errors: errorMessages }));
documentNames.add(ErrorV4, { id: 'ErrorV4' });

/** Every error of the earlier interface (and of the public and inbound routes). */
export const ErrorEarlier = lazyStrictObject(() => ({ errors: errorMessages }));
documentNames.add(ErrorEarlier, { id: 'ErrorEarlier' });

/** The list envelope of both interfaces. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), has_more: z.boolean(), total_count: count });
}
