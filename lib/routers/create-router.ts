// POST /api/v4/routers (account admins, docs/api.md#roles): name and at least one default receiver
// (api-v4.md); rules optional, validated by the rule engine and stored exactly as sent.
import { requireAdmin } from '../auth/permissions';
import { withoutNulls } from '../http/changes';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newEntity } from '../store/entity-store';
import { v4DefaultReceivers } from './default-receivers';
import type { DefaultReceivers, RouterRecord } from './records';
import { checkedRouterRules } from './rules-text';
import { createRouterV4Input } from './schemas';
import { insertRouter, nextRouterTinyId } from './store';

export interface RouterFields {
  name: string;
  enabled?: boolean;
  rules: string | null;
  receivers: DefaultReceivers;
  meta?: Record<string, unknown>;
}

/** Stores a router from fields already checked (rules and receivers); the caller checked the role. */
export async function insertNewRouter(accountId: string, fields: RouterFields): Promise<RouterRecord> {
  const record: RouterRecord = {
    ...newEntity(accountId),
    tiny_id: await nextRouterTinyId(accountId),
    name: fields.name,
    enabled: fields.enabled ?? true,
    rules: fields.rules,
    ...fields.receivers,
    meta: withoutNulls(fields.meta),
  };
  await insertRouter(record);
  return record;
}

export async function createRouterV4(principal: Principal, body: unknown): Promise<RouterRecord> {
  requireAdmin(principal, 'create routers');
  const input = parseInput(createRouterV4Input, body);
  const rules = await checkedRouterRules(input.rules ?? null);
  const receivers = await v4DefaultReceivers(principal.accountId, input);
  return insertNewRouter(principal.accountId, { name: input.name, enabled: input.enabled, rules, receivers, meta: input.meta });
}
