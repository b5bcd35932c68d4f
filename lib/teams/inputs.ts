// Small input pieces shared by teams, schedules, events and escalation policies.
import * as z from 'zod';
import { parseId, prefixId, type EntityKind } from '../ids';

/** `meta` is a free-form object; `null` inside it means "unset this key" (contract §4). */
export const metaInput = z.record(z.string(), z.unknown());

export function mergeMeta(current: Record<string, unknown>, changes: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!changes) return current;
  const next = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/**
 * Reference filters of a list are compared with the ULIDs the v4 representation holds; a client may
 * name the object by its prefix id as well (contract §2), so those values are read as ULIDs first.
 */
export function normalizeIdFilters(params: URLSearchParams, fields: Record<string, EntityKind>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    const kind = fields[name];
    out.append(name, kind ? (parseId(kind, value) ?? value) : value);
  }
  return out;
}

/** The earlier interface shows references as prefix ids; a bare ULID in a filter is read as one. */
export function prefixIdFilters(params: URLSearchParams, fields: Record<string, EntityKind>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    const kind = fields[name];
    const id = kind ? parseId(kind, value) : null;
    out.append(name, kind && id ? prefixId(kind, id) : value);
  }
  return out;
}
