// Data access for notification rules (lib/notification-rules/ACCESS-PATTERNS.md).
//   notification rule   A#<acc>#NRL / <id>
import { entityStore } from '../store/entity-store';
import type { NotificationRuleRecord } from './records';

const rules = entityStore<NotificationRuleRecord>({ kind: 'notificationRule', audit: { objectType: 'notification_rule' } });

/** The one lookup of a notification rule by id (null when the account has none with that id). */
export const getNotificationRule = rules.get;
export const notificationRuleCollection = rules.collection;
export const notificationRuleRef = rules.ref;
export const removeNotificationRule = rules.remove;

/** Saves a record whose version the caller raised by one; false when another write came first. */
export const saveNotificationRule = (record: NotificationRuleRecord) => rules.save(record);

export async function insertNotificationRule(record: NotificationRuleRecord): Promise<void> {
  if (!(await rules.insert(record))) throw new Error(`notification rule ${record.id} already exists`);
}
