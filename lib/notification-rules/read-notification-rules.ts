// Reading notification rules: one by id (ULID or nrl_ prefix id) and the account's list.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList } from '../list/engine';
import { normalizeIdFilters } from '../list/id-filters';
import { parseListQuery } from '../list/query';
import { collectionSource } from '../list/sources';
import type { NotificationRuleRecord } from './records';
import { notificationRuleListSpec, notificationRuleToV4 } from './represent';
import { getNotificationRule, notificationRuleCollection } from './store';

/** The account's rule named by `rawId`, or null (an id of another form or kind names nothing). */
export async function notificationRuleNamed(accountId: string, rawId: string): Promise<NotificationRuleRecord | null> {
  const id = parseId('notificationRule', rawId);
  return id ? getNotificationRule(accountId, id) : null;
}

export async function findNotificationRule(principal: Principal, rawId: string): Promise<NotificationRuleRecord> {
  const record = await notificationRuleNamed(principal.accountId, rawId);
  if (!record) throw new NotFound('Notification rule not found');
  return record;
}

export async function listNotificationRules(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, { id: 'notificationRule' }), notificationRuleListSpec, 'v4');
  return runList(query, collectionSource(notificationRuleCollection(principal.accountId)), notificationRuleToV4, {
    search: notificationRuleListSpec.search,
  });
}
