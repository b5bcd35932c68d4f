// One alert: its fields and incident flag (GET /api/v4/alerts/:id), assignee and handoffs (the
// earlier GET /alert/:id, the only one that shows them), its timeline (the logs it owns,
// GET /log?owner_id=alt_…), comments (GET/POST /api/v4/alerts/:id/comments) and handoff
// (the earlier POST /alert/:id/handoff {to}) and the notifications sent for it
// (GET /api/v4/notifications?alert_id=…). Refreshed every few seconds.
import { useState } from 'preact/hooks';
import { api, listAll, type Page } from '../api';
import { AlertActions, ACTION_DONE } from '../components/alert-actions';
import { Form, SelectField, SubmitButton, TextArea, useForm } from '../components/form';
import { Badge, ErrorList, Field, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory, type Directory } from '../directory';
import { formatDateTime, plural } from '../lib/format';
import { href, type PageProps } from '../router';
import type { AlertEarlier, AlertV4, Comment, LogEntry, Notification, Router } from '../types';
import { NotificationsTable } from './notifications';

const POLL_MS = 5000;
const NOTIFICATIONS_SHOWN = 50;

/** Log texts name people and teams by id; show their names. */
function withNames(text: string, directory: Directory): string {
  return text.replace(/\b(usr|tem|acu)_[0-9A-HJKMNP-TV-Z]{26}\b/g, (id) => directory.nameOfPrefixed(id));
}

export function AlertPage({ params }: PageProps) {
  const id = params.id;
  const directory = useDirectory();
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string[] } | null>(null);
  const loaded = useLoad(
    async () => {
      const path = encodeURIComponent(id);
      const [alert, earlier] = await Promise.all([api.get<AlertV4>(`/api/v4/alerts/${path}`), api.get<AlertEarlier>(`/alert/${path}`)]);
      const [timeline, comments, notifications] = await Promise.all([
        api.get<Page<LogEntry>>('/log', { owner_id: alert.prefix_id, limit: 100 }),
        api.get<Page<Comment>>(`/api/v4/alerts/${path}/comments`, { limit: 100, sort: 'created_at', direction: 'asc' }),
        api.get<Page<Notification>>('/api/v4/notifications', { alert_id: alert.id, limit: NOTIFICATIONS_SHOWN }),
      ]);
      return { alert, earlier, timeline, comments, notifications };
    },
    [id],
    POLL_MS,
  );

  const routerCount = loaded.data?.alert.destination_router_ids.length ?? 0;
  const routers = useLoad(async () => (routerCount ? listAll<Router>('/api/v4/routers') : []), [routerCount > 0]);

  if (loaded.loading && !loaded.data) return <Loading what="the alert" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const { alert, earlier, timeline, comments, notifications } = loaded.data;
  const assignee = earlier.d_user_id
    ? directory.nameOfPrefixed(earlier.d_user_id)
    : earlier.d_team_id
      ? directory.nameOfPrefixed(earlier.d_team_id)
      : '—';
  const incident = alert.meta?.incident === true;
  const routerNames = Object.fromEntries((routers.data ?? []).map((r) => [r.id, r.name]));

  return (
    <article aria-labelledby="alert-heading">
      <p class="breadcrumb">
        <a href={href('/alerts')}>Alerts</a>
      </p>
      <PageTitle>
        <span id="alert-heading">
          <span class="tiny-id">#{alert.tiny_id}</span> {alert.title}
        </span>
      </PageTitle>
      <div class="live" aria-live="polite">
        {message?.kind === 'success' && <Notice kind="success">{message.text.join(' ')}</Notice>}
      </div>
      {message?.kind === 'error' && (
        <Notice kind="error">
          {message.text.map((t) => (
            <p key={t}>{t}</p>
          ))}
        </Notice>
      )}
      {loaded.error ? <ErrorList error={loaded.error} /> : null}
      <AlertActions
        alertId={alert.id}
        status={alert.status}
        describedBy="alert-heading"
        onDone={(action) => {
          setMessage({ kind: 'success', text: [`Alert ${ACTION_DONE[action]}.`] });
          void loaded.reload();
        }}
        onError={(messages) => setMessage({ kind: 'error', text: messages })}
      />

      <section aria-labelledby="alert-fields" class="card">
        <h2 id="alert-fields">Details</h2>
        <dl class="fields">
          <Field label="Status">
            <Badge kind="status" value={alert.status} />
          </Field>
          <Field label="Urgency">
            <Badge kind="urgency" value={alert.urgency} />
          </Field>
          <Field label="Incident">
            {incident ? (
              <span class="incident">
                Yes{alert.meta.incident_severity ? `, ${alert.meta.incident_severity}` : ''}
                {alert.meta.incident_message ? `: ${alert.meta.incident_message}` : ''}
              </span>
            ) : (
              'No'
            )}
          </Field>
          <Field label="Assignee">{assignee}</Field>
          <Field label="Created">{formatDateTime(alert.created_at)}</Field>
          <Field label="Acknowledged">{formatDateTime(alert.acknowledged_at)}</Field>
          <Field label="Resolved">{formatDateTime(alert.resolved_at)}</Field>
          <Field label="Source">
            {alert.source_type === 'Integration' ? (
              <a href={href(`/integrations/${alert.source_id}`)}>Integration</a>
            ) : alert.source_type === 'AccountUser' ? (
              directory.personName(alert.source_id)
            ) : (
              alert.source_type
            )}
          </Field>
          <Field label="Destinations">
            {[
              ...alert.destination_team_ids.map((t) => directory.teamName(t)),
              ...alert.destination_account_user_ids.map((u) => directory.personName(u)),
            ].join(', ') || (alert.destination_router_ids.length === 0 ? '—' : '')}
            {alert.destination_router_ids.map((r, i) => (
              <span key={r}>
                {i > 0 || alert.destination_team_ids.length + alert.destination_account_user_ids.length > 0 ? ', ' : ''}
                <a href={href(`/routers/${r}`)}>Router {routerNames[r] ?? r.slice(-6)}</a>
              </span>
            ))}
          </Field>
          <Field label="Tags">{alert.tag_list.length ? alert.tag_list.map((t) => <Badge key={t} kind="tag" value={t} />) : '—'}</Field>
          <Field label="Deduplicated">{alert.dedup_count > 1 ? `${alert.dedup_count} times` : 'No'}</Field>
          <Field label="Third-party id">{alert.thirdparty_id ?? '—'}</Field>
          <Field label="Description">{alert.description ? <span class="pre">{alert.description}</span> : '—'}</Field>
        </dl>
      </section>

      <div class="columns">
        <section aria-labelledby="alert-timeline" class="card">
          <h2 id="alert-timeline">Timeline</h2>
          {timeline.data.length === 0 ? (
            <p>Nothing has happened to this alert yet.</p>
          ) : (
            <ol class="timeline">
              {timeline.data.map((log) => (
                <li key={log.id}>
                  <time dateTime={log.createdAt}>{formatDateTime(log.createdAt)}</time> <span>{withNames(log.content, directory)}</span>
                </li>
              ))}
            </ol>
          )}
          {earlier.handoffs && earlier.handoffs.length > 0 && (
            <>
              <h3>Handoffs</h3>
              <ul>
                {earlier.handoffs.map((h, i) => (
                  <li key={i}>
                    {formatDateTime(h.time * 1000)}: from {directory.nameOfPrefixed(h.from)} to {directory.nameOfPrefixed(h.to)}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>

        <div>
          <Comments alertId={alert.id} comments={comments.data} directory={directory} onAdded={() => void loaded.reload()} />
          <Handoff alertId={alert.id} status={alert.status} directory={directory} onDone={() => void loaded.reload()} />
        </div>
      </div>

      <section aria-labelledby="alert-notifications" class="card">
        <h2 id="alert-notifications">Notifications</h2>
        {notifications.data.length === 0 ? (
          <p>No notifications sent for this alert yet.</p>
        ) : (
          <>
            <p class="summary">
              {plural(notifications.total_count, 'notification')} sent, newest first
              {notifications.has_more && (
                <>
                  {' '}
                  (the latest {NOTIFICATIONS_SHOWN}: <a href={href('/notifications', { alert_id: alert.id })}>see them all</a>)
                </>
              )}
            </p>
            <NotificationsTable
              notifications={notifications.data}
              showAlert={false}
              caption="Notifications sent for this alert, newest first"
            />
          </>
        )}
      </section>
    </article>
  );
}

function Comments({
  alertId,
  comments,
  directory,
  onAdded,
}: {
  alertId: string;
  comments: Comment[];
  directory: Directory;
  onAdded: () => void;
}) {
  const [text, setText] = useState('');
  const form = useForm();
  return (
    <section aria-labelledby="alert-comments" class="card">
      <h2 id="alert-comments">Comments</h2>
      {comments.length === 0 ? (
        <p>No comments yet.</p>
      ) : (
        <ul class="comments">
          {comments.map((c) => (
            <li key={c.id}>
              <p class="comment-meta">
                <strong>{c.account_user_id ? directory.personName(c.account_user_id) : 'Someone'}</strong>{' '}
                <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
              </p>
              <p class="pre">{c.text}</p>
            </li>
          ))}
        </ul>
      )}
      <Form
        form={form}
        label="Add a comment"
        onSubmit={async () => {
          const ok = await form.submit(async () => {
            await api.post(`/api/v4/alerts/${encodeURIComponent(alertId)}/comments`, { text });
          });
          if (ok) {
            setText('');
            onAdded();
          }
        }}
      >
        <TextArea form={form} name="text" label="Comment" value={text} onInput={setText} />
        <SubmitButton form={form} label="Add comment" busyLabel="Adding…" />
      </Form>
    </section>
  );
}

function Handoff({ alertId, status, directory, onDone }: { alertId: string; status: string; directory: Directory; onDone: () => void }) {
  const [to, setTo] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const form = useForm();
  if (status !== 'open' && status !== 'acknowledged') return null;
  const options = [
    ...directory.teams.map((t) => ({ value: t.prefix_id, label: `Team: ${t.name}` })),
    ...directory.users.map((u) => ({ value: u.user.prefix_id, label: `Person: ${u.user.name}` })),
  ];
  return (
    <section aria-labelledby="alert-handoff" class="card">
      <h2 id="alert-handoff">Hand off</h2>
      <p class="hint">Reassigns the alert, sets it open and pages the new assignee.</p>
      {done && <Notice kind="success">{done}</Notice>}
      <Form
        form={form}
        label="Hand off the alert"
        onSubmit={async () => {
          setDone(null);
          const ok = await form.submit(async () => {
            await api.post(`/alert/${encodeURIComponent(alertId)}/handoff`, { to });
          });
          if (ok) {
            setDone(`Handed off to ${directory.nameOfPrefixed(to)}.`);
            setTo('');
            onDone();
          }
        }}
      >
        <SelectField
          form={form}
          name="to"
          label="Hand off to"
          value={to}
          options={options}
          onChange={setTo}
          placeholder="Choose a team or a person"
        />
        <SubmitButton form={form} label="Hand off" busyLabel="Handing off…" />
      </Form>
    </section>
  );
}
