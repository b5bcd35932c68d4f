// Users: the account's people with their roles, e-mails, phones and notification channels, a new
// person (POST /api/v4/account_users: the service e-mails them a generated password), and one
// person's settings (admins).
import { useState } from 'preact/hooks';
import { api } from '../api';
import { AccountUserForm } from '../components/account-user-form';
import { CheckboxField, Form, SubmitButton, TextField, useForm } from '../components/form';
import { ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { href } from '../router';
import type { AccountUser } from '../types';
import type { PageProps } from './index';

export const rolesText = (u: AccountUser) =>
  (Object.entries(u.roles) as [string, boolean][])
    .filter(([, on]) => on)
    .map(([role]) => role)
    .join(', ') || 'member';

export const channelsText = (u: AccountUser) =>
  [u.user.notify_push && 'push', u.user.notify_email && 'e-mail', u.user.notify_sms && 'SMS', u.user.notify_voice && 'voice'].filter(Boolean).join(', ') || 'none';

export function UsersPage() {
  const directory = useDirectory();
  const users = [...directory.users].sort((a, b) => a.user.name.localeCompare(b.user.name));
  return (
    <section>
      <PageTitle>Users</PageTitle>
      {!directory.loaded ? (
        <Loading what="users" />
      ) : (
        <table class="table">
          <caption class="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Roles</th>
              <th scope="col">E-mail addresses</th>
              <th scope="col">Phone numbers</th>
              <th scope="col">Notification channels</th>
              <th scope="col">Notification rule</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>
                  <a href={href(`/users/${u.id}`)}>{u.user.name}</a>
                </td>
                <td>{rolesText(u)}</td>
                <td>{u.user.emails.map((e) => `${e.email}${e.primary && u.user.emails.length > 1 ? ' (primary)' : ''}`).join(', ') || '—'}</td>
                <td>{u.user.phones.map((p) => `${p.phone}${p.primary && u.user.phones.length > 1 ? ' (primary)' : ''}`).join(', ') || '—'}</td>
                <td>{channelsText(u)}</td>
                <td>{u.notification_rule_id ? 'Custom rule' : 'Default channels'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && <NewUser />}
    </section>
  );
}

function NewUser() {
  const directory = useDirectory();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [admin, setAdmin] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const form = useForm();
  return (
    <section class="card" aria-labelledby="new-user">
      <h2 id="new-user">New user</h2>
      <p class="hint">They receive an e-mail with their username and a generated password.</p>
      {created && <Notice kind="success">{created}</Notice>}
      <Form
        form={form}
        label="New user"
        onSubmit={async () => {
          setCreated(null);
          const ok = await form.submit(async () => {
            await api.post('/api/v4/account_users', {
              roles: { admin },
              user_attributes: {
                name,
                emails_attributes: [{ email }],
                ...(phone.trim() ? { phones_attributes: [{ phone }] } : {}),
              },
            });
          });
          if (ok) {
            setCreated(`${name} was added and e-mailed their sign-in details.`);
            setName('');
            setEmail('');
            setPhone('');
            setAdmin(false);
            await directory.reload();
          }
        }}
      >
        <TextField form={form} name="user_attributes.name" label="Name" value={name} onInput={setName} />
        <TextField form={form} name="user_attributes.emails_attributes[0].email" label="Email" type="email" value={email} onInput={setEmail} />
        <TextField form={form} name="user_attributes.phones_attributes[0].phone" label="Phone (optional)" type="tel" value={phone} onInput={setPhone} placeholder="+15551234567" />
        <CheckboxField form={form} name="roles.admin" label="Admin" checked={admin} onChange={setAdmin} />
        <SubmitButton form={form} label="Add user" busyLabel="Adding…" />
      </Form>
    </section>
  );
}

export function UserPage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(() => api.get<AccountUser>(`/api/v4/account_users/${encodeURIComponent(params.id)}`), [params.id]);
  if (loaded.loading && !loaded.data) return <Loading what="the user" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const u = loaded.data;
  const isMe = directory.me?.id === u.id;
  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/users')}>Users</a>
      </p>
      <PageTitle>{u.user.name}</PageTitle>
      <dl class="fields card">
        <dt>Roles</dt>
        <dd>{rolesText(u)}</dd>
        <dt>Notification channels</dt>
        <dd>{channelsText(u)}</dd>
        <dt>Teams</dt>
        <dd>
          {directory.teams
            .filter((t) => t.member_account_user_ids.includes(u.id) || t.admin_account_user_ids.includes(u.id))
            .map((t) => t.name)
            .join(', ') || '—'}
        </dd>
      </dl>
      {isMe && (
        <p>
          This is you: <a href={href('/profile')}>edit your profile</a>.
        </p>
      )}
      {directory.isAdmin && !isMe && (
        <AccountUserForm
          key={u.id}
          accountUser={u}
          showRoles
          title="Settings"
          onSaved={() => {
            void loaded.reload();
            void directory.reload();
          }}
        />
      )}
    </section>
  );
}
