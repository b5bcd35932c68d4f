// Checks that ids sent in a request name objects of the caller's account. An id of the wrong form
// or of an absent object is a validation error naming the field (contract §4: 422 / 400).
import { Invalid } from '../http/errors';
import { parseId, type EntityKind } from '../ids';
import { batchGet, entityKey, keyString, type EntityType } from './items';

export interface ReferenceCheck {
  field: string;
  kind: EntityKind;
  type: EntityType;
  ids: readonly string[] | undefined | null;
}

/** Resolves every reference to its ULID (order kept, duplicates dropped), or throws naming each bad field. */
export async function resolveReferences(accountId: string, checks: ReferenceCheck[]): Promise<string[][]> {
  const messages: string[] = [];
  const resolved = checks.map((check) => {
    const ids: string[] = [];
    for (const raw of check.ids ?? []) {
      const id = parseId(check.kind, raw);
      if (!id) messages.push(`${check.field} contains an id that is not a ${check.kind}: ${raw}`);
      else if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  });
  const keys = checks.flatMap((check, i) => resolved[i].map((id) => entityKey(accountId, check.type, id)));
  if (keys.length > 0) {
    const found = await batchGet(keys);
    checks.forEach((check, i) => {
      for (const id of resolved[i]) {
        if (!found.has(keyString(entityKey(accountId, check.type, id)))) {
          messages.push(`${check.field} contains an unknown ${check.kind}: ${id}`);
        }
      }
    });
  }
  if (messages.length > 0) throw new Invalid(messages);
  return resolved;
}
