import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileTemplate,
  fitSms,
  MAX_OUTPUT,
  parseSmsReply,
  pickReplyTarget,
  planSends,
  renderBundle,
  renderNotification,
  responseLink,
  signResponseToken,
  smsSize,
  TEMPLATE_KEYS,
  TemplateProblem,
  validateNotificationTemplates,
  verifyResponseToken,
} from '../../lib/notify/content';
import type { NotificationTemplates, PendingPage, RenderInput } from '../../lib/notify/content';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const alert = { title: 'Disk full on db-1', urgency: 'high', tiny_id: 42, description: 'Volume /var at 99%' };
const respond = {
  actions: ['acknowledge', 'reject'] as ('acknowledge' | 'reject')[],
  acknowledgeUrl: 'https://on.call/public/respond/ack-token',
  rejectUrl: 'https://on.call/public/respond/rej-token',
  smsReply: true,
};
const page = (channel: RenderInput['channel'], extra: Partial<RenderInput> = {}): RenderInput => ({
  template: 'alert_alert',
  channel,
  alert,
  accountUser: { name: 'Ann' },
  respond,
  ...extra,
});
const SECRET = 'a-test-secret-that-is-long-enough-32b';

describe('notification_templates validation', () => {
  it('accepts every template key with its channels, nulls and empty objects', () => {
    const templates = Object.fromEntries(
      TEMPLATE_KEYS.map((key) => [
        key,
        {
          push: { subject: '{{alert.title}}', message: '{{alert.description}}' },
          email: {
            subject: '[{{alert.urgency}}] #{{alert.tiny_id}}',
            message: 'Hi {{account_user.name}},\n{{#if alert.description}}{{alert.description}}{{else}}none{{/if}}',
          },
          sms: { message: '#{{alert.tiny_id}} {{alert.title}}' },
          voice: null,
        },
      ]),
    );
    const result = validateNotificationTemplates(templates);
    expect(result.ok).toBe(true);
    expect(validateNotificationTemplates(null)).toEqual({ ok: true, value: {} });
    expect(validateNotificationTemplates({ alert_alert: null, event_goc: {} }).ok).toBe(true);
  });

  it('names every bad field: unknown key or channel, a field the channel lacks, non-strings, bad syntax', () => {
    const result = validateNotificationTemplates({
      alert_bogus: {},
      alert_alert: {
        fax: { message: 'x' },
        sms: { subject: 'no subject on sms', message: '{{alert.title' },
        email: { subject: 7, message: '{{#each alert}}{{/each}}' },
        push: 'text',
      },
    });
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : result.messages;
    expect(messages).toEqual([
      expect.stringMatching(/^notification_templates\.alert_bogus is not a template; known: alert_acknowledged, /),
      expect.stringMatching(/^notification_templates\.alert_alert\.fax is not a channel/),
      'notification_templates.alert_alert.sms.subject is not allowed; sms has message',
      expect.stringMatching(
        /^notification_templates\.alert_alert\.sms\.message is not a valid template: syntax error: Parse error on line 1/,
      ),
      'notification_templates.alert_alert.email.subject must be a string',
      expect.stringMatching(/^notification_templates\.alert_alert\.email\.message is not a valid template: \{\{#each\}\} is not allowed/),
      'notification_templates.alert_alert.push must be an object with subject and message',
    ]);
    expect(validateNotificationTemplates([])).toEqual({ ok: false, messages: ['notification_templates must be an object'] });
    expect(validateNotificationTemplates({ alert_alert: { sms: { message: 'x'.repeat(4001) } } })).toMatchObject({
      ok: false,
      messages: [expect.stringContaining('too long')],
    });
  });

  it.each([
    ['{{constructor}}', /not allowed/],
    ['{{alert.constructor}}', /not allowed/],
    ['{{#with __proto__}}{{polluted}}{{/with}}', /not allowed/],
    ['{{alert.__proto__.x}}', /not allowed/],
    ['{{> secret}}', /partials/],
    ['{{lookup alert "constructor"}}', /helpers are not allowed/],
    ['{{log "x"}}', /helpers are not allowed/],
    ['{{#each alert}}{{@key}}{{/each}}', /#each/],
    ['{{@root.alert}}', /@ variables/],
    ['{{../alert.title}}', /full placeholder/],
    ['{{this.alert}}', /full placeholder/],
    ['{{#if (lookup alert "title")}}x{{/if}}', /one placeholder|only placeholders/],
    ['{{*decorator}}', /not allowed/],
  ])('refuses the hostile template %s', (source, message) => {
    expect(() => compileTemplate(source)).toThrow(TemplateProblem);
    expect(() => compileTemplate(source)).toThrow(message);
  });

  it('accepts a placeholder whose name merely contains "this"', () => {
    expect(compileTemplate('{{alert.thistle}}')({})).toBe('');
  });
});

describe('rendering', () => {
  it('fills the account’s templates; e-mail HTML escapes what the alert brings, SMS and voice stay plain', () => {
    const templates: NotificationTemplates = {
      alert_alert: {
        email: {
          subject: '{{alert.urgency}}: {{alert.title}}',
          message: 'Hello {{account_user.name}}, {{alert.title}} & {{{alert.description}}}',
        },
        sms: { message: 'ALERT {{alert.tiny_id}} {{alert.title}}' },
        voice: { message: 'Hello {{account_user.name}}, alert {{alert.tiny_id}}: {{alert.title}}' },
      },
    };
    const hostile = { ...alert, title: '<script>x</script> & co', description: '<img src=x onerror=alert(1)>' };
    const email = renderNotification(page('email', { templates, alert: hostile }));
    expect(email.custom).toBe(true);
    expect(email.subject).toBe('high: <script>x</script> & co');
    expect(email.message).toContain('Hello Ann, <script>x</script> & co & <img src=x onerror=alert(1)>');
    expect(email.message).toContain('Acknowledge: https://on.call/public/respond/ack-token');
    expect(email.html).not.toMatch(/<script|<img/);
    expect(email.html).toContain('&lt;script&gt;x&lt;/script&gt; &amp; co &amp; &lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('<a href="https://on.call/public/respond/rej-token">Reject</a>');
    const sms = renderNotification(page('sms', { templates, alert: hostile }));
    expect(sms.message).toBe('ALERT 42 <script>x</script> & co\nReply A42 to ack, R42 to reject');
    const voice = renderNotification(page('voice', { templates }));
    expect(voice.message).toBe('Hello Ann, alert 4 2: Disk full on db-1');
  });

  it('uses the built-in text when the account has no text for that template and channel (or an empty one)', () => {
    const templates: NotificationTemplates = { alert_alert: { sms: { message: '   ' } }, alert_dropped: { email: { subject: 'custom' } } };
    const sms = renderNotification(page('sms', { templates }));
    expect(sms).toMatchObject({ custom: false, message: '#42 HIGH: Disk full on db-1\nReply A42 to ack, R42 to reject' });
    const email = renderNotification(page('email', { templates }));
    expect(email.subject).toBe('Alert #42 (high): Disk full on db-1');
  });

  it.each(TEMPLATE_KEYS.flatMap((template) => (['push', 'email', 'sms', 'voice'] as const).map((channel) => [template, channel] as const)))(
    'built-in %s on %s names the title, urgency and tiny id (event_goc: the team)',
    (template, channel) => {
      const rendered = renderNotification(page(channel, { template, team: { name: 'Database' }, actor: { name: 'Bob' } }));
      const text = `${rendered.subject ?? ''} ${rendered.message}`;
      if (template === 'event_goc') {
        expect(text).toContain('You are now on call for Database');
        return;
      }
      expect(text).toContain('Disk full on db-1');
      expect(text.toLowerCase()).toContain('high');
      expect(text).toMatch(channel === 'voice' ? /number 4 2/ : /#42/);
      if (template === 'alert_rejected' || template === 'alert_acknowledged') expect(text).toContain('Bob');
    },
  );

  it('a stored template that slipped past validation renders nothing hostile: the built-in text goes out', () => {
    const templates = { alert_alert: { sms: { message: '{{#with __proto__}}{{constructor}}{{/with}}' } } } as NotificationTemplates;
    expect(renderNotification(page('sms', { templates }))).toMatchObject({
      custom: false,
      message: '#42 HIGH: Disk full on db-1\nReply A42 to ack, R42 to reject',
    });
  });

  it('bounds huge outputs per channel', () => {
    const huge = { ...alert, title: 'T'.repeat(5_000), description: 'D'.repeat(50_000) };
    const source = '{{alert.description}}'.repeat(180);
    const templates: NotificationTemplates = {
      alert_alert: { email: { subject: source, message: source }, push: { subject: source, message: source }, voice: { message: source } },
    };
    const email = renderNotification(page('email', { templates, alert: huge }));
    expect(email.subject!.length).toBeLessThanOrEqual(MAX_OUTPUT.subject);
    expect(email.message.length).toBeLessThanOrEqual(MAX_OUTPUT.email + 200);
    expect(renderNotification(page('push', { templates, alert: huge })).message.length).toBeLessThanOrEqual(MAX_OUTPUT.push);
    expect(renderNotification(page('voice', { templates, alert: huge })).message.length).toBeLessThanOrEqual(MAX_OUTPUT.voice);
    const sms = renderNotification(page('sms', { alert: huge }));
    expect(sms.sms!.segments).toBe(1);
  });

  it('a page without response options carries no links or reply codes', () => {
    const sms = renderNotification(page('sms', { template: 'alert_dropped', respond: { actions: ['acknowledge'], smsReply: true } }));
    expect(sms.message).toMatch(/\nReply A42 to ack$/);
    const email = renderNotification(page('email', { respond: null }));
    expect(email.message).not.toContain('http');
    expect(email.html).not.toContain('<a ');
  });
});

describe('SMS length', () => {
  it('counts GSM-7 septets (extension characters twice) and UCS-2 units, with multipart segment sizes', () => {
    expect(smsSize('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSize('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsSize('{'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSize('€'.repeat(81)).segments).toBe(2);
    expect(smsSize('é£$Ñ@').encoding).toBe('GSM-7');
    expect(smsSize('ç').encoding).toBe('UCS-2'); // only capital Ç is in the GSM alphabet
    expect(smsSize('ü'.repeat(70) + 'ı')).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
    expect(smsSize('😀'.repeat(35))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSize('a'.repeat(306)).segments).toBe(2);
    expect(smsSize('a'.repeat(307)).segments).toBe(3);
  });

  it('shortens the title to one segment, never the tiny id or the reply codes', () => {
    const long = renderNotification(page('sms', { alert: { ...alert, title: 'Database replica lag above threshold '.repeat(8) } }));
    expect(long.sms).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(long.message).toMatch(/^#42 HIGH: Database replica lag .*\.\.\.\nReply A42 to ack, R42 to reject$/);
  });

  it('keeps a non-GSM title within one UCS-2 segment (70) and maps typographic look-alikes to GSM', () => {
    const japanese = renderNotification(
      page('sms', { alert: { ...alert, title: 'ディスクがいっぱいです。書き込みに失敗しています。至急対応してください。' } }),
    );
    expect(japanese.sms).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(japanese.message.length).toBeLessThanOrEqual(70);
    expect(japanese.message).toMatch(/\nReply A42 to ack, R42 to reject$/);
    const quotes = renderNotification(page('sms', { alert: { ...alert, title: 'The “primary” db’s disk — full…' } }));
    expect(quotes.message).toContain('The "primary" db\'s disk - full...');
    expect(quotes.sms!.encoding).toBe('GSM-7');
  });

  it('property: fitting never cuts the fixed parts and takes the fewest segments they allow', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ maxLength: 200 }), (title, fixed) => {
        const compose = (part: string) => `#7 ${part}\n${fixed}`;
        const result = fitSms(compose, title);
        expect(result.text.startsWith('#7 ')).toBe(true);
        expect(result.text.endsWith(`\n${fixed}`)).toBe(true);
        expect(result.size.segments).toBeLessThanOrEqual(
          Math.max(1, smsSize(compose('')).segments, result.shortened ? 0 : smsSize(compose(title)).segments),
        );
        if (!result.shortened) expect(result.text).toBe(compose(title));
      }),
      { numRuns: 300 },
    );
  });
});

describe('voice', () => {
  it('has no links, spells the tiny id and reads symbols as words', () => {
    const voice = renderNotification(
      page('voice', { alert: { ...alert, title: 'CPU > 90% on https://grafana.example.com/d/abc & web_1', tiny_id: 1207 } }),
    );
    expect(voice.message).not.toMatch(/https?:|grafana\.example/);
    expect(voice.message).toContain('Alert number 1 2 0 7 (high)');
    expect(voice.message).toContain(' and web 1');
  });
});

describe('one-click response tokens', () => {
  const claims = { accountId: 'ACC1', alertId: 'ALT1', workflowId: 'WKF1', accountUserId: 'ACU1', action: 'reject' as const };
  const now = Date.UTC(2025, 0, 1);

  it('verifies its own token within 24 hours and gives back the claims', () => {
    const token = signResponseToken(claims, SECRET, now);
    expect(verifyResponseToken(token, SECRET, now + 24 * 3_600_000 - 1)).toEqual({
      ok: true,
      claims: { ...claims, expiresAt: now + 24 * 3_600_000 },
    });
    expect(responseLink('https://on.call/', token)).toBe(`https://on.call/public/respond/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('refuses an expired, tampered, foreign-secret or malformed token', () => {
    const token = signResponseToken(claims, SECRET, now);
    expect(verifyResponseToken(token, SECRET, now + 24 * 3_600_000)).toEqual({ ok: false, reason: 'expired' });
    const [version, body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), a: 'a' })).toString('base64url');
    expect(verifyResponseToken(`${version}.${forged}.${mac}`, SECRET, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyResponseToken(`${version}.${body}.${mac.slice(0, -2)}AA`, SECRET, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyResponseToken(token, `${SECRET}-other`, now)).toEqual({ ok: false, reason: 'bad_signature' });
    for (const bad of ['', 'r1', 'r1..', `x1.${body}.${mac}`, `${token}.x`, 42, null, 'r1.%%%.abc', 'a'.repeat(5000)]) {
      expect(verifyResponseToken(bad, SECRET, now)).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(() => signResponseToken(claims, 'short', now)).toThrow(/at least 32 bytes/);
  });

  it('property: arbitrary strings never verify and never throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        expect(verifyResponseToken(text, SECRET, now).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('SMS replies', () => {
  it.each([
    ['A', 'acknowledge', null],
    ['a', 'acknowledge', null],
    ['  ack ', 'acknowledge', null],
    ['Acknowledge', 'acknowledge', null],
    ['A 42', 'acknowledge', 42],
    ['a42', 'acknowledge', 42],
    ['ACK #42', 'acknowledge', 42],
    ['42a', 'acknowledge', 42],
    ['"A42"', 'acknowledge', 42],
    ['R', 'reject', null],
    ['r 7', 'reject', 7],
    ['reject 7.', 'reject', 7],
    ['#7 r', 'reject', 7],
    ['Ａ４２', 'acknowledge', 42],
  ])('%j → %s %s', (body, action, tinyId) => {
    expect(parseSmsReply(body)).toEqual({ ok: true, action, tinyId });
  });

  it.each(['', 'yes', 'A B', 'A-42x', 'ar', 'STOP', 'a 1234567890', 'acked it'])(
    '%j is not understood, with a reply saying what is',
    (body) => {
      expect(parseSmsReply(body)).toEqual({ ok: false, reply: expect.stringContaining('Reply A<id> to acknowledge or R<id> to reject') });
    },
  );

  it('picks the alert: by tiny id, the only one pending, or asks when several are', () => {
    const pending = [{ tinyId: 7 }, { tinyId: 9 }];
    expect(pickReplyTarget({ tinyId: 9 }, pending)).toEqual({ ok: true, alert: { tinyId: 9 } });
    expect(pickReplyTarget({ tinyId: null }, [{ tinyId: 7 }])).toEqual({ ok: true, alert: { tinyId: 7 } });
    expect(pickReplyTarget({ tinyId: null }, pending)).toEqual({ ok: false, reply: expect.stringContaining('#7, #9') });
    expect(pickReplyTarget({ tinyId: 8 }, pending)).toEqual({ ok: false, reply: expect.stringContaining('No alert #8') });
    expect(pickReplyTarget({ tinyId: null }, [])).toMatchObject({ ok: false });
  });
});

describe('storm protection', () => {
  const T = Date.UTC(2025, 0, 1);
  const pending = (n: number, at = T): PendingPage => ({
    notificationId: `ntf-${n}`,
    alertId: `alt-${n}`,
    tinyId: n,
    title: `Service ${n} down`,
    urgency: 'high',
    createdAt: at + n,
  });

  it('sends the first page at once, alone', () => {
    expect(planSends({ now: T, channel: 'sms', lastSentAt: null, pending: [pending(1)] })).toMatchObject({
      kind: 'send',
      carrier: { notificationId: 'ntf-1' },
      bundled: [],
    });
    expect(planSends({ now: T, channel: 'sms', lastSentAt: T - 60_000, pending: [pending(1)] }).kind).toBe('send');
  });

  it('holds pages inside the minute after a send, then bundles them into one message', () => {
    const waiting = [pending(3), pending(2), pending(4)];
    expect(planSends({ now: T + 10_000, channel: 'voice', lastSentAt: T, pending: waiting })).toEqual({
      kind: 'wait',
      until: T + 60_000,
      cancelled: [],
    });
    const plan = planSends({ now: T + 60_000, channel: 'voice', lastSentAt: T, pending: waiting });
    expect(plan).toMatchObject({
      kind: 'send',
      carrier: { notificationId: 'ntf-2' },
      bundled: [{ notificationId: 'ntf-3' }, { notificationId: 'ntf-4' }],
    });
    expect(plan.kind === 'send' && plan.alerts.map((a) => a.tinyId)).toEqual([2, 3, 4]);
  });

  it('counts two pages of one alert once and drops pages no longer wanted', () => {
    const twice = { ...pending(5), notificationId: 'ntf-5b', createdAt: T + 50 };
    const gone = { ...pending(6), stillWanted: false };
    const plan = planSends({ now: T, channel: 'sms', lastSentAt: null, pending: [pending(5), twice, gone] });
    expect(plan).toMatchObject({
      kind: 'send',
      carrier: { notificationId: 'ntf-5' },
      bundled: [{ notificationId: 'ntf-5b' }],
      cancelled: [{ notificationId: 'ntf-6' }],
    });
    expect(plan.kind === 'send' && plan.alerts).toHaveLength(1);
    expect(planSends({ now: T, channel: 'sms', lastSentAt: T, pending: [gone] })).toEqual({ kind: 'idle', cancelled: [gone] });
  });

  it('a bundle SMS fits one segment with every id where it can, else “+N more”; the reply codes stay', () => {
    const few = renderBundle(
      'sms',
      [1, 2, 3].map((n) => ({ alertId: `a${n}`, tinyId: n, title: `Service number ${n} is down`, urgency: 'high' })),
      { smsReply: true },
    );
    expect(few.message).toBe(
      '3 new alerts: #1 Service number 1 is down; #2 Service number 2 is down; #3 Service number 3 is down\nReply A<id> to ack, R<id> to reject',
    );
    const many = renderBundle(
      'sms',
      Array.from({ length: 40 }, (_, n) => ({ alertId: `a${n}`, tinyId: 1000 + n, title: 'Very long title of an alert', urgency: 'low' })),
      { smsReply: true },
    );
    expect(many.sms).toMatchObject({ segments: 1 });
    expect(many.message).toMatch(/^40 new alerts: #1000; #1001; .*; \+\d+ more\nReply A<id> to ack, R<id> to reject$/);
    const voice = renderBundle('voice', [
      { alertId: 'a', tinyId: 12, title: 'DB down', urgency: 'critical' },
      { alertId: 'b', tinyId: 13, title: 'API down', urgency: 'high' },
    ]);
    expect(voice.message).toBe('You have 2 new alerts. Alert number 1 2, critical: DB down. Alert number 1 3, high: API down.');
  });
});
