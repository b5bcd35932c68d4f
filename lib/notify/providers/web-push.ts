// Push notifications through the browsers' push services (Web Push: RFC 8030 delivery, RFC 8291
// aes128gcm payload encryption, RFC 8292 VAPID), enabled by WEB_PUSH_SUBJECT. One message goes to
// every subscription the person registered (POST /api/v4/account_users/:id/push_subscriptions); a
// push service that answers 404 or 410 says the subscription is gone, and it is removed. The
// payload is JSON a service worker shows: title, body, the alert and the one-click response links.
import { config } from '../../config';
import type { Channel } from '../records';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, ProviderFactory } from './provider';
import { loadOnce } from '../../load-once';

const loadWebPushDelivery = /* @__PURE__ */ loadOnce(() => import('./web-push-delivery'));

const PROVIDER = 'web-push';

const provider: NotificationProvider = {
  name: PROVIDER,
  async send(message: OutgoingMessage): Promise<DeliveryResult> {
    // The delivery (encryption, VAPID, the guarded HTTPS agent) loads with the first push sent.
    const { sendWebPush } = await loadWebPushDelivery();
    return sendWebPush(message);
  },
};

export const webPushFactory: ProviderFactory = {
  name: PROVIDER,
  forChannel(channel: Channel) {
    return channel === 'push' && config().WEB_PUSH_SUBJECT ? provider : null;
  },
};

/** Whether pushes go through Web Push (else the outbox, or they are recorded failed). */
export const webPushEnabled = () => Boolean(config().WEB_PUSH_SUBJECT);
