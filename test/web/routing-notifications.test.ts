// The console's Routers, Notifications and notification-rule pages in a real browser (Debian's
// Chromium) against the real local service: an alert posted to an integration webhook pages the
// person on call, and the local outbox's sends show on the Notifications page and the alert's page
// (new ones without a reload); a router created with a YAML rule, its validation message next to the
// field with the line marked, the dry run naming the rule that matched; the rule a person follows
// shown on the Users page and its content on the Profile page; axe-core on every new page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/runtime';
import { chromiumMissing, seriousViolations, startConsole, type ConsoleHarness } from './support/browser';
import { outboxMessages } from '../support/dependencies';

const HOUR = 3_600_000;

let h: ConsoleHarness;
let page: Page;
const ids: Record<string, string> = {};

const RULE_YAML = `rules:
  # Critical alerts: push at once, then SMS
  - match:
      alert.urgency: critical
    actions:
      - type: notify
        channels: [push]
        timeout: 1m
`;

async function open(hash: string, heading?: string | RegExp): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  if (heading) await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

describe.skipIf(chromiumMissing !== null)('Routers, Notifications and notification rules in Chromium', () => {
  beforeAll(async () => {
    // TIME_SCALE stays 1: the team's 5-minute layer does not re-page within the test, so the
    // counts of notifications below are exact.
    h = await startConsole();
    page = h.page;
    const admin = h.service.admin;
    const { accountUser } = await createMember(admin, { name: 'Olivia Oncall' });
    ids.olivia = accountUser.id;
    ids.oliviaUser = accountUser.user.prefix_id;
    const { accountUser: sam } = await createMember(admin, { name: 'Sam Spare' });
    ids.sam = sam.id;
    ids.samUser = sam.user.prefix_id;
    ids.samEmail = sam.user.emails[0].email;
    // Sam asks for text messages but has no phone: his SMS is recorded failed, with the reason.
    expect((await admin.put(`/api/v4/account_users/${ids.sam}`, { user_attributes: { notify_sms: true } })).status).toBe(200);
    const listed = await admin.get('/api/v4/account_users?limit=100');
    ids.admin = listed.body.data.find((u: any) => u.user.emails.some((e: any) => e.email === ADMIN_EMAIL)).id;

    const team = await admin.post('/api/v4/teams', {
      name: 'Desk',
      member_account_user_ids: [ids.olivia],
      admin_account_user_ids: [ids.admin],
    });
    expect(team.status, team.text).toBe(201);
    ids.team = team.body.id;
    ids.teamPrefix = team.body.prefix_id;
    const now = Date.now();
    const event = await admin.post('/api/v4/events', {
      start_datetime: new Date(now - HOUR).toISOString(),
      end_datetime: new Date(now + 3 * HOUR).toISOString(),
      layer: 1,
      time_zone: 'UTC',
      account_user_ids: [ids.olivia],
      schedule_ids: [team.body.schedule_id],
    });
    expect(event.status, event.text).toBe(201);
    const hook = await admin.post('/api/v4/integrations', {
      name: 'Hook',
      urgency: 'high',
      integration_type_id: 'webhook',
      team_ids: [ids.team],
    });
    ids.hook = hook.body.prefix_id;

    const rule = await admin.post('/api/v4/notification_rules', { name: 'Push first', rules: RULE_YAML });
    expect(rule.status, rule.text).toBe(201);
    ids.rule = rule.body.id;
    expect((await admin.put(`/api/v4/account_users/${ids.admin}`, { notification_rule_id: ids.rule })).status).toBe(200);

    await page.goto(`${h.service.url}/`);
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('names the new pages in the navigation bar', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const names = await nav.getByRole('link').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Routers', 'Notifications']));
    await nav.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Notifications' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the pages of a webhook’s alert on the Notifications page: to whom, channel, template, status, and a link to the alert', async () => {
    await open('#/notifications', 'Notifications');
    await page.evaluate('window.__sameDocument = true');
    const title = `Disk full ${Date.now()}`;
    const res = await fetch(`${h.service.url}/integration/${ids.hook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'create', id: `nt-${Date.now()}`, title, urgency: 'critical' }),
    });
    expect(res.status).toBe(202);

    // Olivia is on call for Desk: her default channels, push and e-mail, are paged.
    const rows = page.locator('tbody tr', { hasText: title });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    const sent = await h.service.admin.get('/api/v4/notifications?template=alert_alert&limit=100');
    const ofAlert = sent.body.data.filter((n: any) => n.subject?.includes(title));
    expect(ofAlert.map((n: any) => n.channel).sort()).toEqual(['email', 'push']);
    ids.alert = ofAlert[0].alert_id;

    const email = page.locator('tbody tr[data-channel="email"]', { hasText: title });
    const cells = await email.locator('td').allTextContents();
    expect(cells[1]).toContain('Olivia Oncall');
    expect(cells[1]).toContain(ofAlert.find((n: any) => n.channel === 'email').to);
    expect(cells[2]).toBe('E-mail');
    expect(cells[3]).toBe('alert_alert');
    expect(cells[4]).toBe('sent');
    // The welcome messages are in the outbox too.
    expect(await page.locator('tbody tr', { hasText: 'welcome' }).count()).toBeGreaterThanOrEqual(2);

    // Filters: one channel, one person, one template; each is what the API answers for it.
    await page.getByLabel('Channel').selectOption('push');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().getAttribute('data-channel')).toBe('push');
    expect(page.url()).toContain('channel=push');
    await page.getByLabel('Channel').selectOption('');
    await page.getByLabel('Person').selectOption({ label: 'Sam Spare' });
    await expect.poll(() => page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('welcome')]);
    await page.getByLabel('Person').selectOption('');
    await page.getByLabel('Template').selectOption('alert_alert');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);

    await email.getByRole('link', { name: /^Open alert: / }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(title) }).waitFor();
    expect(page.url()).toContain(`#/alerts/${ids.alert}`);
  });

  it('lists the alert’s notifications on its page, and a new one appears there without a reload', async () => {
    const section = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: 'Notifications' }) });
    await expect.poll(() => section.locator('tbody tr').count()).toBe(2);
    expect(await section.textContent()).toContain('Olivia Oncall');
    expect((await section.locator('tbody tr').allTextContents()).every((row) => row.includes('alert_alert'))).toBe(true);
    await page.evaluate('window.__sameDocument = true');

    // A hand-off to Sam pages him: his notifications join the section with the page's polling.
    const handoff = await h.service.admin.post(`/alert/${ids.alert}/handoff`, { to: ids.samUser });
    expect(handoff.status, handoff.text).toBe(200);
    await expect.poll(() => section.locator('tbody tr', { hasText: 'Sam Spare' }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    const api = await h.service.admin.get(`/api/v4/notifications?alert_id=${ids.alert}&limit=100`);
    await expect.poll(() => section.locator('tbody tr').count()).toBe(api.body.total_count);
    const sms = section.locator('tbody tr[data-channel="sms"]');
    await expect.poll(() => sms.locator('td').nth(4).textContent()).toBe('failedthe person has no phone number');
    expect(await sms.locator('td').nth(1).textContent()).toBe('Sam Spare');
  });

  it('searches the outbox and pages through it', async () => {
    await open('#/notifications', 'Notifications');
    await page.getByLabel('Search').fill('no-such-text-anywhere');
    await page.getByText('No notifications match.').waitFor();
    expect(page.url()).toContain('q=no-such-text-anywhere');
    await page.getByLabel('Search').fill('');
    await page.locator('tbody tr').first().waitFor();
    // More than a page: alerts for Sam directly, two or three notifications each.
    for (let i = 0; i < 9; i++) {
      const created = await h.service.admin.post('/api/v4/alerts', {
        title: `Paging ${i}`,
        urgency: 'low',
        destination_account_user_ids: [ids.sam],
      });
      expect(created.status).toBe(201);
    }
    let total = 0;
    await expect
      .poll(async () => (total = (await h.service.admin.get('/api/v4/notifications?limit=1')).body.total_count), { timeout: 15_000 })
      .toBeGreaterThan(25);
    await expect
      .poll(() => page.locator('#notifications-summary').textContent(), { timeout: 10_000 })
      .toMatch(/^\d+ notifications, newest first$/);
    const pager = page.getByRole('navigation', { name: 'Pages of notifications' });
    await pager.waitFor();
    expect(await page.locator('tbody tr').count()).toBe(25);
    const firstPage = await page.locator('tbody tr').first().getAttribute('data-notification-id');
    await pager.getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => page.locator('tbody tr').first().getAttribute('data-notification-id')).not.toBe(firstPage);
    expect(page.url()).toContain('page=2');
    expect(await pager.textContent()).toContain('Page 2 of');
    expect(total).toBeGreaterThan(25);
  });

  it('creates a router from the page: a YAML fault shown beside the field with its line marked, then the router saved as written', async () => {
    await open('#/routers', 'Routers');
    await page.getByText('No routers yet.').waitFor();
    const rules = page.getByLabel('Rules (YAML)');
    // The new router starts from the service's template.
    await expect.poll(() => rules.inputValue()).toContain('rules:');

    await page.getByLabel('Name', { exact: true }).fill('Payments');
    await rules.fill('rules:\n  - match:\n      alert.urgency: critical\n    actions:\n      - type: explode\n');
    await page.getByRole('button', { name: 'Create router' }).click();

    await expect.poll(() => rules.getAttribute('aria-invalid')).toBe('true');

    const describedBy = (await rules.getAttribute('aria-describedby'))!;
    const error = page.locator(`#${describedBy.split(' ')[0]}`);
    expect(await error.textContent()).toMatch(/^rules\[0\]\.actions\[0\]\.type is not a known action: explode .*\(line 5, column \d+\)/);
    // The field at fault takes the focus; its line is marked in the gutter.
    expect(await page.evaluate('document.activeElement.tagName')).toBe('TEXTAREA');
    expect(await page.locator('.yaml-gutter .yaml-line-error').allTextContents()).toEqual(['5']);
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect((await h.service.admin.get('/api/v4/routers')).body.total_count).toBe(0);

    // The message's button puts the cursor on the line at fault.
    await page.getByRole('button', { name: /Go to line 5, column/ }).click();
    const caret = await page.evaluate<number>(
      '(() => { const t = document.activeElement; return t.value.slice(0, t.selectionStart).split("\\n").length; })()',
    );
    expect(caret).toBe(5);

    const yaml = `rules:\n  - match:\n      alert.urgency: critical\n    actions:\n      - type: assign\n        receiver: ${ids.teamPrefix}\n      - type: setval\n        map: {title: "[P1] {{alert.title}}"}\n`;
    await rules.fill(yaml);
    // No default receiver chosen: said beside the first of them; the rules are now fine.
    await page.getByRole('button', { name: 'Create router' }).click();
    const defaultTeam = page.getByLabel('Default team');
    await expect.poll(() => defaultTeam.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await defaultTeam.getAttribute('aria-describedby')}`).textContent()).toMatch(
      /must name at least one default receiver$/,
    );
    expect(await rules.getAttribute('aria-invalid')).toBeNull();
    await defaultTeam.selectOption({ label: 'Desk' });
    await page.getByRole('button', { name: 'Create router' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    const listed = await h.service.admin.get('/api/v4/routers');
    expect(listed.body.total_count).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ name: 'Payments', enabled: true, rules: yaml, default_receiver_team_id: ids.team });
    ids.router = listed.body.data[0].id;
    expect(page.url()).toContain(`#/routers/${ids.router}`);
    expect(await page.getByLabel('Rules (YAML)').inputValue()).toBe(yaml);
  });

  it('runs the dry run: the rule that matched with its conditions, the actions and the assignment; then a rule that does not match', async () => {
    await page.getByLabel('Alert title').fill('Checkout down');
    await page.getByLabel('Alert urgency').selectOption('critical');
    await page.getByRole('button', { name: 'Run dry run' }).click();
    const outcome = page.locator('.dry-run-result .outcome');
    await expect.poll(() => outcome.textContent()).toBe('Rule 1 matched.');
    const why = page.getByRole('table', { name: 'Why rule 1 matched' });
    expect(await why.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['alert.urgency', 'critical', 'critical', 'Yes']);
    expect(await page.locator('.plan-actions li').allTextContents()).toEqual([
      expect.stringMatching(/^assign/),
      expect.stringContaining('[P1] Checkout down'),
    ]);
    expect(await page.locator('.plan-assignments li').allTextContents()).toEqual(['Team Desk at once']);
    expect(await page.locator('.dry-run-result .fields').textContent()).toContain('[P1] Checkout down');
    // A dry run changes nothing.
    expect((await h.service.admin.get('/api/v4/alerts?limit=100')).body.data.some((a: any) => a.title.includes('Checkout down'))).toBe(
      false,
    );

    await page.getByLabel('Alert urgency').selectOption('low');
    await page.getByRole('button', { name: 'Run dry run' }).click();
    await expect.poll(() => outcome.textContent()).toBe('No rule matched: the alert goes to the default receivers.');
    expect(await page.locator('.tried li').allTextContents()).toEqual(['Rule 1 did not match: alert.urgency expected critical, saw low']);
  });

  it('edits the router and disables it from the list', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Payments and checkout');
    await page.getByRole('button', { name: 'Save router' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments and checkout' }).waitFor();
    expect((await h.service.admin.get(`/api/v4/routers/${ids.router}`)).body.name).toBe('Payments and checkout');

    await open('#/routers', 'Routers');
    const row = page.locator(`tr[data-router-id="${ids.router}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Team Desk');
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await h.service.admin.get(`/api/v4/routers/${ids.router}`)).body.enabled).toBe(false);

    // Deleting asks first; declined, nothing changes; accepted, the router is gone.
    const doomed = await h.service.admin.post('/api/v4/routers', { name: 'Doomed', default_receiver_account_user_id: ids.sam });
    await open(`#/routers/${doomed.body.id}`, 'Doomed');
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Delete router' }).click();
    expect((await h.service.admin.get(`/api/v4/routers/${doomed.body.id}`)).status).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete router' }).click();
    await page.getByRole('heading', { level: 1, name: 'Routers' }).waitFor();
    expect((await h.service.admin.get(`/api/v4/routers/${doomed.body.id}`)).status).toBe(404);
  });

  it('sends an integration’s alerts to the router, chosen on the integration’s page; the alert names the router', async () => {
    const hook = (await h.service.admin.get(`/api/v4/integrations/${ids.hook}`)).body;
    await open(`#/integrations/${hook.id}`, 'Hook');
    await page.getByRole('group', { name: 'Send alerts to routers' }).getByLabel('Payments and checkout').check();
    await page.getByRole('button', { name: 'Save integration' }).click();
    await expect.poll(async () => (await h.service.admin.get(`/api/v4/integrations/${hook.id}`)).body.router_ids).toEqual([ids.router]);

    const routed = await h.service.admin.post('/api/v4/alerts', {
      title: 'Routed alert',
      urgency: 'low',
      destination_router_ids: [ids.router],
    });
    expect(routed.status, routed.text).toBe(201);
    await open(`#/alerts/${routed.body.id}`, /Routed alert/);
    const link = page.getByRole('link', { name: 'Router Payments and checkout' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`#/routers/${ids.router}`);
  });

  it('shows each person’s notification rule on the Users page, and the rule’s content on the Profile page', async () => {
    await open('#/users', 'Users');
    await expect.poll(() => page.locator('tbody').textContent()).toContain('Push first');
    const rows = await page.locator('tbody tr').allTextContents();
    expect(rows.filter((r) => r.includes('Push first'))).toHaveLength(1);
    expect(rows.find((r) => r.includes('Olivia Oncall'))).toContain('None: default channels');

    await open('#/profile', 'Profile');
    const card = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: 'Notification rule' }) });
    await expect.poll(() => card.getByRole('region', { name: 'Rules of Push first' }).textContent()).toBe(RULE_YAML);

    // The person picks no rule: the API records it, and the page says the default channels apply.
    await card.getByLabel('Notification rule', { exact: true }).selectOption('');
    await card.getByRole('button', { name: 'Use this rule' }).click();
    await expect.poll(async () => (await h.service.admin.get(`/api/v4/account_users/${ids.admin}`)).body.notification_rule_id).toBeNull();
    await expect.poll(() => card.textContent()).toContain('None: pages go out on the notification channels');
    await card.getByLabel('Notification rule', { exact: true }).selectOption({ label: 'Push first' });
    await card.getByRole('button', { name: 'Use this rule' }).click();
    await expect
      .poll(async () => (await h.service.admin.get(`/api/v4/account_users/${ids.admin}`)).body.notification_rule_id)
      .toBe(ids.rule);
  });

  it('edits a notification rule’s YAML, with the API’s message next to the field', async () => {
    await open(`#/notification-rules/${ids.rule}`, 'Push first');
    const rules = page.getByLabel('Rules (YAML)');
    expect(await rules.inputValue()).toBe(RULE_YAML);
    await rules.fill(RULE_YAML.replace('[push]', '[pigeon]'));
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => rules.getAttribute('aria-invalid')).toBe('true');
    const error = page.locator(`#${(await rules.getAttribute('aria-describedby'))!.split(' ')[0]}`);
    expect(await error.textContent()).toMatch(/rules\[0\]\.actions\[0\]\.channels\[0\] is not a channel .*"pigeon" \(line 7, column \d+\)/);
    expect((await h.service.admin.get(`/api/v4/notification_rules/${ids.rule}`)).body.rules).toBe(RULE_YAML);
    const fixed = RULE_YAML.replace('[push]', '[push, email]');
    await rules.fill(fixed);
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(async () => (await h.service.admin.get(`/api/v4/notification_rules/${ids.rule}`)).body.rules).toBe(fixed);

    // Trying the saved rule: which channels a page would use, and when.
    await page.getByLabel('Alert urgency').selectOption('critical');
    await page.getByRole('button', { name: 'Try it' }).click();
    const outcome = page.locator('.dry-run-result .outcome');
    await expect.poll(() => outcome.textContent()).toBe('Rule 1 matched.');
    expect(await page.locator('.trial-steps li').allTextContents()).toEqual(['At once: Push, E-mail']);
    await page.getByLabel('Alert urgency').selectOption('low');
    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => outcome.getAttribute('data-reason')).toBe('no_match');
    expect(await outcome.textContent()).toBe('No rule matched: the default channels are used.');
  });

  it('has no serious or critical axe-core violation on the new pages, with their content and messages shown', async () => {
    const found: Record<string, unknown> = {};
    const check = async (name: string) => {
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      const violations = await seriousViolations(page);
      if (violations.length) found[name] = violations;
    };
    await open('#/notifications', 'Notifications');
    await page.locator('tbody tr').first().waitFor();
    await check('notifications');
    await open(`#/alerts/${ids.alert}`);
    await page.getByRole('heading', { level: 2, name: 'Notifications' }).waitFor();
    await check('alert');
    await open('#/routers', 'Routers');
    await page.locator('tbody tr').first().waitFor();
    await check('routers, with a validation message');
    await page.getByRole('button', { name: 'Create router' }).click();
    await page.locator('.field-error').first().waitFor();
    await check('routers');
    await open(`#/routers/${ids.router}`, 'Payments and checkout');
    await page.getByRole('button', { name: 'Run dry run' }).click();
    await page.locator('.dry-run-result .outcome').waitFor();
    await check('router with a dry run');
    await page.getByLabel('Rules (YAML)').fill('rules: [');
    await page.getByRole('button', { name: 'Save router' }).click();
    await page.locator('.yaml-line-error').first().waitFor();
    await check('router with a YAML fault');
    await open('#/notification-rules', 'Notification rules');
    await check('notification rules');
    await open(`#/notification-rules/${ids.rule}`, 'Push first');
    await check('notification rule');
    await open('#/users', 'Users');
    await check('users');
    await open(`#/users/${ids.olivia}`, 'Olivia Oncall');
    await check('user');
    await open('#/profile', 'Profile');
    await check('profile');
    expect(found).toEqual({});
  });

  it('shows a member the rules without editing them, runs their dry runs, and lets them pick their own rule', async () => {
    // Sam signs in with the password his welcome message carried (the local outbox keeps it).
    const welcome = outboxMessages().find((m) => m.to === ids.samEmail && m.template === 'welcome')!;
    const password = /Password: (\S+)/.exec(welcome.message)![1];
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(ids.samEmail);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await expect.poll(() => page.locator('.me').textContent()).toBe('Sam Spare');

    await open('#/routers', 'Routers');
    await page.locator(`tr[data-router-id="${ids.router}"]`).waitFor();
    expect(await page.getByRole('button', { name: /^(Enable|Disable)$/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'New router' }).count()).toBe(0);
    await open(`#/routers/${ids.router}`, 'Payments and checkout');
    expect(await page.getByRole('region', { name: 'Rules of Payments and checkout' }).textContent()).toContain('alert.urgency: critical');
    expect(await page.getByLabel('Rules (YAML)').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete router' }).count()).toBe(0);
    await page.getByLabel('Alert urgency').selectOption('critical');
    await page.getByRole('button', { name: 'Run dry run' }).click();
    // The router is disabled (the admin disabled it above): the dry run says so.
    await expect
      .poll(() => page.locator('.dry-run-result .outcome').textContent())
      .toBe('The router is disabled: the alert goes to its default receivers.');
    expect(await seriousViolations(page)).toEqual([]);

    await open('#/profile', 'Profile');
    const card = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: 'Notification rule' }) });
    await card.getByLabel('Notification rule', { exact: true }).selectOption({ label: 'Push first' });
    await card.getByRole('button', { name: 'Use this rule' }).click();
    await expect.poll(async () => (await h.service.admin.get(`/api/v4/account_users/${ids.sam}`)).body.notification_rule_id).toBe(ids.rule);
    await expect.poll(() => card.getByRole('region', { name: 'Rules of Push first' }).textContent()).toContain('channels: [push, email]');
    expect(await seriousViolations(page)).toEqual([]);

    await open(`#/notification-rules/${ids.rule}`, 'Push first');
    expect(await page.getByLabel('Rules (YAML)').count()).toBe(0);
    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => page.locator('.dry-run-result .outcome').getAttribute('data-reason')).toBe('matched');
  });

  it('ran without a page error or a Content-Security-Policy violation', () => {
    // Allowed: the deliberate refusals the browser logs (the validation errors, 422).
    expect(h.problems.filter((p) => !/status of 422 /.test(p))).toEqual([]);
  });
});
