// Validation of an account's notification_templates (earlier PUT /account/:id): unknown template
// keys or channels, fields a channel does not have, non-strings, over-long texts and templates
// that do not compile are each reported with the field's full name, so the API can refuse the
// whole update with one clear message per fault.
import {
  CHANNEL_FIELDS,
  isContentChannel,
  isTemplateKey,
  MAX_TEMPLATE_LENGTH,
  TEMPLATE_KEYS,
  type NotificationTemplates,
} from './template-keys';
import { compileTemplate, TemplateProblem } from './safe-handlebars';

export type TemplatesValidation = { ok: true; value: NotificationTemplates } | { ok: false; messages: string[] };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validateNotificationTemplates(input: unknown, field = 'notification_templates'): TemplatesValidation {
  const messages: string[] = [];
  if (input === null || input === undefined) return { ok: true, value: {} };
  if (!isPlainObject(input)) return { ok: false, messages: [`${field} must be an object`] };
  const value: NotificationTemplates = {};
  for (const [key, channels] of Object.entries(input)) {
    const keyField = `${field}.${key}`;
    if (!isTemplateKey(key)) {
      messages.push(`${keyField} is not a template; known: ${TEMPLATE_KEYS.join(', ')}`);
      continue;
    }
    if (channels === null) {
      value[key] = null;
      continue;
    }
    if (!isPlainObject(channels)) {
      messages.push(`${keyField} must be an object of channels (push, email, sms, voice)`);
      continue;
    }
    const entry: NonNullable<NotificationTemplates[typeof key]> = {};
    for (const [channel, texts] of Object.entries(channels)) {
      const channelField = `${keyField}.${channel}`;
      if (!isContentChannel(channel)) {
        messages.push(`${channelField} is not a channel; known: push, email, sms, voice`);
        continue;
      }
      if (texts === null) {
        entry[channel] = null;
        continue;
      }
      if (!isPlainObject(texts)) {
        messages.push(`${channelField} must be an object with ${CHANNEL_FIELDS[channel].join(' and ')}`);
        continue;
      }
      const kept: { subject?: string | null; message?: string | null } = {};
      for (const [name, text] of Object.entries(texts)) {
        const textField = `${channelField}.${name}`;
        if (!(CHANNEL_FIELDS[channel] as readonly string[]).includes(name)) {
          messages.push(`${textField} is not allowed; ${channel} has ${CHANNEL_FIELDS[channel].join(' and ')}`);
          continue;
        }
        if (text === null) {
          kept[name as 'subject' | 'message'] = null;
          continue;
        }
        if (typeof text !== 'string') {
          messages.push(`${textField} must be a string`);
          continue;
        }
        if (text.length > MAX_TEMPLATE_LENGTH) {
          messages.push(`${textField} is too long (at most ${MAX_TEMPLATE_LENGTH} characters)`);
          continue;
        }
        try {
          compileTemplate(text);
        } catch (error) {
          if (!(error instanceof TemplateProblem)) throw error;
          messages.push(`${textField} is not a valid template: ${error.message}`);
          continue;
        }
        kept[name as 'subject' | 'message'] = text;
      }
      entry[channel] = kept;
    }
    value[key] = entry;
  }
  return messages.length ? { ok: false, messages } : { ok: true, value };
}
