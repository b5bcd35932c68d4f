// The web console in a real browser (Debian's Chromium) against the real local service: sign-in,
// the inbox fed by a webhook, acting on alerts, on-call, the schedule week with an override,
// integrations and the clipboard, validation messages beside their fields, keyboard use, and
// axe-core on every page. One browser for the file; the page is reused from test to test.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/runtime';
import { createMember } from '../support/api-client';
import { chromiumMissing, seriousViolations, startConsole, type ConsoleHarness } from './support/browser';
import { settle } from '../support/quiescence';

const ZONE = 'America/New_York';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How often the inbox asks for its list (web/src/pages/alerts.tsx POLL_MS). */
const ALERTS_POLL_MS = 2_000;

let h: ConsoleHarness;
let page: Page;
const people: Record<string, { id: string; name: string }> = {};
const ids: Record<string, string> = {};

const localTime = (at: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));

async function open(hash: string, heading?: string | RegExp): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  if (heading) await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

async function signIn(password = ADMIN_PASSWORD): Promise<void> {
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(chromiumMissing !== null)('the web console in Chromium', () => {
  beforeAll(async () => {
    h = await startConsole({ timezoneId: ZONE });
    page = h.page;
    const admin = h.service.admin;
    for (const [key, name] of [
      ['rita', 'Rita Rotation'],
      ['sam', 'Sam Second'],
      ['olivia', 'Olivia Oncall'],
    ] as const) {
      const { accountUser } = await createMember(admin, { name });
      people[key] = { id: accountUser.id, name };
    }
    const me = await admin.get('/api/v4/account_users?limit=100');
    ids.admin = me.body.data.find((u: any) => u.user.emails.some((e: any) => e.email === ADMIN_EMAIL)).id;

    // "Day Desk": Olivia on call now, Sam next.
    const desk = await admin.post('/api/v4/teams', {
      name: 'Day Desk',
      member_account_user_ids: [people.olivia.id, people.sam.id],
      admin_account_user_ids: [ids.admin],
    });
    ids.desk = desk.body.id;
    const now = Date.now();
    for (const [who, from, to] of [
      [people.olivia.id, now - HOUR, now + 2 * HOUR],
      [people.sam.id, now + 2 * HOUR, now + 5 * HOUR],
    ] as const) {
      const event = await admin.post('/api/v4/events', {
        start_datetime: new Date(from).toISOString(),
        end_datetime: new Date(to).toISOString(),
        layer: 1,
        time_zone: 'UTC',
        account_user_ids: [who],
        schedule_ids: [desk.body.schedule_id],
      });
      expect(event.status).toBe(201);
    }

    // "Night Watch": a daily rotation of Rita and Sam at 14:00 UTC, begun a week ago.
    const watch = await admin.post('/api/v4/teams', {
      name: 'Night Watch',
      member_account_user_ids: [people.rita.id, people.sam.id],
      admin_account_user_ids: [ids.admin],
    });
    ids.watch = watch.body.id;
    ids.watchSchedule = watch.body.schedule_id;
    const today14 = Math.floor(now / DAY) * DAY + 14 * HOUR;
    ids.rotationStart = String(today14 - 8 * DAY);
    const rotation = await admin.post('/api/v4/events', {
      start_datetime: new Date(today14 - 8 * DAY).toISOString(),
      end_datetime: new Date(today14 - 7 * DAY).toISOString(),
      layer: 1,
      time_zone: 'UTC',
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      rotation: true,
      account_user_ids: [people.rita.id, people.sam.id],
      schedule_ids: [watch.body.schedule_id],
    });
    expect(rotation.status).toBe(201);
    ids.rotation = rotation.body.id;

    const hook = await admin.post('/api/v4/integrations', {
      name: 'Test hook',
      urgency: 'high',
      integration_type_id: 'webhook',
      team_ids: [ids.desk],
    });
    ids.hook = hook.body.prefix_id;

    await page.goto(`${h.service.url}/`);
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('shows a wrong password as an error in the page, and signs in with the right one', async () => {
    await page.getByRole('heading', { level: 1, name: /Sign in/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signIn('not the password');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Invalid username or password');
    expect(await page.getByLabel('Email').isVisible()).toBe(true);

    await signIn();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    expect(page.url()).toMatch(/#\/alerts$/);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });

  it('keeps the login token in session storage and out of the URL; Sign out forgets it', async () => {
    const token = await page.evaluate<string>('sessionStorage.getItem("oncall.session")');
    expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate('document.cookie')).toBe('');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("oncall.session")')).toBeNull();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);

    await signIn();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  });

  it('shows an alert posted to an integration webhook in the inbox at its next poll, without a reload', async () => {
    // The page's timers run on a clock the test moves while the inbox is open (installed before the
    // inbox mounts, so its poll is on it): the alert must be in the first poll after it exists,
    // however slow the machine, and nothing else may bring it.
    await open('#/on-call', 'On call');
    await page.clock.install();
    await open('#/alerts', 'Alerts');
    await page.getByText(/No alerts match\.|newest first/).waitFor(); // its first load is in
    await page.evaluate('window.__sameDocument = true');
    const title = `Webhook alert ${Date.now()}`;
    const row = page.locator('tbody tr', { hasText: title });
    await page.clock.pauseAt(Date.now() + 1_000);
    try {
      const res = await fetch(`${h.service.url}/integration/${ids.hook}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event_type: 'create', id: `console-${Date.now()}`, title, urgency: 'critical' }),
      });
      expect(res.status).toBe(202);
      await settle(h.service); // stored, and routed to Day Desk
      expect(await row.count()).toBe(0);
      await page.clock.runFor(ALERTS_POLL_MS);
      await row.waitFor({ timeout: 10_000 });
    } finally {
      // Back to the wall's time for the tests that follow.
      await page.clock.setSystemTime(Date.now());
      await page.clock.resume();
    }
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    expect(await row.textContent()).toContain('Day Desk'); // assignee
    expect(await row.textContent()).toContain('critical');
    ids.webhookAlert = (await row.getAttribute('data-alert-id'))!;
    ids.webhookTitle = title;
  });

  it('acknowledges and resolves the alert from the page, as the API then shows', async () => {
    const row = page.locator('tbody tr', { hasText: ids.webhookTitle });
    expect(await row.getByRole('button').allTextContents()).toEqual(['Acknowledge', 'Resolve', 'Reject']);
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('acknowledged');
    const acknowledged = await h.service.admin.get(`/api/v4/alerts/${ids.webhookAlert}`);
    expect(acknowledged.body.status).toBe('acknowledged');
    expect(acknowledged.body.acknowledged_at).not.toBeNull();
    expect(await row.getByRole('button').allTextContents()).toEqual(['Resolve']);

    await row.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => row.getAttribute('data-status')).toBe('resolved');
    const resolved = await h.service.admin.get(`/api/v4/alerts/${ids.webhookAlert}`);
    expect(resolved.body.status).toBe('resolved');
    expect(resolved.body.resolved_at).not.toBeNull();
    expect(await row.getByRole('button').count()).toBe(0);
  });

  it('shows the API’s refusal when the caller has no workflow to reject', async () => {
    const created = await h.service.admin.post('/api/v4/alerts', { title: 'Reject me', urgency: 'low', destination_team_ids: [ids.desk] });
    const row = page.locator('tbody tr', { hasText: 'Reject me' });
    await row.waitFor({ timeout: 5_000 });
    await row.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toEqual([expect.stringContaining('no open notification workflow')]);
    expect((await h.service.admin.get(`/api/v4/alerts/${created.body.id}`)).body.status).toBe('open');
  });

  it('filters by status and urgency and searches with q', async () => {
    await page.getByLabel('Status').selectOption('resolved');
    await expect.poll(() => page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining(ids.webhookTitle)]);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Urgency').selectOption('low');
    await expect.poll(() => page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('Reject me')]);
    await page.getByLabel('Urgency').selectOption('');
    await page.getByLabel('Search').fill('webhook alert');
    await expect.poll(() => page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining(ids.webhookTitle)]);
    expect(page.url()).toContain('q=webhook+alert');
    await page.getByLabel('Search').fill('');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
  });

  it('opens an alert: fields, timeline, a comment added and a handoff', async () => {
    await page.getByRole('link', { name: ids.webhookTitle }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(ids.webhookTitle) }).waitFor();
    const timeline = page.locator('.timeline');
    await expect.poll(() => timeline.textContent()).toMatch(/acknowledged/i);
    expect(await timeline.textContent()).toMatch(/resolved/i);
    expect(await page.locator('.fields').textContent()).toContain('Incident');

    await page.getByLabel('Comment', { exact: true }).fill('Rebooted the box');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.locator('.comments', { hasText: 'Rebooted the box' }).waitFor();
    const comments = await h.service.admin.get(`/api/v4/alerts/${ids.webhookAlert}/comments`);
    expect(comments.body.data.map((c: any) => c.text)).toEqual(['Rebooted the box']);

    // An open alert can be handed off; the earlier interface records it.
    const open = await h.service.admin.post('/api/v4/alerts', {
      title: 'Hand me off',
      urgency: 'medium',
      destination_team_ids: [ids.desk],
    });
    await open_(`#/alerts/${open.body.id}`);
    await page.getByLabel('Hand off to').selectOption({ label: `Person: ${people.rita.name}` });
    await page.getByRole('button', { name: 'Hand off' }).click();
    await page.getByText(`Handed off to ${people.rita.name}.`).waitFor();
    const earlier = await h.service.admin.get(`/alert/${open.body.id}`);
    expect(earlier.body.handoffs).toHaveLength(1);
    expect(earlier.body.d_user_id).toMatch(/^usr_/);
  });

  it('names the person the schedule puts on call now, until when, and who is next', async () => {
    await open('#/on-call', 'On call');
    const desk = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: 'Day Desk' }) });
    await expect.poll(() => desk.locator('td.oncall-now').allTextContents()).toEqual([people.olivia.name]);
    expect(await desk.locator('td.oncall-next').textContent()).toContain(people.sam.name);
    const watch = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: 'Night Watch' }) });
    const onWatch = await watch.locator('td.oncall-now').textContent();
    expect([people.rita.name, people.sam.name]).toContain(onWatch);
    expect(await page.getByText(`Times in ${ZONE}`).count()).toBe(1);
  });

  it('shows a week of the rotation in the viewer’s zone, and an override added with the form', async () => {
    await open(`#/schedules/${ids.watchSchedule}`, 'Night Watch Schedule');
    expect(await page.locator('#week-zone').textContent()).toContain(`Times in ${ZONE}`);
    const rotationPieces = page.locator('.piece[data-kind="rotation"]');
    await expect.poll(() => rotationPieces.count()).toBeGreaterThanOrEqual(7);
    const text = (await page.locator('.week').textContent())!;
    expect(text).toContain(people.rita.name);
    expect(text).toContain(people.sam.name);
    // 14:00 UTC shown as the New York wall clock (09:00 or 10:00 depending on DST).
    expect(text).toContain(`${localTime(Number(ids.rotationStart))}–24:00`);

    // Override the third shift of the week with Olivia.
    const shift = page.getByLabel('Shift', { exact: true });
    const options = await shift.locator('option').allTextContents();
    expect(options.length).toBeGreaterThan(3);
    await shift.selectOption({ index: 3 });
    const from = await page.getByLabel('From').inputValue();
    expect(from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    await page.getByRole('group', { name: 'On call instead' }).getByLabel(people.olivia.name).check();
    await page.getByRole('button', { name: 'Add override' }).click();
    await page.getByText(`Override added: ${people.olivia.name}.`).waitFor();

    const override = page.locator('.piece[data-kind="override"]');
    await override.first().waitFor();
    expect(await override.first().textContent()).toContain(people.olivia.name);
    const events = await h.service.admin.get(`/api/v4/schedules/${ids.watchSchedule}/events?limit=100`);
    const child = events.body.data.find((e: any) => e.parent_id === ids.rotation);
    expect(child.event_attendees.map((a: any) => a.attendee_id)).toEqual([people.olivia.id]);
    // The override starts at the chosen shift's start, on the New York wall clock.
    expect(await override.first().textContent()).toContain(from.slice(11, 16));

    // Next week: the rotation goes on; the override stays in its week.
    const heading = await page.locator('#week-heading').textContent();
    await page.getByRole('link', { name: 'Next week' }).click();
    await expect.poll(() => page.locator('#week-heading').textContent()).not.toBe(heading);
    await page.locator('.week').waitFor();
    expect(await rotationPieces.count()).toBeGreaterThanOrEqual(7);
    expect(await override.count()).toBe(0);
    await page.getByRole('link', { name: 'Previous week' }).click();
    await expect.poll(() => page.locator('#week-heading').textContent()).toBe(heading);
    await expect.poll(() => override.count()).toBeGreaterThan(0);
  });

  it('creates an integration and copies its inbound address', async () => {
    await open('#/integrations', 'Integrations');
    await page.getByLabel('Name').fill('Grafana prod');
    await page.getByLabel('Type').selectOption({ label: 'Grafana' });
    await page.getByLabel('Urgency of its alerts').selectOption('critical');
    await page.getByRole('group', { name: 'Send alerts to teams' }).getByLabel('Day Desk').check();
    await page.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('heading', { level: 1, name: 'Grafana prod' }).waitFor();

    const listed = await h.service.admin.get('/api/v4/integrations?q=Grafana%20prod');
    expect(listed.body.total_count).toBe(1);
    const integration = listed.body.data[0];
    expect(integration.integration_type.slug).toBe('grafana');
    expect(integration.team_ids).toEqual([ids.desk]);
    const expected = `${h.service.url}/integration/${integration.prefix_id}`;

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(expected);

    // What the copied address receives is listed with whether it made an alert.
    const res = await fetch(expected, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'alerting', ruleId: 77, ruleName: 'CPU hot', title: '[Alerting] CPU hot', message: 'cpu' }),
    });
    expect(res.status).toBe(202);
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Created an alert');
    expect(await row.locator('td').nth(1).textContent()).toBe('Yes');
  });

  it('shows the API’s validation messages next to the fields at fault', async () => {
    await open('#/teams', 'Teams');
    await page.getByRole('button', { name: 'Create team' }).click();
    const name = page.getByLabel('Name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await name.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toBe("name can't be blank");
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe(await name.getAttribute('id'));
    const members = page.getByRole('group', { name: 'Members' });
    expect(await members.locator('.field-error').textContent()).toMatch(/^member_account_user_ids /);
    expect((await h.service.admin.get('/api/v4/teams')).body.total_count).toBe(2);

    // A nested field: the second e-mail address on the profile.
    await open('#/profile', 'Profile');
    await page.getByRole('button', { name: 'Add an e-mail address' }).click();
    await page.getByLabel('E-mail 2', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    const second = page.getByLabel('E-mail 2', { exact: true });
    await expect.poll(() => second.getAttribute('aria-invalid')).toBe('true');
    const error = (await second.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${error}`).textContent()).toBe('user_attributes.emails_attributes[1].email is not a valid e-mail address');
    expect(await page.getByLabel('E-mail 1', { exact: true }).getAttribute('aria-invalid')).toBeNull();
  });

  it('works from the keyboard, with the focus visible', async () => {
    await open('#/alerts', 'Alerts');
    // The skip link is the first stop; the navigation follows it.
    const firstFocusable =
      'document.querySelector(\'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])\').textContent';
    expect(await page.evaluate(firstFocusable)).toBe('Skip to content');
    await page.evaluate("document.querySelector('.skip-link').focus()");
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Alerts');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('On call');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'On call' }).waitFor();
    // The new page's heading takes the focus.
    await expect.poll(() => page.evaluate('document.activeElement.tagName')).toBe('H1');
  });

  it('has no serious or critical axe-core violation on any page', async () => {
    const alert = await h.service.admin.get('/api/v4/alerts?limit=1');
    const integration = await h.service.admin.get('/api/v4/integrations?limit=1');
    const policy = await h.service.admin.get('/api/v4/escalation_policies?limit=1');
    const pages: [string, string | RegExp][] = [
      ['#/alerts', 'Alerts'],
      [`#/alerts/${alert.body.data[0].id}`, new RegExp(alert.body.data[0].title)],
      ['#/on-call', 'On call'],
      ['#/schedules', 'Schedules'],
      [`#/schedules/${ids.watchSchedule}`, 'Night Watch Schedule'],
      ['#/teams', 'Teams'],
      [`#/teams/${ids.desk}`, 'Day Desk'],
      ['#/escalation-policies', 'Escalation policies'],
      [`#/escalation-policies/${policy.body.data[0].id}`, policy.body.data[0].name],
      ['#/integrations', 'Integrations'],
      [`#/integrations/${integration.body.data[0].id}`, integration.body.data[0].name],
      ['#/routers', 'Routers'],
      ['#/notifications', 'Notifications'],
      ['#/reports', 'Reports'],
      ['#/audit', 'Audit'],
      ['#/import', 'Import'],
      ['#/notification-rules', 'Notification rules'],
      ['#/users', 'Users'],
      [`#/users/${people.rita.id}`, people.rita.name],
      ['#/profile', 'Profile'],
    ];
    const found: Record<string, unknown> = {};
    for (const [hash, heading] of pages) {
      await open(hash, heading);
      // Every part of the page loaded (a schedule's page loads its gaps and its fairness table apart).
      await expect.poll(() => page.locator('.loading').count()).toBe(0);
      const violations = await seriousViolations(page);
      if (violations.length) found[hash] = violations;
    }
    expect(found).toEqual({});

    // The check can fail: an unlabelled input is a critical violation.
    await page.evaluate("document.getElementById('main').insertAdjacentHTML('beforeend', '<input id=\\'axe-probe\\'>')");
    expect((await seriousViolations(page)).map((v) => v.id)).toContain('label');
    await page.evaluate("document.getElementById('axe-probe').remove()");
  });

  it('ran every page without a page error or a Content-Security-Policy violation', () => {
    // The only console errors allowed are the deliberate refusals the browser logs: the wrong
    // password (401), the refused reject (409) and the validation errors (422).
    const unexpected = h.problems.filter((p) => !/status of (401|409|422) /.test(p));
    expect(unexpected).toEqual([]);
  });
});

async function open_(hash: string): Promise<void> {
  await open(hash);
  await page.getByRole('heading', { level: 1 }).waitFor();
}
