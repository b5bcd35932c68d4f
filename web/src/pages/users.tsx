// Users: the account's people with their roles, e-mails, phones and notification channels, a new
// person (POST /api/v4/account_users: the service e-mails them a generated password), and one
// person's settings (admins), with the notification rule their pages follow and the rule's content,
// and a test notification per channel (admins, and the person themself).
import { useState } from 'preact/hooks';
import { api } from '../api';
import { AccountUserForm } from '../components/account-user-form';
import { SendTestButtons } from '../components/notification-checks';
import { CheckboxField, Form, SubmitButton, TextField, useForm } from '../components/form';
import { ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { href, type PageProps } from '../router';
import type { AccountUser, NotificationRule } from '../types';
import { listNotificationRules, RuleContent, RulePicker } from './notification-rules';
import { formatDateTime } from '../lib/format';

export const rolesText = (u: AccountUser) =>
  (Object.entries(u.roles) as [string, boolean][])
    .filter(([, on]) => on)
    .map(([role]) => role)
    .join(', ') || 'member';

export const channelsText = (u: AccountUser) =>
  [
    u.user.notify_push && 'push',
    u.user.notify_email && 'e-mail',
    u.user.notify_sms && 'SMS',
    u.user.notify_voice && 'voice',
    u.user.notify_slack && 'Slack',
  ]
    .filter(Boolean)
    .join(', ') || 'none';

/** The name of the rule an account user follows, or what happens without one. */
export function ruleName(u: AccountUser, rules: NotificationRule[] | undefined): string {
  if (!u.notification_rule_id) return 'None: default channels';
  const rule = rules?.find((r) => r.id === u.notification_rule_id);
  if (!rule) return rules ? 'Unknown rule' : '…';
  return rule.enabled ? rule.name : `${rule.name} (disabled)`;
}

export function UsersPage() {
  const directory = useDirectory();
  const rules = useLoad(listNotificationRules, []);
  const users = [...directory.users].sort((a, b) => a.user.name.localeCompare(b.user.name));
  return (
    <section>
      <PageTitle actions={<a href={href('/notification-rules')}>Notification rules</a>}>Users</PageTitle>
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
                  {u.deactivated_at && (
                    <>
                      {' '}
                      <span class="badge badge-tag" title={`Deactivated by the identity provider ${formatDateTime(u.deactivated_at)}`}>
                        deactivated
                      </span>
                    </>
                  )}
                </td>
                <td>{rolesText(u)}</td>
                <td>
                  {u.user.emails.map((e) => `${e.email}${e.primary && u.user.emails.length > 1 ? ' (primary)' : ''}`).join(', ') || '—'}
                </td>
                <td>
                  {u.user.phones.map((p) => `${p.phone}${p.primary && u.user.phones.length > 1 ? ' (primary)' : ''}`).join(', ') || '—'}
                </td>
                <td>{channelsText(u)}</td>
                <td>
                  {u.notification_rule_id ? (
                    <a href={href(`/notification-rules/${u.notification_rule_id}`)}>{ruleName(u, rules.data)}</a>
                  ) : (
                    ruleName(u, rules.data)
                  )}
                </td>
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
        <TextField
          form={form}
          name="user_attributes.emails_attributes[0].email"
          label="Email"
          type="email"
          value={email}
          onInput={setEmail}
        />
        <TextField
          form={form}
          name="user_attributes.phones_attributes[0].phone"
          label="Phone (optional)"
          type="tel"
          value={phone}
          onInput={setPhone}
          placeholder="+15551234567"
        />
        <CheckboxField form={form} name="roles.admin" label="Admin" checked={admin} onChange={setAdmin} />
        <SubmitButton form={form} label="Add user" busyLabel="Adding…" />
      </Form>
    </section>
  );
}

export function UserPage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(() => api.get<AccountUser>(`/api/v4/account_users/${encodeURIComponent(params.id)}`), [params.id]);
  const rules = useLoad(listNotificationRules, []);
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
        <dt>Slack user id</dt>
        <dd>{u.slack_user_id ? <code>{u.slack_user_id}</code> : '—'}</dd>
        <dt>Teams</dt>
        <dd>
          {directory.teams
            .filter((t) => t.member_account_user_ids.includes(u.id) || t.admin_account_user_ids.includes(u.id))
            .map((t) => t.name)
            .join(', ') || '—'}
        </dd>
      </dl>
      <NotificationRuleCard
        accountUser={u}
        rules={rules.data}
        canChoose={directory.isAdmin || isMe}
        onSaved={() => {
          void loaded.reload();
          void directory.reload();
        }}
      />
      {(directory.isAdmin || isMe) && <SendTestButtons accountUser={u} />}
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

/**
 * The rule a person's pages follow: its content as stored (GET /api/v4/notification_rules/:id), and
 * the picker for those who may change it.
 */
export function NotificationRuleCard(props: {
  accountUser: AccountUser;
  rules: NotificationRule[] | undefined;
  canChoose: boolean;
  onSaved: () => void;
}) {
  const { accountUser, rules } = props;
  const ruleId = accountUser.notification_rule_id;
  const rule = useLoad(
    async () => (ruleId ? api.get<NotificationRule>(`/api/v4/notification_rules/${encodeURIComponent(ruleId)}`) : null),
    [ruleId],
  );
  return (
    <section class="card" aria-labelledby="notification-rule-title">
      <h2 id="notification-rule-title">Notification rule</h2>
      {rule.error ? <ErrorList error={rule.error} /> : null}
      {rule.loading && rule.data === undefined ? (
        <Loading what="the notification rule" />
      ) : rule.data ? (
        <RuleContent rule={rule.data} />
      ) : (
        <p>None: pages go out on the notification channels ({channelsText(accountUser)}).</p>
      )}
      {props.canChoose && rules && <RulePicker key={ruleId ?? ''} accountUser={accountUser} rules={rules} onSaved={props.onSaved} />}
    </section>
  );
}
