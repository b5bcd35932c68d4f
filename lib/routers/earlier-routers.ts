// The earlier interface's /router (api-earlier.md "Router", docs/api.md#routers): one resource with a type.
// type router is a router; type notification is the earlier name of a notification rule (the real
// service's "Notification Rules" routers, attached to users), so it reads and writes the very objects
// of /api/v4/notification_rules: one domain, two representations (docs/api.md#interfaces). The YAML arrives as
// settings or rules and is shown under both; default_receiver (router type only) is one prefix id.
import { requireAdmin } from '../auth/permissions';
import { getEach } from '../store/entity-store';
import { Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parseId, parsePrefixedId } from '../ids';
import { runList } from '../list/engine';
import { prefixIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource, type Collection } from '../list/sources';
import { insertNewNotificationRule } from '../notification-rules/create-notification-rule';
import { removeNotificationRuleOf } from '../notification-rules/delete-notification-rule';
import type { NotificationRuleRecord } from '../notification-rules/records';
import { notificationRuleToEarlier } from '../notification-rules/represent';
import { notificationRuleCollection, notificationRuleRef } from '../notification-rules/store';
import { saveNotificationRuleChanges } from '../notification-rules/update-notification-rule';
import { insertNewRouter } from './create-router';
import { earlierDefaultReceiver } from './default-receivers';
import { removeRouterOf } from './delete-router';
import type { RouterRecord } from './records';
import { earlierRouterListSpec, routerToEarlier } from './represent';
import { checkedRouterRules } from './rules-text';
import { createRouterEarlierInput, earlierYaml, updateRouterEarlierInput } from './schemas';
import { routerCollection, routerRef } from './store';
import { saveRouterChanges } from './update-router';

export type EarlierRouter = { type: 'router'; record: RouterRecord } | { type: 'notification'; record: NotificationRuleRecord };

export function earlierRouterToEarlier(entry: EarlierRouter) {
  return entry.type === 'router' ? routerToEarlier(entry.record) : notificationRuleToEarlier(entry.record);
}

export async function createRouterEarlier(principal: Principal, body: unknown): Promise<EarlierRouter> {
  requireAdmin(principal, 'create routers');
  let yaml: { text?: string; field: string } = { field: 'settings' };
  const input = parseInput(createRouterEarlierInput, body, (raw) => {
    const messages: string[] = [];
    yaml = earlierYaml(raw, messages);
    if (typeof yaml.text !== 'string') messages.push("settings can't be blank (the router YAML, also accepted as rules)");
    // Only a type the schema reads as 'router' needs a receiver; any other value is the schema's fault to report.
    if (
      typeof raw.type === 'string' &&
      raw.type.trim().toLowerCase() === 'router' &&
      (raw.default_receiver === undefined || raw.default_receiver === null || raw.default_receiver === '')
    ) {
      messages.push("default_receiver can't be blank (a team, user, router or schedule id)");
    }
    return messages;
  });
  if (input.type === 'notification') {
    const record = await insertNewNotificationRule(
      principal.accountId,
      { name: input.name, enabled: input.enabled, rules: yaml.text!, meta: input.meta },
      yaml.field,
    );
    return { type: 'notification', record };
  }
  const rules = await checkedRouterRules(yaml.text!, yaml.field);
  const receivers = await earlierDefaultReceiver(principal.accountId, input.default_receiver!);
  const record = await insertNewRouter(principal.accountId, {
    name: input.name,
    enabled: input.enabled,
    rules,
    receivers,
    meta: input.meta,
  });
  return { type: 'router', record };
}

/** A router or a notification rule by id: rtr_…, nrl_…, or a bare ULID of either. */
export async function findEarlierRouter(principal: Principal, rawId: string): Promise<EarlierRouter> {
  const named = parsePrefixedId(rawId);
  const id = named ? named.id : parseId('router', rawId);
  const kind = named?.kind;
  if (id && (kind === undefined || kind === 'router' || kind === 'notificationRule')) {
    const [router, rule] = await getEach(
      kind === 'notificationRule' ? null : routerRef(principal.accountId, id),
      kind === 'router' ? null : notificationRuleRef(principal.accountId, id),
    );
    if (router) return { type: 'router', record: router };
    if (rule) return { type: 'notification', record: rule };
  }
  throw new NotFound('Router not found');
}

export async function updateRouterEarlier(principal: Principal, rawId: string, body: unknown): Promise<EarlierRouter> {
  const current = await findEarlierRouter(principal, rawId);
  requireAdmin(principal, 'update routers');
  let yaml: { text?: string; field: string } = { field: 'settings' };
  const input = parseInput(updateRouterEarlierInput, body, (raw) => {
    const messages: string[] = [];
    yaml = earlierYaml(raw, messages);
    return messages;
  });
  if (input.type && input.type !== current.type) {
    throw new Invalid(`type cannot change: this is a ${current.type === 'router' ? 'router' : 'notification rule'} (type ${current.type})`);
  }
  if (current.type === 'notification') {
    const record = await saveNotificationRuleChanges(
      current.record,
      { name: input.name, enabled: input.enabled, rules: yaml.text, meta: input.meta },
      yaml.field,
    );
    return { type: 'notification', record };
  }
  const rules = await checkedRouterRules(yaml.text, yaml.field);
  const receivers = input.default_receiver
    ? await earlierDefaultReceiver(principal.accountId, input.default_receiver, current.record.id)
    : undefined;
  const record = await saveRouterChanges(current.record, { name: input.name, enabled: input.enabled, rules, receivers, meta: input.meta });
  return { type: 'router', record };
}

export async function deleteRouterEarlier(principal: Principal, rawId: string): Promise<void> {
  const current = await findEarlierRouter(principal, rawId);
  if (current.type === 'router') await removeRouterOf(principal, current.record);
  else await removeNotificationRuleOf(principal, current.record);
}

type Listed = EarlierRouter & { id: string };

/** Routers and notification rules as one collection, newest first. */
function bothCollections(accountId: string): Collection<Listed> {
  const routers = routerCollection(accountId);
  const rules = notificationRuleCollection(accountId);
  const asRouters = (items: RouterRecord[]) => items.map((record): Listed => ({ type: 'router', record, id: record.id }));
  const asRules = (items: NotificationRuleRecord[]) => items.map((record): Listed => ({ type: 'notification', record, id: record.id }));
  const newestFirst = (a: Listed, b: Listed) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  return {
    all: async () => {
      const [a, b] = await Promise.all([routers.all(), rules.all()]);
      return [...asRouters(a), ...asRules(b)].sort(newestFirst);
    },
    firstInCreationOrder: async (forward, limit) => {
      const [a, b] = await Promise.all([routers.firstInCreationOrder(forward, limit), rules.firstInCreationOrder(forward, limit)]);
      const merged = [...asRouters(a.items), ...asRules(b.items)].sort((x, y) => (forward ? -newestFirst(x, y) : newestFirst(x, y)));
      return { items: merged.slice(0, limit), total: a.total + b.total };
    },
  };
}

export async function listRoutersEarlier(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(prefixIdFilters(params, { id: 'router' }), earlierRouterListSpec, 'earlier');
  return runList(query, collectionSource(bothCollections(principal.accountId)), earlierRouterToEarlier, {
    search: earlierRouterListSpec.search,
  });
}
