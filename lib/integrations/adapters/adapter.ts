// What every sender's adapter provides: which body formats its sender uses, and the mapping of one
// (unwrapped) payload to actions. Parsing, wrapper_key and capture_additional_data live in index.ts.
import type { AdapterAction, Urgency } from './types';

export interface AdaptContext {
  /** The integration's default urgency. */
  urgency: Urgency;
  /** Deterministic thirdparty id for a create that names none: reprocessing the log gives the same id. */
  fallbackId: string;
  headers: Record<string, string>;
  /** The drop-in route the request came through (AdapterInput.route). */
  route?: { path: string; query: string };
}

export interface PayloadAdapter {
  /** Body formats besides JSON that the sender uses. */
  accepts: { form: boolean; text: boolean };
  /** One payload (an element when the body, after wrapper_key, is an array) → its actions. */
  adapt(payload: unknown, ctx: AdaptContext): AdapterAction[];
  /** A plain-text body; only senders that post text have it. */
  adaptText?(text: string, ctx: AdaptContext): AdapterAction[];
  /** The fields capture_additional_data records (default: the payload's own top-level fields). */
  capturedFields?(payload: unknown): Record<string, unknown> | undefined;
}

export function ignore(reason: string, details?: Record<string, unknown>): AdapterAction {
  return details ? { action: 'ignore', reason, details } : { action: 'ignore', reason };
}
