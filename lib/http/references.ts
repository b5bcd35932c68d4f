// Checks that ids sent in a request name objects of the caller's account. An id of the wrong form
// or of an absent object is a validation error naming the field (docs/api.md#errors: 422 / 400).
import type { StoredKind } from '../entities';
import { parseId } from '../ids';
import { existing } from '../store/entity-store';
import { Invalid } from './errors';

export interface ReferenceCheck {
  field: string;
  kind: StoredKind;
  ids: readonly string[] | undefined | null;
}

/** Each check's ids resolved to ULIDs (order kept, duplicates dropped) and a message per bad id. */
export async function checkReferences(accountId: string, checks: ReferenceCheck[]): Promise<{ resolved: string[][]; messages: string[] }> {
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
  const wanted = checks.flatMap((check, i) => resolved[i].map((id) => [check.kind, id] as const));
  const found = await existing(accountId, wanted);
  let at = 0;
  checks.forEach((check, i) => {
    for (const id of resolved[i]) {
      if (!found[at++]) messages.push(`${check.field} contains an unknown ${check.kind}: ${id}`);
    }
  });
  return { resolved, messages };
}

/** Resolves every reference to its ULID, or throws Invalid naming each bad field. */
export async function resolveReferences(accountId: string, checks: ReferenceCheck[]): Promise<string[][]> {
  const { resolved, messages } = await checkReferences(accountId, checks);
  if (messages.length > 0) throw new Invalid(messages);
  return resolved;
}
