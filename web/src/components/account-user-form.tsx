// An account user's settings (PUT /api/v4/account_users/:id): name, time zone, e-mails and phones
// (by id; `_destroy` removes one, a row without id adds one — docs/api.md#errors), their Slack user id
// (docs/api.md#slack; sent only when it changed, empty unlinks), notification channels, and, for
// admins editing someone, roles. The Users page and the Profile page share it.
import { useState } from 'preact/hooks';
import { api } from '../api';
import type { AccountUser } from '../types';
import { CheckboxField, Form, SelectField, SubmitButton, TextField, useForm, type FormState } from './form';
import { RoleChecks } from './role-checks';
import { Notice } from './ui';

interface ContactRow {
  id?: string;
  value: string;
  primary: boolean;
  remove: boolean;
}

const CHANNELS = [
  ['notify_push', 'Push notifications'],
  ['notify_email', 'E-mail'],
  ['notify_sms', 'Text message (SMS)'],
  ['notify_voice', 'Voice call'],
  ['notify_slack', 'Slack direct message'],
] as const;

function timeZones(current: string): { value: string; label: string }[] {
  let zones: string[];
  try {
    zones = (Intl as unknown as { supportedValuesOf(key: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  if (!zones.includes('UTC')) zones = ['UTC', ...zones];
  if (current && !zones.includes(current)) zones = [current, ...zones];
  return zones.map((z) => ({ value: z, label: z }));
}

function ContactRows(props: { form: FormState; kind: 'email' | 'phone'; rows: ContactRow[]; onChange: (rows: ContactRow[]) => void }) {
  const { form, kind, rows, onChange } = props;
  const listName = kind === 'email' ? 'user_attributes.emails_attributes' : 'user_attributes.phones_attributes';
  const noun = kind === 'email' ? 'E-mail' : 'Phone';
  form.register(listName);
  const update = (i: number, change: Partial<ContactRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const errors = form.errorOf(listName);
  return (
    <fieldset class="field contacts" aria-describedby={errors ? `${form.inputId(listName)}-error` : undefined}>
      <legend>{kind === 'email' ? 'E-mail addresses' : 'Phone numbers'}</legend>
      {rows.map((row, i) => (
        <div class={`contact-row ${row.remove ? 'contact-removed' : ''}`} key={row.id ?? `new-${i}`}>
          <TextField
            form={form}
            name={`${listName}[${i}].${kind}`}
            label={`${noun} ${i + 1}`}
            type={kind === 'email' ? 'email' : 'tel'}
            autoComplete={kind === 'email' ? 'email' : 'tel'}
            value={row.value}
            onInput={(value) => update(i, { value })}
            disabled={row.remove}
            placeholder={kind === 'phone' ? '+15551234567' : undefined}
          />
          <div class="field-check">
            <input
              type="radio"
              id={`${form.inputId(listName)}-primary-${i}`}
              name={`${form.id}-${kind}-primary`}
              checked={row.primary}
              disabled={row.remove}
              onChange={() => onChange(rows.map((r, j) => ({ ...r, primary: j === i })))}
            />
            <label for={`${form.inputId(listName)}-primary-${i}`}>
              Primary {noun.toLowerCase()} {i + 1}
            </label>
          </div>
          {row.id ? (
            <div class="field-check">
              <input
                type="checkbox"
                id={`${form.inputId(listName)}-remove-${i}`}
                checked={row.remove}
                onChange={(e) => update(i, { remove: (e.currentTarget as HTMLInputElement).checked })}
              />
              <label for={`${form.inputId(listName)}-remove-${i}`}>
                Remove {noun.toLowerCase()} {i + 1}
              </label>
            </div>
          ) : (
            <button type="button" class="button button-small" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Discard {noun.toLowerCase()} {i + 1}
            </button>
          )}
        </div>
      ))}
      {errors && (
        <p id={`${form.inputId(listName)}-error`} class="field-error">
          {errors.join(' ')}
        </p>
      )}
      <button
        type="button"
        class="button button-small"
        onClick={() => onChange([...rows, { value: '', primary: rows.length === 0, remove: false }])}
      >
        Add {kind === 'email' ? 'an e-mail address' : 'a phone number'}
      </button>
    </fieldset>
  );
}

const rowsOf = <T extends { id: string; primary: boolean }>(items: T[], value: (item: T) => string): ContactRow[] =>
  items.map((item) => ({ id: item.id, value: value(item), primary: item.primary, remove: false }));

function attributes(rows: ContactRow[], key: 'email' | 'phone') {
  // Every row, in the order shown: the API's messages name rows by their index.
  return rows.map((row) =>
    row.remove ? { id: row.id, _destroy: true } : { ...(row.id ? { id: row.id } : {}), [key]: row.value.trim(), primary: row.primary },
  );
}

export function AccountUserForm({
  accountUser,
  showRoles,
  title,
  onSaved,
}: {
  accountUser: AccountUser;
  showRoles: boolean;
  title: string;
  onSaved: () => void;
}) {
  const user = accountUser.user;
  const [name, setName] = useState(user.name);
  const [timeZone, setTimeZone] = useState(user.time_zone || 'UTC');
  const [emails, setEmails] = useState(() => rowsOf(user.emails, (e) => e.email));
  const [phones, setPhones] = useState(() => rowsOf(user.phones, (p) => p.phone));
  const [channels, setChannels] = useState({
    notify_push: user.notify_push,
    notify_email: user.notify_email,
    notify_sms: user.notify_sms,
    notify_voice: user.notify_voice,
    notify_slack: user.notify_slack,
  });
  const [slackUserId, setSlackUserId] = useState(accountUser.slack_user_id ?? '');
  const [roles, setRoles] = useState({ ...accountUser.roles });
  const [saved, setSaved] = useState(false);
  const form = useForm();

  return (
    <section class="card" aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`}>{title}</h2>
      {saved && <Notice kind="success">Saved.</Notice>}
      <Form
        form={form}
        label={title}
        onSubmit={async () => {
          setSaved(false);
          const ok = await form.submit(async () => {
            const slack = slackUserId.trim() || null;
            const updated = await api.put<AccountUser>(`/api/v4/account_users/${accountUser.id}`, {
              ...(showRoles ? { roles } : {}),
              ...(slack !== accountUser.slack_user_id ? { slack_user_id: slack } : {}),
              user_attributes: {
                name,
                time_zone: timeZone,
                ...channels,
                emails_attributes: attributes(emails, 'email'),
                phones_attributes: attributes(phones, 'phone'),
              },
            });
            // New rows now have ids, removed ones are gone: show what the service keeps.
            setEmails(rowsOf(updated.user.emails, (e) => e.email));
            setPhones(rowsOf(updated.user.phones, (p) => p.phone));
            setSlackUserId(updated.slack_user_id ?? '');
          });
          if (ok) {
            setSaved(true);
            onSaved();
          }
        }}
      >
        <TextField form={form} name="user_attributes.name" label="Name" autoComplete="name" value={name} onInput={setName} />
        <SelectField
          form={form}
          name="user_attributes.time_zone"
          label="Time zone"
          value={timeZone}
          options={timeZones(timeZone)}
          onChange={setTimeZone}
        />
        <ContactRows form={form} kind="email" rows={emails} onChange={setEmails} />
        <ContactRows form={form} kind="phone" rows={phones} onChange={setPhones} />
        <TextField
          form={form}
          name="slack_user_id"
          label="Slack user id"
          value={slackUserId}
          onInput={setSlackUserId}
          placeholder="U0123ABCD"
          hint="Who this is in the connected Slack workspace (in Slack: their profile, ⋮ More, Copy member ID). Left empty, the first page by Slack looks them up by their primary e-mail and keeps what it finds."
        />
        <fieldset class="field">
          <legend>Notification channels</legend>
          <p class="hint">Used when no notification rule applies.</p>
          {CHANNELS.map(([key, label]) => (
            <CheckboxField
              key={key}
              form={form}
              name={`user_attributes.${key}`}
              label={label}
              checked={channels[key]}
              onChange={(checked) => setChannels({ ...channels, [key]: checked })}
            />
          ))}
        </fieldset>
        {showRoles && <RoleChecks form={form} field="roles" legend="Roles" roles={roles} onChange={setRoles} />}
        <SubmitButton form={form} label="Save" busyLabel="Saving…" />
      </Form>
    </section>
  );
}
