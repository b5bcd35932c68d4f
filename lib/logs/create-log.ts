// POST /log {content, owner_id, source_id} (api-earlier.md): a log attached to an object of the
// account. owner_id and source_id are prefix ids of objects that exist in the caller's account.
import * as z from 'zod';
import { accountUserOfUserInAccount } from '../account-users/store';
import type { Principal } from '../auth/principal';
import { Invalid } from '../http/errors';
import { intish, requiredText } from '../http/fields';
import { parseInput } from '../http/validate';
import { newId, parsePrefixedId, prefixId, type EntityKind } from '../ids';
import { batchGet, entityKey, ENTITY_TYPES, keyString, type EntityType } from '../store/items';
import type { LogRecord } from './records';
import { insertFreshLog } from './store';

const createLogInput = z.object({
  content: requiredText,
  owner_id: requiredText,
  source_id: requiredText,
  type: z.string().trim().min(1).optional(),
  subtype: z.enum(['INCOMING', 'OUTGOING']).nullable().optional(),
  level: intish.optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** Kinds whose objects live in the account's partitions (users are checked through their account user). */
const STORED: Partial<Record<EntityKind, EntityType>> = {
  alert: ENTITY_TYPES.alert,
  automation: ENTITY_TYPES.automation,
  event: ENTITY_TYPES.event,
  integration: ENTITY_TYPES.integration,
  log: ENTITY_TYPES.log,
  notification: ENTITY_TYPES.notification,
  router: ENTITY_TYPES.router,
  schedule: ENTITY_TYPES.schedule,
  team: ENTITY_TYPES.team,
  workflow: ENTITY_TYPES.workflow,
  accountUser: ENTITY_TYPES.accountUser,
  broadcast: ENTITY_TYPES.broadcast,
  maintenanceWindow: ENTITY_TYPES.maintenanceWindow,
  escalationPolicy: ENTITY_TYPES.escalationPolicy,
  notificationRule: ENTITY_TYPES.notificationRule,
  comment: ENTITY_TYPES.comment,
};

/** Checks that each reference names an object of the account; returns them as canonical prefix ids. */
async function checkReferences(principal: Principal, refs: { field: string; value: string }[]): Promise<string[]> {
  const messages: string[] = [];
  const parsed = refs.map((ref) => ({ ...ref, id: parsePrefixedId(ref.value.trim()) }));
  const keys = parsed.flatMap((ref) => {
    const type = ref.id ? STORED[ref.id.kind] : undefined;
    return type ? [entityKey(principal.accountId, type, ref.id!.id)] : [];
  });
  const found = keys.length > 0 ? await batchGet(keys) : new Map();
  await Promise.all(
    parsed.map(async (ref) => {
      if (!ref.id) return messages.push(`${ref.field} must be a prefix id (such as alt_…): ${ref.value}`);
      const { kind, id } = ref.id;
      if (kind === 'account') {
        if (id !== principal.accountId) messages.push(`${ref.field} names an unknown account: ${ref.value}`);
        return;
      }
      if (kind === 'user') {
        if (!(await accountUserOfUserInAccount(id, principal.accountId))) messages.push(`${ref.field} names an unknown user: ${ref.value}`);
        return;
      }
      const type = STORED[kind];
      if (!type) return messages.push(`${ref.field} names a kind of object that cannot be referenced here: ${ref.value}`);
      if (!found.has(keyString(entityKey(principal.accountId, type, id)))) {
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
  const now = new Date().toISOString();
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
  await insertFreshLog(log);
  return log;
}
