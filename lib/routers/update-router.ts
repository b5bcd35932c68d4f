// PUT /api/v4/routers/:id (account admins): only the fields sent change; the rules are validated
// as on create, and the router keeps at least one default receiver.
import { requireAdmin } from '../auth/permissions';
import { mergeKeys } from '../http/changes';
import { Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { v4DefaultReceivers } from './default-receivers';
import { findRouter } from './read-routers';
import type { DefaultReceivers, RouterRecord } from './records';
import { forgetRouter } from './router-cache';
import { checkedRouterRules } from './rules-text';
import { updateRouterV4Input } from './schemas';
import { saveRouter } from './store';
import { nowIso } from '../clock';

export interface RouterChanges {
  name?: string;
  enabled?: boolean;
  rules?: string | null;
  receivers?: DefaultReceivers;
  meta?: Record<string, unknown>;
}

/** A versioned save of changes already checked; a lost race is a 409. */
export async function saveRouterChanges(current: RouterRecord, changes: RouterChanges): Promise<RouterRecord> {
  const next: RouterRecord = {
    ...current,
    ...(changes.receivers ?? {}),
    name: changes.name ?? current.name,
    enabled: changes.enabled ?? current.enabled,
    rules: changes.rules === undefined ? current.rules : changes.rules,
    meta: mergeKeys(current.meta, changes.meta),
    version: current.version + 1,
    updated_at: nowIso(),
  };
  if (!(await saveRouter(next))) throw new Conflict('the router was changed by another request; reload and try again');
  forgetRouter(next.account_id, next.id);
  return next;
}

export async function updateRouterV4(principal: Principal, rawId: string, body: unknown): Promise<RouterRecord> {
  const current = await findRouter(principal, rawId);
  requireAdmin(principal, 'update routers');
  const input = parseInput(updateRouterV4Input, body);
  const rules = await checkedRouterRules(input.rules);
  const receivers = await v4DefaultReceivers(principal.accountId, input, current, current.id);
  return saveRouterChanges(current, { name: input.name, enabled: input.enabled, rules, receivers, meta: input.meta });
}
