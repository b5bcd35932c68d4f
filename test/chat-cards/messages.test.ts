// The chat formats without a server (lib/chat-cards): each chat's card and follow-up against what that
// chat's public documentation requires of an incoming webhook's body, the Teams card through
// Microsoft's own Adaptive Cards object model, text from the alert escaped for each chat, and the
// checks of the URLs a team saves.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { alertCardPayload, cardColor, changeOf, followUpPayload, type AlertCard, type FollowUp } from '../../lib/chat-cards/messages';
import { CHAT_WEBHOOK_TYPES } from '../../lib/chat-cards/platforms';
import { chatWebhookFaults, shownWebhookUrl, webhookUrlSecrets } from '../../lib/chat-cards/webhook-urls';

// The package's ES build imports without file extensions, which Node refuses; its bundle is CommonJS.
const AdaptiveCards = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js') as typeof import('adaptivecards');

const LINK = 'https://oncall.example.com/#/alerts/01JZ0000000000000000000000';

function card(overrides: Partial<AlertCard['alert']> = {}, link: string | null = LINK): AlertCard {
  return {
    alert: {
      id: '01JZ0000000000000000000000',
      tiny_id: 42,
      title: 'Disk full on db-7',
      description: 'Only 2 % left on /var.',
      urgency: 'high',
      status: 'open',
      ...overrides,
    },
    team: 'Platform Ops',
    link,
    at: '2026-03-01T10:00:00.000Z',
  };
}

const followUp = (overrides: Partial<FollowUp> = {}): FollowUp => ({
  alert: card().alert,
  link: LINK,
  change: 'acknowledged',
  by: 'Alice Smith',
  ...overrides,
});

type Json = Record<string, any>;

/** Parses an Adaptive Card with the renderer's object model: its warnings (unknown element types, values outside an
 * enum, a required property missing) and the version it read. */
function parseAdaptiveCard(content: Json): { warnings: string[]; version: string } {
  const parsed = new AdaptiveCards.AdaptiveCard();
  const context = new AdaptiveCards.SerializationContext();
  parsed.parse(content, context);
  const warnings: string[] = [];
  for (let i = 0; i < context.eventCount; i++) warnings.push(context.getEventAt(i).message);
  warnings.push(...parsed.validateProperties().validationEvents.map((event) => event.message));
  return { warnings, version: parsed.version?.toString() ?? '' };
}

/** What the Adaptive Card schema requires of the elements we use (adaptivecards.io schema explorer). */
function requiredFieldFaults(content: Json): string[] {
  const faults: string[] = [];
  if (content.type !== 'AdaptiveCard') faults.push('type must be AdaptiveCard');
  if (typeof content.version !== 'string') faults.push('a top-level card needs its version');
  const walk = (element: Json, path: string) => {
    if (typeof element.type !== 'string') faults.push(`${path}.type is required`);
    if (element.type === 'TextBlock' && typeof element.text !== 'string') faults.push(`${path}.text is required`);
    if (element.type === 'FactSet') {
      if (!Array.isArray(element.facts)) faults.push(`${path}.facts is required`);
      for (const fact of element.facts ?? [])
        if (typeof fact.title !== 'string' || typeof fact.value !== 'string') faults.push(`${path}: a fact needs title and value`);
    }
    if (element.type === 'Container') (element.items ?? []).forEach((item: Json, i: number) => walk(item, `${path}.items[${i}]`));
    if (element.type === 'Action.OpenUrl' && typeof element.url !== 'string') faults.push(`${path}.url is required`);
  };
  (content.body ?? []).forEach((element: Json, i: number) => walk(element, `body[${i}]`));
  (content.actions ?? []).forEach((action: Json, i: number) => walk(action, `actions[${i}]`));
  return faults;
}

describe('the card of an alert assigned to the team', () => {
  it('Microsoft Teams: a message whose one attachment is an Adaptive Card 1.4 the Workflows webhook posts as it is', () => {
    const body = alertCardPayload('msteams', card());
    expect(body.type).toBe('message');
    expect(body.attachments).toHaveLength(1);
    const [attachment] = body.attachments as Json[];
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const content = attachment.content as Json;
    expect(content).toMatchObject({ type: 'AdaptiveCard', version: '1.4', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
    expect(requiredFieldFaults(content)).toEqual([]);
    expect(parseAdaptiveCard(content)).toEqual({ warnings: [], version: '1.4' });
    const texts = JSON.stringify(content.body);
    expect(texts).toContain('#42 Disk full on db-7');
    const facts = content.body.find((element: Json) => element.type === 'FactSet').facts;
    expect(facts).toEqual([
      { title: 'Urgency', value: 'High' },
      { title: 'Status', value: 'Open' },
      { title: 'Team', value: 'Platform Ops' },
    ]);
    expect(content.body[0]).toMatchObject({ type: 'Container', style: 'attention' });
    expect(content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in the console', url: LINK }]);
  });

  it('Microsoft Teams: every status and urgency gives a card the object model reads without a warning', () => {
    for (const status of ['open', 'acknowledged', 'resolved', 'dropped', 'archived']) {
      for (const urgency of ['silent', 'low', 'medium', 'high', 'critical']) {
        const content = (alertCardPayload('msteams', card({ status, urgency })).attachments as Json[])[0].content;
        expect(parseAdaptiveCard(content).warnings, `${status}/${urgency}`).toEqual([]);
        expect(requiredFieldFaults(content)).toEqual([]);
      }
    }
    // The check can fail: a style outside the schema's enum is reported.
    const broken = { ...(alertCardPayload('msteams', card()).attachments as Json[])[0].content };
    broken.body = [{ type: 'TextBlock', text: 'x', color: 'Purple' }];
    broken.actions = [{ type: 'Action.OpenUrl', title: 'no url' }];
    expect(parseAdaptiveCard(broken).warnings).toEqual([expect.stringContaining('Purple'), 'Property "url" must be set.']);
  });

  it('Slack: one legacy attachment with a color bar, title, title_link and short fields', () => {
    const body = alertCardPayload('slack', card());
    const [attachment] = body.attachments as Json[];
    expect(attachment).toMatchObject({
      fallback: '#42 Disk full on db-7 (high, open)',
      color: '#E53935',
      title: '#42 Disk full on db-7',
      title_link: LINK,
      text: 'Only 2 % left on /var.',
      ts: Date.parse('2026-03-01T10:00:00.000Z') / 1000,
    });
    expect(attachment.fields).toEqual([
      { title: 'Urgency', value: 'High', short: true },
      { title: 'Status', value: 'Open', short: true },
      { title: 'Team', value: 'Platform Ops', short: true },
    ]);
  });

  it('Mattermost: the same attachment, with its required fallback', () => {
    const [attachment] = alertCardPayload('mattermost', card()).attachments as Json[];
    expect(typeof attachment.fallback).toBe('string');
    expect(attachment).toMatchObject({ color: '#E53935', title: '#42 Disk full on db-7', title_link: LINK });
    expect(attachment.fields.map((f: Json) => f.title)).toEqual(['Urgency', 'Status', 'Team']);
  });

  it('Google Chat: cardsV2 with an id, a header and a section of widgets whose button opens the console', () => {
    const body = alertCardPayload('google_chat', card());
    const [entry] = body.cardsV2 as Json[];
    expect(entry.cardId).toBe('alert-01JZ0000000000000000000000');
    expect(entry.card.header).toEqual({ title: '#42 Disk full on db-7', subtitle: 'High urgency · open' });
    const widgets = entry.card.sections[0].widgets as Json[];
    expect(widgets.slice(0, 3)).toEqual([
      { decoratedText: { topLabel: 'Urgency', text: 'High' } },
      { decoratedText: { topLabel: 'Status', text: 'Open' } },
      { decoratedText: { topLabel: 'Team', text: 'Platform Ops' } },
    ]);
    expect(widgets).toContainEqual({ textParagraph: { text: 'Only 2 % left on /var.' } });
    expect(widgets.at(-1)).toEqual({ buttonList: { buttons: [{ text: 'Open in the console', onClick: { openLink: { url: LINK } } }] } });
  });

  it('Discord: one embed (title, url, decimal color, inline fields) with mentions switched off', () => {
    const body = alertCardPayload('discord', card());
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds as Json[];
    expect(embed).toMatchObject({ title: '#42 Disk full on db-7', url: LINK, color: 0xe53935, timestamp: '2026-03-01T10:00:00.000Z' });
    expect(embed.fields).toEqual([
      { name: 'Urgency', value: 'High', inline: true },
      { name: 'Status', value: 'Open', inline: true },
      { name: 'Team', value: 'Platform Ops', inline: true },
    ]);
  });

  it('leaves the link out everywhere when the deployment has no console address', () => {
    const bodies = Object.fromEntries(CHAT_WEBHOOK_TYPES.map((type) => [type, alertCardPayload(type, card({}, null))]));
    for (const body of Object.values(bodies)) expect(JSON.stringify(body)).not.toContain('https://');
    expect((bodies.msteams.attachments as Json[])[0].content.actions).toBeUndefined();
    expect((bodies.slack.attachments as Json[])[0].title_link).toBeUndefined();
  });

  it('keeps within the chats’ limits: a long title and description are cut', () => {
    const long = card({ title: 'T'.repeat(5_000), description: 'D'.repeat(20_000) });
    const [embed] = alertCardPayload('discord', long).embeds as Json[];
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    for (const type of CHAT_WEBHOOK_TYPES) expect(JSON.stringify(alertCardPayload(type, long)).length).toBeLessThan(4_000);
  });

  it('colors by status once someone acted, else by urgency', () => {
    expect(cardColor({ status: 'open', urgency: 'critical' })).toBe('#B71C1C');
    expect(cardColor({ status: 'open', urgency: 'low' })).toBe('#1E88E5');
    expect(cardColor({ status: 'acknowledged', urgency: 'critical' })).toBe('#F9A825');
    expect(cardColor({ status: 'resolved', urgency: 'critical' })).toBe('#2E7D32');
    expect(cardColor({ status: 'dropped', urgency: 'high' })).toBe('#757575');
  });
});

describe('text from the alert', () => {
  const hostile = card({ title: '<!channel> @here <users/all> [win](https://evil.example) & more', description: '@all <b>x</b>' });

  it('cannot mention a channel or forge a link in Slack (&, < and > escaped)', () => {
    const [attachment] = alertCardPayload('slack', hostile).attachments as Json[];
    expect(attachment.title).toBe('#42 &lt;!channel&gt; @here &lt;users/all&gt; [win](https://evil.example) &amp; more');
    expect(attachment.text).toBe('@all &lt;b&gt;x&lt;/b&gt;');
  });

  it('cannot mention anyone in Mattermost (@-mentions broken)', () => {
    const [attachment] = alertCardPayload('mattermost', hostile).attachments as Json[];
    expect(attachment.title).not.toMatch(/@here/);
    expect(attachment.text).toBe('@\u200ball <b>x</b>');
  });

  it('is plain text in Google Chat widgets (HTML escaped)', () => {
    const widgets = (alertCardPayload('google_chat', hostile).cardsV2 as Json[])[0].card.sections[0].widgets as Json[];
    expect(widgets).toContainEqual({ textParagraph: { text: '@all &lt;b&gt;x&lt;/b&gt;' } });
  });

  it('cannot forge a link in Teams, Discord or Mattermost markdown, and keeps brackets as they were', () => {
    const broken = '[win]\u200b(https://evil.example)';
    const teams = (alertCardPayload('msteams', hostile).attachments as Json[])[0].content;
    expect(teams.body[0].items[0].text).toContain(broken);
    const [embed] = alertCardPayload('discord', card({ description: 'see [here](https://evil.example)' })).embeds as Json[];
    expect(embed.description).toBe('see [here]\u200b(https://evil.example)');
    const discord = followUpPayload('discord', followUp({ alert: hostile.alert }));
    expect(discord.content).toContain(broken);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect((followUpPayload('mattermost', followUp({ alert: hostile.alert })).text as string).includes('](https://evil')).toBe(false);
    const firing = followUpPayload('msteams', followUp({ alert: card({ title: '[FIRING:1] HighCPU' }).alert }));
    expect((firing.attachments as Json[])[0].content.body[0].text).toContain(': [FIRING:1] HighCPU');
  });
});

describe('the follow-up line', () => {
  it('names the tiny id (linked), the change and who made it, in each chat’s syntax', () => {
    expect(followUpPayload('slack', followUp())).toEqual({ text: `<${LINK}|#42> acknowledged by Alice Smith: Disk full on db-7` });
    expect(followUpPayload('mattermost', followUp())).toEqual({ text: `[#42](${LINK}) acknowledged by Alice Smith: Disk full on db-7` });
    expect(followUpPayload('google_chat', followUp())).toEqual({ text: `<${LINK}|#42> acknowledged by Alice Smith: Disk full on db-7` });
    expect(followUpPayload('discord', followUp())).toEqual({
      content: `[#42](${LINK}) acknowledged by Alice Smith: Disk full on db-7`,
      allowed_mentions: { parse: [] },
      flags: 4,
    });
    const teams = followUpPayload('msteams', followUp());
    const content = (teams.attachments as Json[])[0].content;
    expect(content.body).toEqual([
      { type: 'TextBlock', text: `[#42](${LINK}) acknowledged by Alice Smith: Disk full on db-7`, wrap: true },
    ]);
    expect(parseAdaptiveCard(content)).toEqual({ warnings: [], version: '1.4' });
    expect(requiredFieldFaults(content)).toEqual([]);
  });

  it('says "by the service" for its own changes, and reads without a link', () => {
    expect(followUpPayload('slack', followUp({ by: null, change: 'dropped', link: null }))).toEqual({
      text: '#42 dropped by the service: Disk full on db-7',
    });
  });

  it('has words for each change a team hears of, and none for the ones that are cards', () => {
    expect(changeOf('alert.acknowledged', [])).toBe('acknowledged');
    expect(changeOf('alert.resolved', [])).toBe('resolved');
    expect(changeOf('alert.rejected', [])).toBe('rejected');
    expect(changeOf('alert.dropped', [])).toBe('dropped');
    expect(changeOf('alert.archived', [])).toBe('archived');
    expect(changeOf('alert.open', [])).toBe('open again');
    expect(changeOf('alert.handoff', ['Database'])).toBe('handed off to Database');
    expect(changeOf('alert.reassigned', ['Database', 'Bob'])).toBe('reassigned to Database, Bob');
    expect(changeOf('alert.assigned', [])).toBeNull();
    expect(changeOf('alert.timeout', [])).toBeNull();
  });
});

describe('chat webhook URLs as saved', () => {
  it('must be https, with no private IP literal and no repeat; each fault names its entry', () => {
    const ok = { type: 'slack' as const, url: 'https://hooks.slack.com/services/T0/B0/abc' };
    expect(chatWebhookFaults([ok], false)).toEqual([]);
    expect(
      chatWebhookFaults(
        [
          ok,
          { type: 'discord', url: 'http://discord.com/api/webhooks/1/x' },
          { type: 'mattermost', url: 'https://10.0.0.8/hooks/x' },
          { type: 'msteams', url: 'https://[::ffff:127.0.0.1]/x' },
          { type: 'google_chat', url: 'not a url' },
          { type: 'slack', url: ok.url },
        ],
        false,
      ),
    ).toEqual([
      'chat_webhooks[1].url must be an https URL',
      'chat_webhooks[2].url is refused: 10.0.0.8 is a private (RFC 1918) address',
      'chat_webhooks[3].url is refused: [::ffff:7f00:1] is a loopback address',
      'chat_webhooks[4].url is not a valid URL',
      'chat_webhooks[5].url repeats chat_webhooks[0].url',
    ]);
  });

  it('may be http and private where the deployment allows private targets', () => {
    expect(chatWebhookFaults([{ type: 'slack', url: 'http://127.0.0.1:9000/hook' }], true)).toEqual([]);
    expect(chatWebhookFaults([{ type: 'slack', url: 'ftp://127.0.0.1/hook' }], true)).toEqual([
      'chat_webhooks[0].url must be an https URL',
    ]);
  });

  it('show their origin only, and name their secret parts for redaction', () => {
    const url = 'https://hooks.slack.com/services/T0/B0/s3cr3t?x=1';
    expect(shownWebhookUrl(url)).toBe('https://hooks.slack.com/…');
    expect(webhookUrlSecrets(url)).toContain('/services/T0/B0/s3cr3t?x=1');
  });
});
