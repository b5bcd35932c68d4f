// The console's service worker: it shows the pages Web Push brings (lib/notify/providers/web-push.ts:
// `{title, body, notification_id, template, actions: [{action, title, url}]}`) while the console is
// closed, and opens a page's one-click link when its Acknowledge or Reject button is clicked (the
// link's page asks before it acts). Registered from Profile ("Enable notifications on this device")
// with scope /assets/: a push reaches its registration whatever pages it controls, so it needs no
// wider scope. Built beside the app as assets/service-worker-<hash>.js; no imports, a classic script.

interface PushAction {
  action: string;
  title: string;
  url: string;
}

interface PushPayload {
  title?: string;
  body?: string;
  notification_id?: string;
  template?: string;
  actions?: PushAction[];
}

// The worker's own globals, typed here: the page's DOM types have no ServiceWorkerGlobalScope.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  action: string;
  notification: Notification & { data: unknown };
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: { openWindow(url: string): Promise<unknown>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  location: Location;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
}

const worker = self as unknown as WorkerScope;

function payloadOf(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const parsed = event.data.json();
    return typeof parsed === 'object' && parsed !== null ? (parsed as PushPayload) : { body: String(parsed) };
  } catch {
    return { body: event.data.text() };
  }
}

/** Only our own service's links are opened (a link is the page of a one-click response). */
function ownLink(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url, worker.location.origin);
    return parsed.protocol === 'https:' || parsed.origin === worker.location.origin ? parsed.href : null;
  } catch {
    return null;
  }
}

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  const actions = (payload.actions ?? []).filter((a) => typeof a.action === 'string' && typeof a.title === 'string').slice(0, 2);
  const links: Record<string, string> = {};
  for (const action of actions) {
    const link = ownLink(action.url);
    if (link) links[action.action] = link;
  }
  const options: NotificationOptions & { actions?: { action: string; title: string }[] } = {
    body: payload.body ?? '',
    tag: payload.notification_id,
    data: { links, template: payload.template ?? null },
    requireInteraction: payload.template === 'alert_alert' || payload.template === 'alert_handoff',
    actions: actions.filter((a) => links[a.action]).map((a) => ({ action: a.action, title: a.title })),
  };
  event.waitUntil(worker.registration.showNotification(payload.title ?? 'On-call', options));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = (event.notification.data ?? {}) as { links?: Record<string, string> };
  const target = (event.action && data.links?.[event.action]) || new URL('/', worker.location.origin).href;
  event.waitUntil(worker.clients.openWindow(target));
});
