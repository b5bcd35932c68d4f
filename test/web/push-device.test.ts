// Push notifications on the console's own device, and test notifications, in a real browser
// (Debian's Chromium) against the real local service with Web Push on and a local push service.
//
// What runs for real: the console's service worker (built, served from /assets/, registered and
// activated by Chromium), the Notification permission, the Profile flow (VAPID key from the API,
// PushManager.subscribe called with it, the subscription registered with the API and shown as on),
// the Web Push provider (VAPID JWT, aes128gcm) posting to the push service, which checks the VAPID
// signature and decrypts the payload with the subscription's private key, and the service worker
// turning that payload into a shown notification with its actions (delivered into the worker
// through the DevTools protocol's ServiceWorker.deliverPushMessage, read back with
// registration.getNotifications()).
// What is stood in for: Chromium's own push service. Chromium subscribes through Google's FCM only
// (no flag points it elsewhere) and cannot reach it here: PushManager.subscribe never settles. So
// PushManager.prototype.subscribe/getSubscription are replaced, before the console loads, by a
// subscription whose endpoint is the local push service and whose keys the test holds (as Chromium
// would hold them); the hop push service → Chromium is the deliverPushMessage above.
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { outboxMessages } from '../support/dependencies';
import {
  browserSubscription,
  checkVapid,
  decryptPush,
  pushServiceAgent,
  startPushService,
  type PushService,
} from '../support/push-service';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/runtime';
import { chromiumMissing, seriousViolations, startConsole, type ConsoleHarness } from './support/browser';

let h: ConsoleHarness;
let page: Page;
let pushService: PushService;
let cdp: CDPSession;
let adminId: string;
const device = { path: '/device-1', subscription: undefined as ReturnType<typeof browserSubscription> | undefined };
const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];

async function open(hash: string, heading: string | RegExp): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The push service's latest request to the device, decrypted with the device's key. */
function lastPush(): { payload: Record<string, any>; authorization: string } {
  const received = pushService.received.filter((r) => r.path === device.path).at(-1)!;
  return { payload: JSON.parse(decryptPush(received.body, device.subscription!)), authorization: String(received.headers.authorization) };
}

/** What the push service received, handed to the console's service worker as Chromium would; the notifications it then shows. */
async function deliverToServiceWorker(
  payload: string,
): Promise<{ title: string; body: string; tag: string; actions: { action: string; title: string }[]; data: any }[]> {
  const registration = registrations.find((r) => r.scopeURL === `${h.service.url}/assets/` && !r.isDeleted)!;
  expect(registration).toBeDefined();
  const read = () =>
    page.evaluate<Awaited<ReturnType<typeof deliverToServiceWorker>>>(
      `navigator.serviceWorker.getRegistration('/assets/').then((r) => r.getNotifications()).then((all) => all.map((n) => ({
        title: n.title, body: n.body, tag: n.tag, actions: (n.actions || []).map((a) => ({ action: a.action, title: a.title })), data: n.data,
      })))`,
    );
  // The hop push service → Chromium is the test's (see the top of the file): a message handed to a
  // worker Chromium is stopping while idle can be dropped by DevTools, so the hop is tried again
  // (a notification's tag is its notification id: a second delivery replaces, never adds).
  for (let attempt = 0; attempt < 4; attempt++) {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: h.service.url,
      registrationId: registration.registrationId,
      data: payload,
    });
    // Read through the registration, as the page sees it: no stale handle on a worker that restarted.
    for (let i = 0; i < 100; i++) {
      const shown = await read();
      if (shown.length) return shown;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return [];
}

/**
 * The page script that replaces PushManager's subscribe and getSubscription (see the top of the
 * file): the subscription has the push service's endpoint and the test's keys, and the calls made
 * are kept in window.__subscribeCalls (the key as base64). A string: the page's DOM types are not the tests'.
 */
function standInPushManager(endpoint: string, keys: { p256dh: string; auth: string }): string {
  return `(() => {
    const endpoint = ${JSON.stringify(endpoint)};
    const keys = ${JSON.stringify(keys)};
    const calls = [];
    window.__subscribeCalls = calls;
    const subscription = (key) => ({
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: key },
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: async () => {
        localStorage.removeItem('test.push.subscription');
        return true;
      },
    });
    PushManager.prototype.subscribe = async function (options) {
      const key = new Uint8Array(options.applicationServerKey);
      const text = btoa(String.fromCharCode(...key));
      calls.push({ userVisibleOnly: options.userVisibleOnly === true, key: text });
      localStorage.setItem('test.push.subscription', text);
      return subscription(key.buffer);
    };
    PushManager.prototype.getSubscription = async function () {
      const text = localStorage.getItem('test.push.subscription');
      return text ? subscription(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)).buffer) : null;
    };
  })();`;
}

/** The notifications the console's registration shows now, read from the page. */
const shownInPage = () =>
  page.evaluate<number>(`navigator.serviceWorker.getRegistration('/assets/').then((r) => r.getNotifications()).then((all) => all.length)`);

describe.skipIf(chromiumMissing !== null)('notifications on this device, and test notifications, in Chromium', () => {
  beforeAll(async () => {
    pushService = await startPushService();
    h = await startConsole({
      env: { WEB_PUSH_SUBJECT: 'mailto:ops@example.com', ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true', OUTBOX: 'memory' },
      dependencies: { pushAgent: pushServiceAgent() },
    });
    page = h.page;
    device.subscription = browserSubscription(`${pushService.origin}${device.path}`);
    // Chromium's own push service (FCM) stood in for: see the top of the file.
    await h.context.addInitScript(standInPushManager(device.subscription.endpoint, device.subscription.keys));
    await h.context.grantPermissions(['notifications'], { origin: h.service.url });
    cdp = await h.context.newCDPSession(page);
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      for (const registration of event.registrations) {
        const known = registrations.findIndex((r) => r.registrationId === registration.registrationId);
        if (known >= 0) registrations[known] = registration;
        else registrations.push(registration);
      }
    });
    await cdp.send('ServiceWorker.enable');
    const users = await h.service.admin.get('/api/v4/account_users?limit=100');
    adminId = users.body.data.find((u: any) => u.user.emails.some((e: any) => e.email === ADMIN_EMAIL)).id;
    await page.goto(`${h.service.url}/`);
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  });

  afterAll(async () => {
    await h?.stop();
    await pushService?.close();
  });

  it('enables notifications on this device from Profile: the service worker, the VAPID key, the subscription registered', async () => {
    await open('#/profile', 'Profile');
    const card = page.getByRole('region', { name: 'Notifications on this device' });
    await expect.poll(() => card.getByRole('status').textContent()).toBe('This device does not receive your notifications.');
    await card.getByRole('button', { name: 'Enable notifications on this device' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('This device receives your notifications.');

    // The console's own worker, at its content-hashed address, active for /assets/.
    const worker = await page.evaluate(`navigator.serviceWorker.getRegistration('/assets/').then((registration) => ({
      script: registration?.active?.scriptURL ?? null,
      scope: registration?.scope ?? null,
    }))`);
    const named = await page.locator('meta[name="service-worker"]').getAttribute('content');
    expect(worker).toEqual({ script: `${h.service.url}${named}`, scope: `${h.service.url}/assets/` });
    expect(named).toMatch(/^\/assets\/service-worker-[A-Z0-9]+\.js$/);

    // Subscribed with the service's VAPID key, for notifications the person sees.
    const { vapid_public_key: key } = (await h.service.admin.get('/api/v4/web_push')).body;
    const calls = await page.evaluate<{ userVisibleOnly: boolean; key: string }[]>('window.__subscribeCalls');
    expect(calls).toEqual([{ userVisibleOnly: true, key: Buffer.from(key, 'base64url').toString('base64') }]);
    const listed = await h.service.admin.get(`/api/v4/account_users/${adminId}/push_subscriptions`);
    expect(listed.body.data.map((s: any) => s.endpoint)).toEqual([device.subscription!.endpoint]);
    expect(listed.body.data[0].user_agent).toMatch(/Chrome/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(h.problems).toEqual([]);
  });

  it('"Send test push notification" reaches this device: pushed, decrypted, shown by the service worker', { timeout: 60_000 }, async () => {
    const card = page.getByRole('region', { name: 'Test notifications' });
    const before = pushService.received.length;
    await card.getByRole('button', { name: 'Send test push notification' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/^Test push notification sent to acu_/);
    expect(pushService.received.length).toBe(before + 1);
    const { payload, authorization } = lastPush();
    expect(checkVapid(authorization, pushService.origin).claims.sub).toBe('mailto:ops@example.com');
    expect(payload).toMatchObject({ title: 'Test notification', template: 'test', actions: [] });
    expect(payload.body).toMatch(/This is a test notification for /);

    const shown = await deliverToServiceWorker(JSON.stringify(payload));
    expect(shown).toEqual([
      { title: 'Test notification', body: payload.body, tag: payload.notification_id, actions: [], data: { links: {}, template: 'test' } },
    ]);
    // The page sees what the worker showed; closing it leaves nothing for the next test.
    expect(await shownInPage()).toBe(1);
    await page.evaluate(
      `navigator.serviceWorker.getRegistration('/assets/').then((r) => r.getNotifications()).then((all) => all.forEach((n) => n.close()))`,
    );
    await expect.poll(shownInPage).toBe(0);
  });

  it("a page arrives with its Acknowledge and Reject buttons, which open the page's one-click links", { timeout: 60_000 }, async () => {
    const alert = await h.service.admin.post('/api/v4/alerts', {
      title: 'Disk full on db-7',
      urgency: 'high',
      destination_account_user_ids: [adminId],
    });
    expect(alert.status).toBe(201);
    await expect.poll(() => pushService.received.filter((r) => r.path === device.path).length, { timeout: 15_000 }).toBeGreaterThan(1);
    const { payload } = lastPush();
    expect(payload.template).toBe('alert_alert');
    const shown = await deliverToServiceWorker(JSON.stringify(payload));
    expect(shown).toHaveLength(1);
    expect(shown[0].title).toContain('Disk full on db-7');
    expect(shown[0].actions).toEqual([
      { action: 'acknowledge', title: 'Acknowledge' },
      { action: 'reject', title: 'Reject' },
    ]);
    expect(shown[0].data.links.acknowledge).toMatch(new RegExp(`^${h.service.url}/public/respond/`));
    expect(shown[0].data.links.reject).toMatch(new RegExp(`^${h.service.url}/public/respond/`));
    await h.service.admin.post(`/api/v4/alerts/${alert.body.id}/resolve`);
  });

  it('turns notifications off on this device: the subscription is forgotten on both sides', async () => {
    const card = page.getByRole('region', { name: 'Notifications on this device' });
    await card.getByRole('button', { name: 'Turn off notifications on this device' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('This device does not receive your notifications.');
    expect((await h.service.admin.get(`/api/v4/account_users/${adminId}/push_subscriptions`)).body.data).toEqual([]);
    // Nothing registered any more: a test push now cannot reach anyone, and says so.
    const test = page.getByRole('region', { name: 'Test notifications' });
    await test.getByRole('button', { name: 'Send test push notification' }).click();
    await expect
      .poll(() => test.getByRole('alert').textContent())
      .toMatch(/channel push cannot reach this person: the person has no browser registered/);
    // That 422 is the answer this test asked for; the browser logs it as a failed request.
    expect(h.problems).toEqual([expect.stringMatching(/status of 422/)]);
    h.problems.length = 0;
  });

  it("sends a test per channel from a user's page; a channel without an address has no button", async () => {
    const { accountUser } = await createMember(h.service.admin, { name: 'Tess Test' });
    await open(`#/users/${accountUser.id}`, 'Tess Test');
    const card = page.getByRole('region', { name: 'Test notifications' });
    const buttons = await card.getByRole('button').allTextContents();
    expect(buttons).toEqual(['Send test push notification', 'Send test e-mail']);
    await card.getByRole('button', { name: 'Send test e-mail' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe(`Test e-mail sent to ${accountUser.user.emails[0].email}.`);
    const sent = outboxMessages().filter((m) => m.to === accountUser.user.emails[0].email && m.template === 'test');
    expect(sent).toHaveLength(1);
    expect(sent[0].message).toMatch(/This is a test notification for Tess Test/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(h.problems).toEqual([]);
  });
});
