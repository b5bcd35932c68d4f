// The routes of the `notifications` function (functions/http/notifications.ts): every message sent
// to a person, read only on both interfaces (no route creates, changes or deletes one: 404).
import { declareRoutes } from '../http/route-contract';
import { standardRoutes } from '../http/standard-routes';
import { NotificationEarlier, NotificationV4 } from './schemas';

const READ_ONLY = 'Read only: no route creates, changes or deletes a notification (404).';

export const notificationRoutes = declareRoutes('notifications', {
  ...standardRoutes(
    '/api/v4/notifications',
    {
      tag: 'Notifications',
      noun: 'notification',
      plural: 'notifications',
      item: NotificationV4,
      form: false,
      descriptions: {
        list: 'Every message sent to a person: pages (alert_alert, alert_handoff), alert_dropped, alert_rejected, event_goc, welcome messages. alert_id and account_user_id filters read their own index. status is queued until the provider answered; a message bundled by storm protection is sent inside another one.',
        get: READ_ONLY,
      },
    },
    { only: ['list', 'get'] },
  ),
  ...standardRoutes(
    '/notification',
    {
      tag: 'Notifications (earlier)',
      noun: 'notification',
      plural: 'notifications',
      item: NotificationEarlier,
      form: false,
      descriptions: {
        list: 'user_id is the person (usr_), source_id the alert (alt_), group_id the notification that carried a bundled one (provider_status bundled). alert_id and account_user_id (the v4 names) narrow the list too.',
        get: READ_ONLY,
      },
    },
    { only: ['list', 'get'], prefix: 'earlier' },
  ),
});
