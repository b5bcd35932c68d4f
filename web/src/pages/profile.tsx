// Profile: the signed-in person edits their own name, time zone, e-mails, phones and notification
// channels (PUT /api/v4/account_users/<own id>; allowed without the admin role, docs/api.md#roles),
// sees the content of their notification rule and picks another (notification_rule_id), and changes
// their password (POST /api/v4/account_users/<own id>/password).
// A password change refuses every login token issued before it, this tab's too: the tab signs in
// again at once with the new password, so the person stays signed in here and only here.
import { useState } from 'preact/hooks';
import { api, renewSession, request } from '../api';
import { AccountUserForm } from '../components/account-user-form';
import { Form, SubmitButton, TextField, useForm } from '../components/form';
import { ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { currentClaims, endSession, startSession } from '../session';
import type { AccountUser } from '../types';
import { listNotificationRules } from './notification-rules';
import { NotificationRuleCard, rolesText, ruleName } from './users';

export function ProfilePage() {
  const directory = useDirectory();
  const me = currentClaims()?.acu ?? '';
  const loaded = useLoad(() => api.get<AccountUser>(`/api/v4/account_users/${encodeURIComponent(me)}`), [me]);
  const rules = useLoad(listNotificationRules, []);
  if (loaded.loading && !loaded.data) return <Loading what="your profile" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const u = loaded.data;
  return (
    <section>
      <PageTitle>Profile</PageTitle>
      <dl class="fields card">
        <dt>Roles</dt>
        <dd>{rolesText(u)}</dd>
        <dt>Notification rule</dt>
        <dd>{ruleName(u, rules.data)}</dd>
      </dl>
      <NotificationRuleCard
        accountUser={u}
        rules={rules.data}
        canChoose
        onSaved={() => {
          void loaded.reload();
          void directory.reload();
        }}
      />
      <AccountUserForm
        key={u.id}
        accountUser={u}
        showRoles={false}
        title="Your details"
        onSaved={() => {
          void loaded.reload();
          void directory.reload();
        }}
      />
      <ChangePasswordForm accountUser={u} />
    </section>
  );
}

function ChangePasswordForm({ accountUser }: { accountUser: AccountUser }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState(false);
  const form = useForm();
  const emails = accountUser.user.emails;
  const username = (emails.find((e) => e.primary) ?? emails[0])?.email ?? '';

  const change = async () => {
    setChanged(false);
    const ok = await form.submit(() =>
      renewSession(async () => {
        await api.post<void>(`/api/v4/account_users/${encodeURIComponent(accountUser.id)}/password`, {
          current_password: current,
          password: next,
        });
        // The change refused this tab's token too: sign in again with the new password, into the same account.
        try {
          const { token } = await request<{ token: string }>(
            'POST',
            '/public/login',
            { username, password: next, account_id: currentClaims()?.acc },
            { anonymous: true },
          );
          startSession(token);
        } catch {
          endSession('Your password was changed. Sign in with your new password.');
        }
      }),
    );
    if (ok) {
      setCurrent('');
      setNext('');
      setChanged(true);
    }
  };

  return (
    <section class="card" aria-labelledby={`${form.id}-title`}>
      <h2 id={`${form.id}-title`}>Change password</h2>
      {changed && <Notice kind="success">Password changed. You stay signed in here; your other sessions were signed out.</Notice>}
      <Form form={form} label="Change password" onSubmit={change}>
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={username} readOnly hidden />
        <TextField
          form={form}
          name="current_password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onInput={setCurrent}
          required
        />
        <TextField
          form={form}
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onInput={setNext}
          hint="At least 8 characters. Every other session is signed out."
          required
        />
        <SubmitButton form={form} label="Change password" busyLabel="Changing…" />
      </Form>
    </section>
  );
}
