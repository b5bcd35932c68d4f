// The subject and message of one notification (docs/api.md#escalation-and-notifications): from the account's
// notification_templates when it has a text for that template and channel, else built-in texts
// that name the alert's title, urgency and tiny id. Every page also carries its way to respond:
// links (e-mail, push) or reply codes (SMS), appended by us and never cut.
import { MAX_FIELD, MAX_OUTPUT, type ContentChannel, type NotificationTemplates, type TemplateKey } from './template-keys';
import { compileTemplate, templateData } from './safe-handlebars';
import { fitSms, smsText, type SmsSize } from './sms';
import { spellDigits, voiceText } from './voice';
import { passOnNotLoaded } from '../../on-first-use';

export interface ContentAlert {
  title: string;
  urgency: string;
  tiny_id: number | string;
  description?: string | null;
}

export interface RespondOptions {
  /** What the person may do: a page offers both, a dropped alert only acknowledge. */
  actions: readonly ('acknowledge' | 'reject')[];
  /** One-click links (response-token.ts), for e-mail and push. */
  acknowledgeUrl?: string | null;
  rejectUrl?: string | null;
  /** Offer SMS reply codes (the SMS provider can receive replies). */
  smsReply?: boolean;
}

/** Templates the service sends that accounts cannot re-word (no placeholders fit them). */
export type FixedTemplate = 'schedule_gap';

export interface RenderInput {
  template: TemplateKey | FixedTemplate;
  channel: ContentChannel;
  /** Absent for event_goc. */
  alert?: ContentAlert | null;
  accountUser: { name: string };
  /** The team concerned (event_goc: the team going on call; alert_dropped: the team that ran out). */
  team?: { name: string } | null;
  /** Who acted (alert_rejected, alert_acknowledged). */
  actor?: { name: string } | null;
  /** event_goc to someone who is not coming on call (team_all, team_admins, specific_users): who is. */
  oncall?: { names: string[] } | null;
  respond?: RespondOptions | null;
  templates?: NotificationTemplates | null;
  /** A fixed template's body (schedule_gap: the gaps ahead), written by its sender. */
  body?: string | null;
  /** schedule_gap: how many gaps the body lists. */
  gapCount?: number;
}

export interface RenderedContent {
  /** push and email only. */
  subject: string | null;
  /** Plain text: the SMS, the words of the call, the push body, the e-mail's text part. */
  message: string;
  /** email only: the HTML part, made from the text (every placeholder value escaped). */
  html: string | null;
  /** Whether the account's template was used for the message. */
  custom: boolean;
  /** sms only: encoding and segments. */
  sms: SmsSize | null;
  links: { acknowledge: string | null; reject: string | null };
}

interface Context {
  input: RenderInput;
  title: string;
  urgency: string;
  tinyId: string;
  description: string;
  actor: string;
  team: string;
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function oneLine(text: string): string {
  return text
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function context(input: RenderInput): Context {
  return {
    input,
    title: cut(oneLine(input.alert?.title ?? ''), MAX_FIELD.title) || '(no title)',
    urgency: oneLine(input.alert?.urgency ?? ''),
    tinyId: String(input.alert?.tiny_id ?? ''),
    description: cut(input.alert?.description ?? '', MAX_FIELD.description),
    actor: cut(oneLine(input.actor?.name ?? ''), MAX_FIELD.name) || 'someone',
    team: cut(oneLine(input.team?.name ?? ''), MAX_FIELD.name) || 'your team',
  };
}

/** The built-in first line of each template, with the title as a parameter (SMS shortens it). */
function headline(ctx: Context, title: string): string {
  const alert = `Alert #${ctx.tinyId}${ctx.urgency ? ` (${ctx.urgency})` : ''}`;
  switch (ctx.input.template) {
    case 'alert_alert':
    case 'alert_page':
      return `${alert}: ${title}`;
    case 'alert_handoff':
      return `${alert} was handed off to you: ${title}`;
    case 'alert_dropped':
      return `${alert} was dropped, nobody acknowledged it: ${title}`;
    case 'alert_rejected':
      return `${alert} was rejected by ${ctx.actor}: ${title}`;
    case 'alert_acknowledged':
      return `${alert} was acknowledged by ${ctx.actor}: ${title}`;
    case 'alert_timeout':
      return `${alert} timed out: ${title}`;
    case 'alert_broadcast':
      return `Broadcast #${ctx.tinyId}${ctx.urgency ? ` (${ctx.urgency})` : ''}: ${title}`;
    case 'alert_stakeholder':
      return `Update on alert #${ctx.tinyId}${ctx.urgency ? ` (${ctx.urgency})` : ''}: ${title}`;
    case 'schedule_gap': {
      const count = ctx.input.gapCount ?? 0;
      return `Coverage gap ahead for ${ctx.team}: nobody on call on layer 1 ${count === 1 ? 'once' : `${count} times`} in the next 7 days`;
    }
    case 'event_goc': {
      const names = (ctx.input.oncall?.names ?? []).map((name) => cut(oneLine(name), MAX_FIELD.name)).filter(Boolean);
      if (!ctx.input.oncall) return `You are now on call for ${ctx.team}`;
      return names.length ? `Now on call for ${ctx.team}: ${names.join(', ')}` : `Nobody is on call for ${ctx.team} now`;
    }
  }
}

/** A page's SMS is short: "#42 HIGH: title"; the other templates keep their first line. */
function builtInSmsHeadline(ctx: Context, title: string): string {
  const template = ctx.input.template;
  if (template !== 'alert_alert' && template !== 'alert_page') return headline(ctx, title);
  return `#${ctx.tinyId}${ctx.urgency ? ` ${ctx.urgency.toUpperCase()}` : ''}: ${title}`;
}

function smsInstructions(ctx: Context): string {
  const respond = ctx.input.respond;
  if (!respond?.smsReply || !ctx.tinyId) return '';
  const codes = [
    respond.actions.includes('acknowledge') ? `A${ctx.tinyId} to ack` : null,
    respond.actions.includes('reject') ? `R${ctx.tinyId} to reject` : null,
  ].filter(Boolean);
  return codes.length ? `Reply ${codes.join(', ')}` : '';
}

function allowed(ctx: Context, action: 'acknowledge' | 'reject'): string | null {
  const respond = ctx.input.respond;
  if (!respond?.actions.includes(action)) return null;
  return (action === 'acknowledge' ? respond.acknowledgeUrl : respond.rejectUrl) ?? null;
}

function linkLines(ctx: Context): string[] {
  const acknowledge = allowed(ctx, 'acknowledge');
  const reject = allowed(ctx, 'reject');
  return [acknowledge ? `Acknowledge: ${acknowledge}` : null, reject ? `Reject: ${reject}` : null].filter(
    (line): line is string => line !== null,
  );
}

function customText(ctx: Context, field: 'subject' | 'message', title: string, tinyId: string): string | null {
  const template = ctx.input.template;
  if (template === 'schedule_gap') return null;
  const source = ctx.input.templates?.[template]?.[ctx.input.channel]?.[field];
  if (typeof source !== 'string' || source.trim() === '') return null;
  try {
    const render = compileTemplate(source);
    return render(
      templateData({
        alert: { title, urgency: ctx.urgency, tiny_id: tinyId, description: ctx.description },
        account_user: { name: cut(oneLine(ctx.input.accountUser.name ?? ''), MAX_FIELD.name) },
        team: { name: ctx.input.team ? ctx.team : '' },
        actor: { name: ctx.input.actor ? ctx.actor : '' },
        links: { acknowledge: allowed(ctx, 'acknowledge') ?? '', reject: allowed(ctx, 'reject') ?? '' },
      }),
    );
  } catch (error) {
    passOnNotLoaded(error);
    // A stored template that no longer compiles must not stop a page: the built-in text goes out.
    return null;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

function htmlOf(text: string, ctx: Context): string {
  const body = escapeHtml(text).replace(/\r?\n/g, '<br>\n');
  const acknowledge = allowed(ctx, 'acknowledge');
  const reject = allowed(ctx, 'reject');
  const buttons = [
    acknowledge ? `<a href="${escapeHtml(acknowledge)}">Acknowledge</a>` : null,
    reject ? `<a href="${escapeHtml(reject)}">Reject</a>` : null,
  ].filter(Boolean);
  return `<!doctype html><html><body><p>${body}</p>${buttons.length ? `<p>${buttons.join(' &middot; ')}</p>` : ''}</body></html>`;
}

/** What a spoken page says when the call cannot take an answer (End User Messaging's); a call that can (lib/voice-calls) leaves it out. */
export const VOICE_RESPOND_HINT = 'To respond, use the text message, e-mail or app notification you received.';

export function renderNotification(input: RenderInput): RenderedContent {
  const ctx = context(input);
  const links = { acknowledge: allowed(ctx, 'acknowledge'), reject: allowed(ctx, 'reject') };
  switch (input.channel) {
    case 'sms': {
      const instructions = smsInstructions(ctx);
      const title = smsText(ctx.title);
      const custom = customText(ctx, 'message', title, ctx.tinyId) !== null;
      const compose = (shortTitle: string) => {
        const main = custom
          ? smsText(customText(ctx, 'message', shortTitle, ctx.tinyId) ?? '')
          : smsText(builtInSmsHeadline(ctx, shortTitle));
        return [main.slice(0, MAX_OUTPUT.sms), instructions].filter(Boolean).join('\n');
      };
      const fitted = fitSms(compose, title);
      return { subject: null, message: fitted.text, html: null, custom, sms: fitted.size, links };
    }
    case 'voice': {
      const spoken = customText(ctx, 'message', ctx.title, spellDigits(ctx.tinyId));
      const respond = input.respond?.actions.length ? ` ${VOICE_RESPOND_HINT}` : '';
      const message = voiceText(spoken ?? `${headline(ctx, ctx.title)}.${respond}`);
      return { subject: null, message, html: null, custom: spoken !== null, sms: null, links };
    }
    case 'push':
    case 'email': {
      const customSubject = customText(ctx, 'subject', ctx.title, ctx.tinyId);
      const subject = cut(oneLine(customSubject ?? headline(ctx, ctx.title)), MAX_OUTPUT.subject);
      const customMessage = customText(ctx, 'message', ctx.title, ctx.tinyId);
      const written = customMessage ?? ctx.input.body ?? null;
      if (input.channel === 'push') {
        const body = written ?? (ctx.description.trim() ? ctx.description : headline(ctx, ctx.title));
        return { subject, message: cut(body.trim(), MAX_OUTPUT.push), html: null, custom: customMessage !== null, sms: null, links };
      }
      const main = written ?? [headline(ctx, ctx.title), ctx.description.trim()].filter(Boolean).join('\n\n');
      const text = cut(main.trim(), MAX_OUTPUT.email);
      const lines = linkLines(ctx);
      const message = lines.length ? `${text}\n\n${lines.join('\n')}` : text;
      return { subject, message, html: htmlOf(text, ctx), custom: customMessage !== null, sms: null, links };
    }
  }
}
