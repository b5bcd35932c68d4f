// Teams: the list, a new team (members and admins; the API also makes its schedule and escalation
// policy), and one team's settings (PUT /api/v4/teams/:id; an admin of the account or of the team),
// its Slack channel and chat webhooks among them.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ChatWebhooksField, chatWebhookSummary, type ChatWebhook } from '../components/chat-webhooks-field';
import { CheckboxGroup, Form, saveOrCreate, SelectField, SubmitButton, TextArea, TextField, useForm } from '../components/form';
import { ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { href, navigate, type PageProps } from '../router';
import type { EscalationPolicy, Team } from '../types';

const NOTIFY_OPTIONS = [
  { value: 'none', label: 'Nobody' },
  { value: 'team_all', label: 'All members and admins' },
  { value: 'team_admins', label: 'Team admins' },
  { value: 'oncall_rotation', label: 'Whoever is on call' },
  { value: 'specific_users', label: 'Specific people' },
];

export function TeamsPage() {
  const directory = useDirectory();
  const names = (ids: string[]) => ids.map((id) => directory.personName(id)).join(', ') || '—';
  return (
    <section>
      <PageTitle>Teams</PageTitle>
      {!directory.loaded ? (
        <Loading what="teams" />
      ) : directory.teams.length === 0 ? (
        <p>No teams yet.</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">Teams</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Members</th>
              <th scope="col">Admins</th>
              <th scope="col">Schedule</th>
              <th scope="col">Escalation policy</th>
            </tr>
          </thead>
          <tbody>
            {[...directory.teams]
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((team) => (
                <tr key={team.id}>
                  <td>
                    <a href={href(`/teams/${team.id}`)}>{team.name}</a>
                  </td>
                  <td>{names(team.member_account_user_ids)}</td>
                  <td>{names(team.admin_account_user_ids)}</td>
                  <td>{team.schedule_id ? <a href={href(`/schedules/${team.schedule_id}`)}>Schedule</a> : '—'}</td>
                  <td>
                    {team.escalation_policy_id ? <a href={href(`/escalation-policies/${team.escalation_policy_id}`)}>Policy</a> : '—'}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && <TeamForm />}
    </section>
  );
}

/** Creates a team, or edits one. */
function TeamForm({ team, onSaved }: { team?: Team; onSaved?: () => void }) {
  const directory = useDirectory();
  const [name, setName] = useState(team?.name ?? '');
  const [notes, setNotes] = useState(team?.notes ?? '');
  const [members, setMembers] = useState<string[]>(team?.member_account_user_ids ?? []);
  const [admins, setAdmins] = useState<string[]>(team?.admin_account_user_ids ?? []);
  const [dropNotifications, setDrop] = useState<string>(team?.drop_notifications ?? 'team_admins');
  const [handoffNotifications, setHandoff] = useState<string>(team?.handoff_notifications ?? 'none');
  const [chats, setChats] = useState<ChatWebhook[]>(team?.chat_webhooks ?? []);
  const [slackChannel, setSlackChannel] = useState(team?.slack_channel_id ?? '');
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const people = directory.users.map((u) => ({ value: u.id, label: u.user.name }));
  const title = team ? 'Team settings' : 'New team';

  return (
    <section class="card" aria-labelledby="team-form-title">
      <h2 id="team-form-title">{title}</h2>
      {saved && <Notice kind="success">Saved.</Notice>}
      <Form
        form={form}
        label={title}
        onSubmit={async () => {
          setSaved(false);
          const body = {
            name,
            notes,
            member_account_user_ids: members,
            admin_account_user_ids: admins,
            drop_notifications: dropNotifications,
            handoff_notifications: handoffNotifications,
            ...(team
              ? {
                  chat_webhooks: chats.map((chat) => ({ type: chat.type, url: chat.url.trim() })),
                  slack_channel_id: slackChannel.trim() || null,
                }
              : {}),
          };
          const updated = await saveOrCreate<Team>(form, {
            collection: '/api/v4/teams',
            id: team?.id,
            body,
            created: async (created) => {
              await directory.reload();
              navigate(`/teams/${created.id}`);
            },
          });
          if (updated) {
            setSaved(true);
            await directory.reload();
            onSaved?.();
          }
        }}
      >
        <TextField form={form} name="name" label="Name" value={name} onInput={setName} />
        <CheckboxGroup
          form={form}
          name="member_account_user_ids"
          legend="Members"
          options={people}
          values={members}
          onChange={setMembers}
        />
        <CheckboxGroup form={form} name="admin_account_user_ids" legend="Admins" options={people} values={admins} onChange={setAdmins} />
        {team && (
          <>
            <SelectField
              form={form}
              name="drop_notifications"
              label="When an alert is dropped, tell"
              value={dropNotifications}
              options={NOTIFY_OPTIONS}
              onChange={setDrop}
            />
            <SelectField
              form={form}
              name="handoff_notifications"
              label="When the people on call change, tell"
              value={handoffNotifications}
              options={NOTIFY_OPTIONS}
              onChange={setHandoff}
            />
            <TextArea form={form} name="notes" label="Notes" value={notes} onInput={setNotes} />
            <TextField
              form={form}
              name="slack_channel_id"
              label="Slack channel id"
              value={slackChannel}
              onInput={setSlackChannel}
              placeholder="C0123ABCD"
              hint="Each alert assigned to this team is posted to this channel of the connected Slack workspace and updated as it changes (in Slack: the channel's details, at the bottom). Invite the bot to a private channel. Empty: no channel."
            />
            <ChatWebhooksField form={form} rows={chats} onChange={setChats} />
          </>
        )}
        <SubmitButton form={form} label={team ? 'Save team' : 'Create team'} busyLabel="Saving…" />
      </Form>
    </section>
  );
}

export function TeamPage({ params }: PageProps) {
  const directory = useDirectory();
  const loaded = useLoad(async () => {
    const team = await api.get<Team>(`/api/v4/teams/${encodeURIComponent(params.id)}`);
    const policy = team.escalation_policy_id
      ? await api.get<EscalationPolicy>(`/api/v4/escalation_policies/${team.escalation_policy_id}`).catch(() => null)
      : null;
    return { team, policy };
  }, [params.id]);
  if (loaded.loading && !loaded.data) return <Loading what="the team" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const { team, policy } = loaded.data;
  const canEdit = directory.isAdmin || Boolean(directory.me && team.admin_account_user_ids.includes(directory.me.id));
  return (
    <section>
      <p class="breadcrumb">
        <a href={href('/teams')}>Teams</a>
      </p>
      <PageTitle>{team.name}</PageTitle>
      <ul class="links">
        {team.schedule_id && (
          <li>
            <a href={href(`/schedules/${team.schedule_id}`)}>Schedule of {team.name}</a>
          </li>
        )}
        {team.escalation_policy_id && (
          <li>
            <a href={href(`/escalation-policies/${team.escalation_policy_id}`)}>Escalation policy: {policy?.name ?? 'open'}</a>
          </li>
        )}
        <li>
          <a href={href('/on-call')}>Who is on call</a>
        </li>
      </ul>
      {canEdit ? (
        <TeamForm team={team} onSaved={() => void loaded.reload()} />
      ) : (
        <dl class="fields card">
          <dt>Members</dt>
          <dd>{team.member_account_user_ids.map((id) => directory.personName(id)).join(', ') || '—'}</dd>
          <dt>Admins</dt>
          <dd>{team.admin_account_user_ids.map((id) => directory.personName(id)).join(', ') || '—'}</dd>
          <dt>Notes</dt>
          <dd>{team.notes || '—'}</dd>
          <dt>Slack channel id</dt>
          <dd>{team.slack_channel_id ? <code>{team.slack_channel_id}</code> : '—'}</dd>
          <dt>Chat webhooks</dt>
          <dd>{team.chat_webhooks.map(chatWebhookSummary).join(', ') || '—'}</dd>
        </dl>
      )}
    </section>
  );
}
