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

/** The smallest magnitude DynamoDB stores besides 0 (its numbers span 1e-130 to 1e126). */
const SMALLEST_STORED = 1e-130;

/**
 * Why a parsed number cannot be kept, or null: JSON text can say 1e400 (Infinity once parsed), and
 * numbers the store or its marshaller refuse (beyond ±2^53 − 1, or nearer to 0 than 1e-130) would
 * fail a write later, as a 500. Said without the field's name: "must be a finite number".
 */
export function numberProblem(value: number): string | null {
  if (!Number.isFinite(value)) return 'must be a finite number';
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) return `must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
  if (value !== 0 && Math.abs(value) < SMALLEST_STORED) return 'must be 0 or at least 1e-130 in size';
  return null;
}
