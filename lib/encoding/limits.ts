// Limits every parsed request body must respect before any code reads it, JSON or form-encoded,
// whether the API or the webhook pipeline parses it (lib/http/body-limits.ts checks JSON bodies,
// lib/encoding/form.ts applies them while it builds a form body).

/** Keys that address an object's prototype when assigned or merged; never kept from a body. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export const BODY_LIMITS = {
  /** Nesting of objects and arrays. */
  maxDepth: 32,
  /** Elements of one array (and the highest index a form key may name). */
  maxArrayLength: 1_000,
  /** Objects, arrays and values in the whole body. */
  maxNodes: 20_000,
} as const;
