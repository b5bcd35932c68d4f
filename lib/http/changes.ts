// How a partial update applies its input (contract §4): fields not sent stay as they are, and inside
// a free-form object (meta, options) a key sent as null is removed.

/** The fields that were sent (undefined ones dropped). */
export function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Applies key changes to a free-form object: a key set to null (or undefined) is removed, others set;
 * no changes (null or undefined) leave it as it is. */
export function mergeKeys(current: Record<string, unknown>, changes: Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (!changes) return current;
  const next = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** A free-form object as created: keys sent as null are not kept. */
export function withoutNulls(value: Record<string, unknown> | undefined): Record<string, unknown> {
  return mergeKeys({}, value);
}
