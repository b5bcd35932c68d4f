// Slack in the console, in a real browser (Debian's Chromium) against the real local service, whose
// Slack client (Slack's SDK) is pointed by SLACK_API_URL at the stand-in (test/support/slack-stand-in.ts),
// with a Slack app of the deployment's own so that "Add to Slack" is offered (docs/api.md#slack): an
// admin connects a workspace with a bot token (Slack's refusal shown on the token's field) and sees
// it, never the token; sets a person's Slack user id and the Slack channel (Users page, Profile) and a
// team's Slack channel (team page), each checked by a page or a post at the stand-in; disconnects
// after confirming; installs through "Add to Slack" and Slack's authorize page; a member sees whether
// Slack is connected and nothing to change. axe-core on each state of the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../support/api-client';
import { ADMIN_EMAIL } from '../support/runtime';
import { SlackStandIn, slackAppEnv, type Workspace } from '../support/slack-stand-in';
import { team } from '../escalation/support';
import { textOf } from '../slack/support';
import { chromiumMissing, seriousViolations, sessionTokenOf, signInAsAdmin, startConsole, type ConsoleHarness } from './support/browser';

let h: ConsoleHarness;
let page: Page;
let standIn: SlackStandIn;
let workspace: Workspace;
let person: { id: string; email: string };
let memberToken: string;

/** Opens a page afresh (reloaded when it is open already: what the API says now, not what it loaded before). */
async function open(hash: string, heading: string): Promise<void> {
  if ((await page.evaluate('window.location.hash')) === hash) await page.reload();
  else await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page
    .locator('.loading')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

/** Arranges the account's connection through the API: connected to `to`, or (null) not connected. */
async function connectionIs(to: Workspace | null): Promise<void> {
  const res = to
    ? await h.service.admin.put('/api/v4/slack', { bot_token: to.botToken, signing_secret: to.signingSecret })
    : await h.service.admin.delete('/api/v4/slack');
  expect([200, 204, 404], res.text).toContain(res.status);
}

const workspaceCard = () => page.getByRole('region', { name: 'Connected workspace' });
const connection = async () => {
  const res = await h.service.admin.get('/api/v4/slack');
  return res.status === 200 ? res.body : null;
};

/** The message the field's aria-describedby names (its error first, then its hint). */
async function errorOf(label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true });
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const [errorId] = (await field.getAttribute('aria-describedby'))!.split(' ');
  return (await page.locator(`#${errorId}`).textContent()) ?? '';
}

describe.skipIf(chromiumMissing !== null)('Slack in the console', () => {
  beforeAll(async () => {
    standIn = await SlackStandIn.start();
    workspace = standIn.addWorkspace('Acme Ops');
    h = await startConsole({ env: slackAppEnv(standIn) });
    page = h.page;
    const created = await createMember(h.service.admin, { name: 'Sam Slack' });
    person = { id: created.accountUser.id, email: created.accountUser.user.emails[0].email };
    const reader = await createMember(h.service.admin, { name: 'Rita Reader' });
    memberToken = await sessionTokenOf(reader.accountUser);
    await signInAsAdmin(h);
  });

  afterAll(async () => {
    await h?.stop();
    await standIn?.close();
  });

  it('connects with a bot token: Slack’s refusal is shown on the token’s field, then the workspace, never the token', async () => {
    await connectionIs(null);
    await open('#/alerts', 'Alerts');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slack' }).click();
    await page.getByRole('heading', { level: 1, name: 'Slack' }).waitFor();
    await page.getByText('Slack is not connected.').waitFor();
    expect(await page.getByRole('button', { name: 'Disconnect Slack' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // A token Slack refuses: auth.test answers invalid_auth, and the API's 422 names bot_token.
    await page.getByLabel('Bot token', { exact: true }).fill('xoxb-1-not-a-real-token');
    await page.getByLabel('Signing secret', { exact: true }).fill(workspace.signingSecret);
    await page.getByRole('button', { name: 'Connect Slack' }).click();
    expect(await errorOf('Bot token')).toBe('bot_token was refused by Slack (auth.test: invalid_auth)');
    expect(await page.getByLabel('Signing secret', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe(
      await page.getByLabel('Bot token', { exact: true }).getAttribute('id'),
    );
    expect(standIn.callsOf('auth.test').at(-1)!.token).toBe('xoxb-1-not-a-real-token');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await connection()).toBeNull();

    // Not a bot token at all: refused before Slack is asked.
    const asked = standIn.callsOf('auth.test').length;
    await page.getByLabel('Bot token', { exact: true }).fill('xoxp-123-456');
    await page.getByRole('button', { name: 'Connect Slack' }).click();
    expect(await errorOf('Bot token')).toMatch(/^bot_token must be a Slack bot token/);
    expect(standIn.callsOf('auth.test')).toHaveLength(asked);

    await page.getByLabel('Bot token', { exact: true }).fill(workspace.botToken);
    await page.getByRole('button', { name: 'Connect Slack' }).click();
    await page.getByText('Connected to the Slack workspace Acme Ops.').waitFor();
    const card = workspaceCard();
    await card.waitFor();
    const shown = (await card.textContent()) ?? '';
    expect(shown).toContain('Acme Ops');
    expect(shown).toContain(workspace.teamId);
    expect(shown).toContain(workspace.botUserId);
    expect(await connection()).toMatchObject({ team_id: workspace.teamId, team_name: 'Acme Ops', bot_user_id: workspace.botUserId });
    // The secrets left the form and appear nowhere on the page.
    expect(await page.getByLabel('Bot token', { exact: true }).inputValue()).toBe('');
    const html = await page.content();
    expect(html).not.toContain(workspace.botToken);
    expect(html).not.toContain(workspace.signingSecret);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sets a person’s Slack user id and Slack as their notification channel on the Users page; their next page is a Slack DM', async () => {
    await connectionIs(workspace);
    const slackUserId = standIn.addUser(workspace, person.email, 'Sam Slack');
    await open(`#/users/${person.id}`, 'Sam Slack');
    await page.getByLabel('Slack user id', { exact: true }).fill('@sam');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await errorOf('Slack user id')).toMatch(/^slack_user_id must be a Slack user id such as U0123ABCD/);
    expect((await h.service.admin.get(`/api/v4/account_users/${person.id}`)).body.slack_user_id).toBeNull();

    await page.getByLabel('Slack user id', { exact: true }).fill(slackUserId);
    await page.getByLabel('Slack direct message', { exact: true }).check();
    await page.getByLabel('Push notifications', { exact: true }).uncheck();
    await page.getByLabel('E-mail', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const saved = (await h.service.admin.get(`/api/v4/account_users/${person.id}`)).body;
    expect(saved.slack_user_id).toBe(slackUserId);
    expect(saved.user.notify_slack).toBe(true);
    await expect.poll(() => page.locator('dl.fields').textContent()).toContain(slackUserId);
    expect(await page.locator('dl.fields').textContent()).toContain('Slack');
    expect(await seriousViolations(page)).toEqual([]);

    // What the console saved is what pages use: a page of this person is a direct message to that id.
    const onCall = await team(h.service.admin, { layers: [[person.id]] });
    const alert = await h.service.admin.post('/api/v4/alerts', {
      title: 'Paged by Slack',
      urgency: 'high',
      destination_team_ids: [onCall.id],
    });
    expect(alert.status).toBe(201);
    await expect.poll(() => standIn.messagesIn(slackUserId).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(standIn.messagesIn(slackUserId)[0].text).toContain('Paged by Slack');
  });

  it('sets the signed-in person’s own Slack user id on Profile', async () => {
    await open('#/profile', 'Profile');
    const mine = standIn.addUser(workspace, ADMIN_EMAIL, 'Admin');
    await page.getByLabel('Slack user id', { exact: true }).fill(mine);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const me = (await h.service.admin.get('/api/v4/account_users?limit=100')).body.data.find(
      (u: any) => u.user.emails[0]?.email === ADMIN_EMAIL,
    );
    expect(me.slack_user_id).toBe(mine);
    // The same id for another person is the API's 409, shown on the form.
    const other = await createMember(h.service.admin, { name: 'Otto Other' });
    await open(`#/users/${other.accountUser.id}`, 'Otto Other');
    await page.getByLabel('Slack user id', { exact: true }).fill(mine);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.notice-error').waitFor();
    expect(await page.locator('.notice-error').textContent()).toBe(`slack_user_id ${mine} is already linked to another account user`);
    expect((await h.service.admin.get(`/api/v4/account_users/${other.accountUser.id}`)).body.slack_user_id).toBeNull();
  });

  it('sets a team’s Slack channel next to its chat webhooks; the team’s next alert is posted there', async () => {
    await connectionIs(workspace);
    const channel = standIn.addChannel();
    const desk = await team(h.service.admin, { layers: [[person.id]] });
    await open(`#/teams/${desk.id}`, (await h.service.admin.get(`/api/v4/teams/${desk.id}`)).body.name);
    const field = page.getByLabel('Slack channel id', { exact: true });
    expect(await page.getByRole('group', { name: 'Chat webhooks' }).count()).toBe(1);
    await field.fill('#general');
    await page.getByRole('button', { name: 'Save team' }).click();
    expect(await errorOf('Slack channel id')).toMatch(/^slack_channel_id must be a Slack channel id such as C0123ABCD/);
    expect((await h.service.admin.get(`/api/v4/teams/${desk.id}`)).body.slack_channel_id).toBeNull();

    await field.fill(channel);
    await page.getByRole('button', { name: 'Save team' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await h.service.admin.get(`/api/v4/teams/${desk.id}`)).body.slack_channel_id).toBe(channel);
    expect(await seriousViolations(page)).toEqual([]);

    const alert = await h.service.admin.post('/api/v4/alerts', {
      title: 'Posted to the channel',
      urgency: 'high',
      destination_team_ids: [desk.id],
    });
    expect(alert.status).toBe(201);
    await expect.poll(() => standIn.messagesIn(channel).length, { timeout: 15_000 }).toBe(1);
    expect(textOf(standIn.messagesIn(channel)[0].blocks)).toContain('Posted to the channel');

    // Emptied: the team has no channel any more.
    await field.fill('');
    await page.getByRole('button', { name: 'Save team' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await h.service.admin.get(`/api/v4/teams/${desk.id}`)).body.slack_channel_id).toBeNull();
  });

  it('disconnects only after the admin confirms', async () => {
    await connectionIs(workspace);
    await open('#/slack', 'Slack');
    await workspaceCard().waitFor();
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Disconnect Slack' }).click();
    await expect.poll(() => questions.length).toBe(1);
    expect(questions[0]).toMatch(/^Disconnect the Slack workspace Acme Ops\?/);
    expect(await connection()).not.toBeNull();
    expect(await workspaceCard().count()).toBe(1);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Disconnect Slack' }).click();
    await page.getByText('Disconnected from the Slack workspace Acme Ops.').waitFor();
    await page.getByText('Slack is not connected.').waitFor();
    expect(await workspaceCard().count()).toBe(0);
    expect(await connection()).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('installs through "Add to Slack": Slack’s authorize page, back to the service, and the console shows the workspace', async () => {
    const other = standIn.addWorkspace('Beta Crew');
    standIn.installInto(other);
    await open('#/slack', 'Slack');
    await page.getByRole('button', { name: 'Add to Slack' }).click();
    // Slack's page (the stand-in's), with the bot scopes and the service's redirect.
    await page.getByRole('heading', { name: /Beta Crew/ }).waitFor();
    const asked = standIn.authorizeRequests.at(-1)!;
    expect(asked.get('client_id')).toBe(standIn.app.clientId);
    expect(asked.get('scope')).toBe('chat:write,chat:write.public,commands,users:read,users:read.email');
    expect(asked.get('redirect_uri')).toBe(`${h.service.url}/public/slack/oauth`);
    await page.getByRole('link', { name: 'Allow' }).click();
    await page.getByRole('heading', { name: 'Slack is connected' }).waitFor();
    expect(await connection()).toMatchObject({ team_id: other.teamId, team_name: 'Beta Crew' });
    await page.getByRole('link', { name: 'Back to the console' }).click();
    await page.getByRole('heading', { level: 1, name: 'Slack' }).waitFor();
    await expect.poll(() => workspaceCard().textContent()).toContain('Beta Crew');
    expect(await workspaceCard().textContent()).toContain(other.teamId);
  });

  it('shows a member whether Slack is connected, without the link in the navigation or anything to change', async () => {
    const crew = standIn.addWorkspace('Gamma Crew');
    await connectionIs(crew);
    const adminToken = await page.evaluate<string>('sessionStorage.getItem("oncall.session")');
    await page.evaluate(`sessionStorage.setItem("oncall.session", ${JSON.stringify(memberToken)})`);
    await page.reload();
    try {
      await memberSeesConnection(crew);
    } finally {
      await page.evaluate(`sessionStorage.setItem("oncall.session", ${JSON.stringify(adminToken)})`);
      await page.reload();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    }
  });
});

async function memberSeesConnection(crew: Workspace): Promise<void> {
  // Once the directory has loaded (the name beside Sign out) the navigation knows the person's roles.
  await page.locator('.whoami .me').filter({ hasText: 'Rita Reader' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slack' }).count()).toBe(0);
  await open('#/slack', 'Slack');
  await expect.poll(() => workspaceCard().textContent()).toContain(crew.teamName);
  expect(await page.getByRole('button', { name: 'Disconnect Slack' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Add to Slack' }).count()).toBe(0);
  expect(await page.getByLabel('Bot token', { exact: true }).count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
}
