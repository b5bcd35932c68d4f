// Counts kept in several counter items of an account (docs/ARCHITECTURE.md, "Write budget per alert
// life"): a field whose count is the sum of the same field in a group of counter items, so that a
// piece of work whose counts are held back (deferred-counts.ts) adds it to whichever item of the group
// it writes anyway instead of writing one more. An alert's timeline entries (`timeline_logs`) are
// counted in the alert counter item; routing and an escalation step, which move no status, write the
// notifications' counter item for their pages and put their entries' count there. The recount
// (recount.ts) compares the sum and corrects the primary item's own field; readers add the group up.
import type { EntityType } from '../entities';
import { sumDeltas, isZeroDelta, type CountDelta } from './count-delta';

/** Primary counter type → field → the other counter types that may keep part of its count. */
const SPREAD = new Map<EntityType, Map<string, EntityType[]>>();
/** Counter type → its fields that are a part of another type's spread field. */
const PARTS = new Map<EntityType, Set<string>>();

/**
 * `field` of `type`'s counter item may be kept in part in the same field of `alsoIn`'s items: the
 * count is their sum. Writers add to `type`'s; held-back counts are placed by placeSpreadFields.
 */
export function registerSpreadField(type: EntityType, field: string, alsoIn: EntityType[]): void {
  if (!SPREAD.has(type)) SPREAD.set(type, new Map());
  SPREAD.get(type)!.set(field, alsoIn);
  for (const other of alsoIn) {
    if (!PARTS.has(other)) PARTS.set(other, new Set());
    PARTS.get(other)!.add(field);
  }
}

/** The spread fields whose primary item is `type`'s, with the other types of each. */
export const spreadFieldsOf = (type: EntityType): Array<[string, EntityType[]]> => [...(SPREAD.get(type) ?? [])];

/** The fields of `type`'s item that are a part of another item's spread field. */
export const spreadPartsOf = (type: EntityType): ReadonlySet<string> => PARTS.get(type) ?? new Set();

const COUNTER_PARTITION = /^A#(.+)#COUNT$/;
const SEPARATOR = '\u0000';

/**
 * In the counts one piece of work held back (counter item `<pk>\0<sk>` → field → delta), moves each
 * spread field's delta to one item of its group that the work writes anyway (a field other than the
 * spread one moves there): the primary when it is, else the first other that is; when none is, the
 * primary. So a routing or an escalation step that moves no alert count writes no alert counter item
 * for its timeline entries. Changes `sums` in place.
 */
export function placeSpreadFields(sums: Map<string, Record<string, CountDelta>>): void {
  if (SPREAD.size === 0) return;
  for (const id of [...sums.keys()]) {
    const [pk, sk] = id.split(SEPARATOR);
    if (!COUNTER_PARTITION.test(pk)) continue;
    for (const [field, alsoIn] of SPREAD.get(sk as EntityType) ?? []) {
      const group = [sk, ...alsoIn].map((type) => `${pk}${SEPARATOR}${type}`);
      let total: CountDelta | undefined;
      for (const member of group) {
        const delta = sums.get(member)?.[field];
        if (delta === undefined) continue;
        total = sumDeltas(total, delta);
        delete sums.get(member)![field];
      }
      if (total === undefined) continue;
      const writtenAnyway = group.find((member) => Object.values(sums.get(member) ?? {}).some((delta) => !isZeroDelta(delta)));
      const target = writtenAnyway ?? id;
      sums.set(target, { ...(sums.get(target) ?? {}), [field]: total });
    }
  }
}
