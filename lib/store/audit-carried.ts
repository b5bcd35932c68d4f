// What every store needs of the audit trail at start: the records read without the event an audited
// write carries (audit-pending.ts), and the audited write steps, whose code
// (lib/store/audit-trail.ts) loads with the first audited write: the queue workers and the sweeper
// write no audited kind, and their bundles stay within their budget (test/infra/bundles.test.ts).
import type { AuditTarget, PreparedEvent } from './audit-trail';
import type { Item, Key } from './items';
import { loadOnce } from '../load-once';

export type { AuditTarget, PreparedEvent };

export { withoutCarried } from './audit-pending';

const trail = /* @__PURE__ */ loadOnce(() => import('./audit-trail'));

/** A create's event, added to the item its conditional put writes; `finishEvent` after the put. */
export async function prepareCreate(objectKey: Key, item: Item, target: AuditTarget): Promise<PreparedEvent> {
  return (await trail()).prepareCreate(objectKey, item, target);
}

/** An update's event, added to the item its versioned put writes (null when no field changes). */
export async function prepareUpdate(objectKey: Key, item: Item, target: AuditTarget): Promise<PreparedEvent | null> {
  return (await trail()).prepareUpdate(objectKey, item, target);
}

/** After the write that carried it: the event moved to its own item. */
export async function finishEvent(prepared: PreparedEvent | null): Promise<void> {
  if (prepared) await (await trail()).finishEvent(prepared);
}

/** A delete with its event: written before it, settled after it. */
export async function auditedDelete(objectKey: Key, target: AuditTarget, remove: () => Promise<Item | null>): Promise<Item | null> {
  return (await trail()).auditedDelete(objectKey, target, remove);
}
