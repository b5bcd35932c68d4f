// A team's chat webhooks on the console's team page, in a real browser (Debian's Chromium) against the
// real local service (docs/api.md#chat-webhooks): rows added, saved and removed with the keyboard and
// labels alone, the API's message about one row shown next to that row's field, the saved webhook
// receiving the card of the team's next alert, a member who may not edit the team seeing each chat
// and its host but not the webhook's secret path, and axe-core on each state of the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { startHttpTarget, type HttpTarget } from '../support/http-target';
import { chromiumMissing, seriousViolations, sessionTokenOf, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

let h: ConsoleHarness;
let page: Page;
let target: HttpTarget;
let teamId: string;
let memberToken: string;

async function open(hash: string, heading: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const chats = () => page.getByRole('group', { name: 'Chat webhooks' });

describe.skipIf(chromiumMissing !== null)('chat webhooks on the team page', () => {
  beforeAll(async () => {
    target = await startHttpTarget();
    // The receiver is on loopback: allowed as the outgoing webhook tests allow it.
    h = await startConsole({ env: { ALLOW_PRIVATE_AUTOMATION_TARGETS: 'true' } });
    page = h.page;
    const { accountUser } = await createMember(h.service.admin, { name: 'Cora Chat' });
    const reader = await createMember(h.service.admin, { name: 'Rex Reader' });
    memberToken = await sessionTokenOf(reader.accountUser);
    const team = await h.service.admin.post('/api/v4/teams', {
      name: 'Chat Desk',
      member_account_user_ids: [accountUser.id, reader.accountUser.id],
      admin_account_user_ids: [accountUser.id],
    });
    expect(team.status, team.text).toBe(201);
    teamId = team.body.id;
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
    await target?.close();
  });

  it('adds two chats and saves them; the team’s next alert is posted to the one on the receiver', async () => {
    await open(`#/teams/${teamId}`, 'Chat Desk');
    expect(await chats().getByText('No chat webhooks.').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await chats().getByRole('button', { name: 'Add a chat webhook' }).click();
    await page.getByLabel('Chat 1', { exact: true }).selectOption({ label: 'Microsoft Teams (Workflows)' });
    await page.getByLabel('Webhook URL 1', { exact: true }).fill(`${target.url}/teams-flow`);
    await chats().getByRole('button', { name: 'Add a chat webhook' }).click();
    await page.getByLabel('Chat 2', { exact: true }).selectOption({ label: 'Discord' });
    await page.getByLabel('Webhook URL 2', { exact: true }).fill('https://discord.com/api/webhooks/123/s3cr3t-token');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save team' }).click();
    await page.getByText('Saved.').waitFor();

    const saved = (await h.service.admin.get(`/api/v4/teams/${teamId}`)).body;
    expect(saved.chat_webhooks).toEqual([
      { type: 'msteams', url: `${target.url}/teams-flow` },
      { type: 'discord', url: 'https://discord.com/api/webhooks/123/s3cr3t-token' },
    ]);

    const alert = await h.service.admin.post('/api/v4/alerts', {
      title: 'Card from the console',
      urgency: 'critical',
      destination_team_ids: [teamId],
    });
    expect(alert.status).toBe(201);
    // Nobody is on call for the team, so a follow-up saying it was dropped may come too: find the card.
    const cardOf = (body: string) => JSON.parse(body).attachments[0].content;
    const cards = () => target.received.filter((r) => r.url === '/teams-flow' && cardOf(r.body).body[0].type === 'Container');
    await expect.poll(() => cards().length, { timeout: 15_000 }).toBe(1);
    const [posted] = cards();
    const card = cardOf(posted.body);
    expect(card.type).toBe('AdaptiveCard');
    expect(card.body[0].items[0].text).toBe(`#${alert.body.tiny_id} Card from the console`);
    expect(card.actions[0].url).toBe(`${h.service.url}/#/alerts/${alert.body.id}`);
  });

  it('shows the API’s message next to the row at fault, and changes nothing', async () => {
    await page.getByLabel('Webhook URL 2', { exact: true }).fill('ftp://discord.com/api/webhooks/123/other');
    await page.getByRole('button', { name: 'Save team' }).click();
    const field = page.getByLabel('Webhook URL 2', { exact: true });
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toBe('chat_webhooks[1].url must be an https URL');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe(await field.getAttribute('id'));
    expect(await page.getByLabel('Webhook URL 1', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    expect((await h.service.admin.get(`/api/v4/teams/${teamId}`)).body.chat_webhooks[1].url).toBe(
      'https://discord.com/api/webhooks/123/s3cr3t-token',
    );
  });

  it('removes a row with the keyboard and saves the rest', async () => {
    await chats().getByRole('button', { name: 'Remove chat webhook 2' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('Webhook URL 2', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save team' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await h.service.admin.get(`/api/v4/teams/${teamId}`)).body.chat_webhooks).toEqual([
      { type: 'msteams', url: `${target.url}/teams-flow` },
    ]);
  });

  it('shows a member who may not edit the team each chat and its host, never the webhook’s path', async () => {
    await h.service.admin.put(`/api/v4/teams/${teamId}`, {
      chat_webhooks: [
        { type: 'slack', url: 'https://hooks.slack.com/services/T0/B0/s3cr3t-token' },
        { type: 'google_chat', url: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=s3cr3t' },
      ],
    });
    await page.evaluate(`sessionStorage.setItem("oncall.session", ${JSON.stringify(memberToken)})`);
    await page.reload();
    await open(`#/teams/${teamId}`, 'Chat Desk');
    expect(await page.getByRole('button', { name: 'Save team' }).count()).toBe(0);
    const shown = page.locator('dl.fields');
    await expect.poll(() => shown.textContent()).toContain('Slack (hooks.slack.com), Google Chat (chat.googleapis.com)');
    expect(await page.locator('main').textContent()).not.toContain('s3cr3t');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
