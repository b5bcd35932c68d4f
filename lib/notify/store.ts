// Data access for notifications (lib/store/ACCESS-PATTERNS.md).
//   notification   A#<acc>#NTF / <id>
import { entityStore } from '../store/entity-store';
import type { NotificationRecord } from './records';

const notifications = entityStore<NotificationRecord>({ kind: 'notification' });

export async function insertNotification(record: NotificationRecord): Promise<void> {
  await notifications.insert(record);
}
