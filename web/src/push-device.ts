// This browser as a push device of the signed-in person (docs/api.md#push-subscriptions): the
// console's own service worker (service-worker.ts, whose address the page names in
// <meta name="service-worker">) and the browser's PushManager, subscribed with the service's VAPID
// key (GET /api/v4/web_push) and registered at POST /api/v4/account_users/:id/push_subscriptions, so
// pages reach this device without a client of ours.
import { api, ApiError } from './api';

export const SERVICE_WORKER_SCOPE = '/assets/';

export type DeviceState = { kind: 'unsupported'; why: string } | { kind: 'denied' } | { kind: 'off' } | { kind: 'on'; endpoint: string };

function serviceWorkerUrl(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="service-worker"]')?.content || null;
}

function unsupported(): string | null {
  if (!window.isSecureContext) return 'Notifications need the console over HTTPS.';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return 'This browser cannot receive push notifications.';
  }
  if (!serviceWorkerUrl()) return 'This build of the console has no service worker.';
  return null;
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function existingRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  return navigator.serviceWorker.getRegistration(SERVICE_WORKER_SCOPE);
}

/** Whether this device receives the person's notifications now. */
export async function deviceState(): Promise<DeviceState> {
  const why = unsupported();
  if (why) return { kind: 'unsupported', why };
  if (Notification.permission === 'denied') return { kind: 'denied' };
  const registration = await existingRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? { kind: 'on', endpoint: subscription.endpoint } : { kind: 'off' };
}

/** Resolves once the registration has an active worker (PushManager needs one). */
function activated(registration: ServiceWorkerRegistration): Promise<ServiceWorkerRegistration> {
  if (registration.active) return Promise.resolve(registration);
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return Promise.reject(new Error('The service worker did not install.'));
  return new Promise((resolve, reject) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve(registration);
      else if (worker.state === 'redundant') reject(new Error('The service worker did not install.'));
    });
  });
}

/** Asks for permission, subscribes this browser and registers it for the person. */
export async function enableDevice(accountUserId: string): Promise<DeviceState> {
  const why = unsupported();
  if (why) return { kind: 'unsupported', why };
  const { vapid_public_key: key } = await api.get<{ enabled: boolean; vapid_public_key: string }>('/api/v4/web_push');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? { kind: 'denied' } : { kind: 'off' };
  const registration = await activated(await navigator.serviceWorker.register(serviceWorkerUrl()!, { scope: SERVICE_WORKER_SCOPE }));
  let subscription = await registration.pushManager.getSubscription();
  const sameKey = subscription?.options.applicationServerKey
    ? new Uint8Array(subscription.options.applicationServerKey).join() === keyBytes(key).join()
    : false;
  // A subscription made with another key (the service's keys changed) cannot be pushed to: renew it.
  if (subscription && !sameKey) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await api.post(`/api/v4/account_users/${encodeURIComponent(accountUserId)}/push_subscriptions`, {
    ...subscription.toJSON(),
    user_agent: navigator.userAgent.slice(0, 200),
  });
  return { kind: 'on', endpoint: subscription.endpoint };
}

/** Unsubscribes this browser and forgets it for the person. */
export async function disableDevice(accountUserId: string): Promise<DeviceState> {
  const registration = await existingRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    const path = `/api/v4/account_users/${encodeURIComponent(accountUserId)}/push_subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`;
    // Already forgotten by the service (a push service said it was gone): only the browser's side is left.
    await api.delete(path).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
    await subscription.unsubscribe();
  }
  return { kind: 'off' };
}
