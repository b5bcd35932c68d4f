// POST /log {content, owner_id, source_id} (api-earlier.md): a log attached to an object of the
// account. owner_id and source_id are prefix ids of objects that exist in the caller's account.
import { getAccountUserOfUser } from '../account-users/store';
import { ENTITIES, type EntityKind, type StoredKind } from '../entities';
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newId, parsePrefixedId, prefixId } from '../ids';
import { existing } from '../store/entity-store';
import type { LogRecord } from './records';
import { createLogInput } from './schemas';
import { insertNewLog } from './store';
import { nowIso } from '../clock';

/** API keys are credentials, not objects a log can be about. */
const NOT_REFERENCED: ReadonlySet<EntityKind> = new Set(['apiKey']);

/** Kinds whose objects live in the account's partitions (users are checked through their account user). */
function storedKind(kind: EntityKind): StoredKind | null {
  return 'type' in ENTITIES[kind] && !NOT_REFERENCED.has(kind) ? (kind as StoredKind) : null;
}

/** Checks that each reference names an object of the account; returns them as canonical prefix ids. */
async function checkReferences(principal: Principal, refs: { field: string; value: string }[]): Promise<string[]> {
  const messages: string[] = [];
  const parsed = refs.map((ref) => ({ ...ref, id: parsePrefixedId(ref.value.trim()) }));
  const wanted = parsed.flatMap((ref) => {
    const kind = ref.id ? storedKind(ref.id.kind) : null;
    return kind ? [[kind, ref.id!.id] as const] : [];
  });
  const found = new Map(wanted.map(([kind, id], i) => [`${kind}|${id}`, i]));
  const exists = await existing(principal.accountId, wanted);
  await Promise.all(
    parsed.map(async (ref) => {
      if (!ref.id) return messages.push(`${ref.field} must be a prefix id (such as alt_…): ${ref.value}`);
      const { kind, id } = ref.id;
      if (kind === 'account') {
        if (id !== principal.accountId) messages.push(`${ref.field} names an unknown account: ${ref.value}`);
        return;
      }
      if (kind === 'user') {
        if (!(await getAccountUserOfUser(id, principal.accountId))) messages.push(`${ref.field} names an unknown user: ${ref.value}`);
        return;
      }
      const stored = storedKind(kind);
      if (!stored) return messages.push(`${ref.field} names a kind of object that cannot be referenced here: ${ref.value}`);
      if (!exists[found.get(`${stored}|${id}`)!]) {
        messages.push(`${ref.field} names an unknown ${kind}: ${ref.value}`);
      }
    }),
  );
  if (messages.length > 0) throw new Invalid(messages);
  return parsed.map((ref) => prefixId(ref.id!.kind, ref.id!.id));
}

export async function createLog(principal: Principal, body: unknown): Promise<LogRecord> {
  const input = parseInput(createLogInput, body);
  const [ownerId, sourceId] = await checkReferences(principal, [
    { field: 'owner_id', value: input.owner_id },
    { field: 'source_id', value: input.source_id },
  ]);
  const now = nowIso();
  const log: LogRecord = {
    id: newId(),
    account_id: principal.accountId,
    type: input.type ?? 'note',
    subtype: input.subtype ?? null,
    content: input.content,
    owner_id: ownerId,
    source_id: sourceId,
    level: input.level ?? 1,
    meta: input.meta ?? {},
    data: { created_by: prefixId('user', principal.userId) },
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertNewLog(log);
  return log;
}
