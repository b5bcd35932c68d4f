// Profile: the signed-in person edits their own name, time zone, e-mails, phones and notification
// channels (PUT /api/v4/account_users/<own id>; allowed without the admin role, contract §3).
import { api } from '../api';
import { AccountUserForm } from '../components/account-user-form';
import { ErrorList, Loading, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { currentClaims } from '../session';
import type { AccountUser } from '../types';
import { rolesText } from './users';

export function ProfilePage() {
  const directory = useDirectory();
  const me = currentClaims()?.acu ?? '';
  const loaded = useLoad(() => api.get<AccountUser>(`/api/v4/account_users/${encodeURIComponent(me)}`), [me]);
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
        <dd>{u.notification_rule_id ? `Rule ${u.notification_rule_id}` : 'None: your notification channels below are used'}</dd>
      </dl>
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
    </section>
  );
}
