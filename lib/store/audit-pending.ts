// The attribute an audited object's write carries its event in (lib/store/audit-trail.ts), which no
// store's record shows.
import type { Item } from './items';

export const PENDING_ATTRIBUTE = 'audit_pending';

/** The item as the object's store sees it: without the carried event. */
export function withoutCarried(item: Item): Item {
  if (!(PENDING_ATTRIBUTE in item)) return item;
  const copy = { ...item };
  delete copy[PENDING_ATTRIBUTE];
  return copy;
}
