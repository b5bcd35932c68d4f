// Reference filters of a list (`schedule_id=…`, `member_account_user_ids=…`) in the id form the
// representation shows, whatever form the client sent (docs/api.md#ids: ULID or prefix id).
import { parseId, prefixId, type EntityKind } from '../ids';

/** v4 shows references as ULIDs: a prefix id in a filter is read as its ULID. */
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
