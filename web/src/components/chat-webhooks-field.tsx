// A team's chat webhooks (docs/api.md#chat-webhooks): one row per chat (which chat, its incoming
// webhook's URL), added and removed in place; the API's messages (`chat_webhooks[1].url must be an
// https URL`) land next to the row they name. The read-only view names each chat and its host only:
// the rest of a webhook's URL is its secret.
import type { Team } from '../types';
import { SelectField, TextField, type FormState } from './form';

export type ChatWebhook = Team['chat_webhooks'][number];

export const CHAT_NAMES: Record<ChatWebhook['type'], string> = {
  slack: 'Slack',
  msteams: 'Microsoft Teams (Workflows)',
  mattermost: 'Mattermost',
  google_chat: 'Google Chat',
  discord: 'Discord',
};

const CHAT_OPTIONS = (Object.keys(CHAT_NAMES) as ChatWebhook['type'][]).map((value) => ({ value, label: CHAT_NAMES[value] }));
const MAX_CHAT_WEBHOOKS = 10;
const LIST = 'chat_webhooks';

export function ChatWebhooksField({
  form,
  rows,
  onChange,
}: {
  form: FormState;
  rows: ChatWebhook[];
  onChange: (rows: ChatWebhook[]) => void;
}) {
  form.register(LIST);
  const errors = form.errorOf(LIST);
  const update = (i: number, change: Partial<ChatWebhook>) => onChange(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return (
    <fieldset class="field contacts" aria-describedby={`${form.inputId(LIST)}-hint${errors ? ` ${form.inputId(LIST)}-error` : ''}`}>
      <legend>Chat webhooks</legend>
      <p id={`${form.inputId(LIST)}-hint`} class="hint">
        Each alert assigned to this team is posted as a card to these chats, and each later change as one line. Paste the incoming webhook's
        URL each chat gives you (the README says where to find it).
      </p>
      {rows.length === 0 && <p>No chat webhooks.</p>}
      {rows.map((row, i) => (
        <div class="contact-row" key={i}>
          <SelectField
            form={form}
            name={`${LIST}[${i}].type`}
            label={`Chat ${i + 1}`}
            value={row.type}
            options={CHAT_OPTIONS}
            onChange={(type) => update(i, { type: type as ChatWebhook['type'] })}
          />
          <TextField
            form={form}
            name={`${LIST}[${i}].url`}
            label={`Webhook URL ${i + 1}`}
            type="url"
            value={row.url}
            onInput={(url) => update(i, { url })}
            placeholder="https://"
          />
          <button type="button" class="button button-small" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove chat webhook {i + 1}
          </button>
        </div>
      ))}
      {errors && (
        <p id={`${form.inputId(LIST)}-error`} class="field-error">
          {errors.join(' ')}
        </p>
      )}
      <button
        type="button"
        class="button button-small"
        disabled={rows.length >= MAX_CHAT_WEBHOOKS}
        onClick={() => onChange([...rows, { type: 'slack', url: '' }])}
      >
        Add a chat webhook
      </button>
    </fieldset>
  );
}

/** "Slack (hooks.slack.com)": which chat, and where, without the URL's secret part. */
export function chatWebhookSummary(webhook: ChatWebhook): string {
  let host: string;
  try {
    host = new URL(webhook.url).host;
  } catch {
    host = '?';
  }
  return `${CHAT_NAMES[webhook.type]} (${host})`;
}
