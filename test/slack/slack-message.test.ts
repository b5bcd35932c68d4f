// The pure parts of Slack: messages (what a page and a team message show, escaped, with the buttons
// that apply), the signature check of what Slack sends, and the key that names an interaction.
import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, slackAlertActions, slackAlertMessage, slackBroadcastMessage } from '../../lib/notify/content';
import { checkSlackSignature, slackSignatureOf } from '../../lib/slack/signature';
import { interactionKey } from '../../lib/slack/slack-request';
import { buttonsOf, textOf } from './support';

const alert = { prefixId: 'alt_01ARZ3NDEKTSV4RRFFQ69G5FAV', tinyId: 42, title: 'Disk full', urgency: 'high', status: 'open', link: null };

describe('Slack messages', () => {
  it('offer only the buttons the status allows (v4 transitions); reject only where a page can be rejected', () => {
    expect(slackAlertActions('open')).toEqual(['acknowledge', 'reject', 'resolve']);
    expect(slackAlertActions('open', { reject: false })).toEqual(['acknowledge', 'resolve']);
    expect(slackAlertActions('acknowledged')).toEqual(['resolve']);
    expect(slackAlertActions('dropped')).toEqual(['acknowledge', 'resolve']);
    expect(slackAlertActions('suppressed')).toEqual(['acknowledge']);
    expect(slackAlertActions('resolved')).toEqual([]);
    expect(slackAlertActions('archived')).toEqual([]);
  });

  it('name the tiny id, title, urgency and status, link the console, and carry the prefix id in every button', () => {
    const message = slackAlertMessage({ ...alert, link: 'https://oncall.example.com/#/alerts/01ARZ' }, ['acknowledge', 'resolve']);
    expect(message.text).toBe('Alert #42: Disk full (high, open)');
    expect(textOf(message.blocks)).toContain('<https://oncall.example.com/#/alerts/01ARZ|Alert #42: Disk full>');
    expect(buttonsOf(message.blocks)).toEqual({ acknowledge: alert.prefixId, resolve: alert.prefixId });
    expect(slackAlertMessage(alert, []).blocks.some((block) => block.type === 'actions')).toBe(false);
  });

  it('escape what a sender chose: no @channel, no forged link, no broken link text', () => {
    const hostile = slackAlertMessage({ ...alert, title: '<!channel> <https://evil.example|click> & a|b', link: 'https://x.example' }, []);
    const shown = textOf(hostile.blocks);
    expect(shown).not.toContain('<!channel>');
    expect(shown).not.toContain('<https://evil.example');
    expect(shown).toContain('&lt;!channel&gt;');
    expect(shown).toContain('a¦b');
    expect(escapeMrkdwn('a & <b>')).toBe('a &amp; &lt;b&gt;');
  });

  it("cut long texts to Slack's limits", () => {
    const long = slackAlertMessage({ ...alert, title: 'x'.repeat(5_000), description: 'y'.repeat(20_000) }, []);
    const section = long.blocks[0] as { text: { text: string } };
    expect(section.text.text.length).toBeLessThanOrEqual(3_000);
    expect(long.text.length).toBeLessThanOrEqual(3_000);
  });

  it('give a broadcast a button per response option, in order, valued <brd_>/<bro_>', () => {
    const message = slackBroadcastMessage({
      prefixId: 'brd_1',
      tinyId: 3,
      title: 'Cover the weekend?',
      body: 'Please answer',
      link: null,
      options: [
        { prefixId: 'bro_a', value: 'Yes' },
        { prefixId: 'bro_b', value: 'No' },
      ],
    });
    expect(buttonsOf(message.blocks)).toEqual({ broadcast_response_0: 'brd_1/bro_a', broadcast_response_1: 'brd_1/bro_b' });
  });
});

describe("Slack's signature", () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = Buffer.from('token=x&team_id=T1&text=ack+42');
  const now = 1_700_000_000_000;
  const timestamp = String(now / 1000);
  const signature = slackSignatureOf(secret, timestamp, body);

  it('is v0= + hex HMAC-SHA256 of v0:<timestamp>:<raw body>', () => {
    expect(signature).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body, nowMs: now })).toBe('valid');
  });

  it('refuses another secret, another body, and a timestamp more than 300 s away', () => {
    expect(checkSlackSignature({ signingSecret: `${secret}x`, timestamp, signature, body, nowMs: now })).toBe('mismatch');
    expect(
      checkSlackSignature({ signingSecret: secret, timestamp, signature, body: Buffer.from(`${body.toString('utf8')}&x=1`), nowMs: now }),
    ).toBe('mismatch');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body, nowMs: now + 301_000 })).toBe('stale');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body, nowMs: now - 301_000 })).toBe('stale');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature, body, nowMs: now + 299_000 })).toBe('valid');
    expect(checkSlackSignature({ signingSecret: secret, timestamp: undefined, signature, body, nowMs: now })).toBe('missing');
    expect(checkSlackSignature({ signingSecret: secret, timestamp, signature: 'v0=abc', body, nowMs: now })).toBe('missing');
  });
});

describe("An interaction's key", () => {
  it('is the same for the same interaction, another for another, and always one a transition mark can hold', () => {
    expect(interactionKey('T0001', '1732000000.123456')).toBe('slack:T0001:1732000000.123456');
    expect(interactionKey('T0001', '1732000000.123456')).not.toBe(interactionKey('T0002', '1732000000.123456'));
    const long = interactionKey('T0001', 'x'.repeat(500));
    const other = interactionKey('T0001', `${'x'.repeat(499)}y`);
    const odd = interactionKey('T0001', 'trigger with spaces\u001f');
    for (const key of [long, other, odd]) {
      expect(key.length).toBeLessThanOrEqual(200);
      expect(key).toMatch(/^slack:T0001:#[A-Za-z0-9_-]{43}$/);
    }
    expect(long).not.toBe(other);
  });
});
