// Audit (admins): the account's audit trail, newest first (GET /api/v4/audit_events), filtered by
// actor, object type, action and a date range, 25 at a time; each event's changed fields as
// before → after (secrets arrive already shown as "[redacted]").
import { api, type Page } from '../api';
import { ErrorList, Loading, PageTitle, Pager, useLoad } from '../components/ui';
import { useDirectory, type Directory } from '../directory';
import { formatDateTime, plural } from '../lib/format';
import { navigate, type PageProps } from '../router';
import type { AuditEvent } from '../types';

const PAGE_SIZE = 25;

const OBJECT_TYPES = [
  'account',
  'account_user',
  'api_key',
  'automation',
  'broadcast',
  'escalation_policy',
  'event',
  'integration',
  'maintenance_window',
  'notification_rule',
  'router',
  'schedule',
  'sso_settings',
  'team',
];
const ACTIONS = ['create', 'update', 'delete', 'sign_in', 'sign_in_failed'];

const words = (name: string) => name.replace(/_/g, ' ');

function actorName(event: AuditEvent, directory: Directory): string {
  if (event.actor_type === 'system' || !event.actor_id) return 'System';
  if (event.actor_type === 'account_user') return directory.personName(event.actor_id);
  return `${event.actor_type === 'api_key' ? 'API key' : 'SCIM token'} …${event.actor_id.slice(-6)}`;
}

const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

function Changes({ changes }: { changes: AuditEvent['changes'] }) {
  const fields = Object.entries(changes);
  if (fields.length === 0) return <span class="hint">No fields</span>;
  return (
    <dl class="audit-changes">
      {fields.map(([field, [before, after]]) => (
        <div key={field}>
          <dt>
            <code>{field}</code>
          </dt>
          <dd>
            <span class="audit-before">{shown(before)}</span> → <span class="audit-after">{shown(after)}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A date input's day as the created_at bound of the filter: the start of its first or the end of its last day (UTC). */
function createdAtQuery(from: string, to: string): Record<string, string> {
  const start = from ? `${from}T00:00:00.000Z` : '';
  const end = to ? `${to}T23:59:59.999Z` : '';
  if (start && end) return { ops: 'created_at:between', created_at: `${start}..${end}` };
  if (start) return { ops: 'created_at:gte', created_at: start };
  if (end) return { ops: 'created_at:lte', created_at: end };
  return {};
}

export function AuditPage({ query }: PageProps) {
  const directory = useDirectory();
  const filters = {
    actor_id: query.get('actor_id') ?? '',
    object_type: query.get('object_type') ?? '',
    action: query.get('action') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
  const page = Math.max(1, Number(query.get('page')) || 1);
  const setQuery = (changes: Record<string, string | null>) =>
    navigate('/audit', { ...filters, page: page > 1 ? String(page) : null, ...changes }, { replace: true });

  const list = useLoad(() => {
    const { from, to, ...keys } = filters;
    const params: Record<string, string | number> = { limit: PAGE_SIZE, page, ...createdAtQuery(from, to) };
    for (const [name, value] of Object.entries(keys)) if (value) params[name] = value;
    return api.get<Page<AuditEvent>>('/api/v4/audit_events', params);
  }, [filters.actor_id, filters.object_type, filters.action, filters.from, filters.to, page]);
  const total = list.data?.total_count ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const people = [...directory.users].sort((a, b) => a.user.name.localeCompare(b.user.name));

  const select = (
    id: string,
    label: string,
    key: 'actor_id' | 'object_type' | 'action',
    all: string,
    options: { value: string; label: string }[],
  ) => (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={filters[key]}
        onChange={(e) => setQuery({ [key]: (e.currentTarget as HTMLSelectElement).value || null, page: null })}
      >
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  const day = (id: string, label: string, key: 'from' | 'to') => (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={filters[key]}
        onChange={(e) => setQuery({ [key]: (e.currentTarget as HTMLInputElement).value || null, page: null })}
      />
    </div>
  );

  return (
    <section aria-labelledby="audit-title">
      <PageTitle>
        <span id="audit-title">Audit</span>
      </PageTitle>
      <p class="hint">Who changed what in the account, and every sign-in. Kept at least a year; nobody can change or delete an event.</p>
      <form class="filters" role="search" aria-label="Filter audit events" onSubmit={(e) => e.preventDefault()}>
        {select(
          'audit-actor',
          'Actor',
          'actor_id',
          'Anyone',
          people.map((u) => ({ value: u.id, label: u.user.name })),
        )}
        {select(
          'audit-object-type',
          'Object type',
          'object_type',
          'Every type',
          OBJECT_TYPES.map((t) => ({ value: t, label: words(t) })),
        )}
        {select(
          'audit-action',
          'Action',
          'action',
          'Every action',
          ACTIONS.map((a) => ({ value: a, label: words(a) })),
        )}
        {day('audit-from', 'From (UTC)', 'from')}
        {day('audit-to', 'To (UTC)', 'to')}
      </form>
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="audit events" />
      ) : (
        <>
          <p class="summary" id="audit-summary">
            {total === 0 ? 'No audit events match.' : `${plural(total, 'audit event')}, newest first`}
          </p>
          {list.data && list.data.data.length > 0 && (
            <table class="table audit-table">
              <caption class="visually-hidden">Audit events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Action</th>
                  <th scope="col">Object</th>
                  <th scope="col">Changes</th>
                  <th scope="col">From</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((event) => (
                  <tr key={event.id} data-audit-event-id={event.id}>
                    <td>
                      <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
                    </td>
                    <td>{actorName(event, directory)}</td>
                    <td>{words(event.action)}</td>
                    <td>
                      {words(event.object_type)}
                      {event.object_id && <span class="hint"> …{event.object_id.slice(-6)}</span>}
                    </td>
                    <td>
                      <Changes changes={event.changes} />
                    </td>
                    <td>
                      {event.ip ?? '—'}
                      {event.user_agent && <span class="hint audit-agent">{event.user_agent}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager label="Pages of audit events" page={page} lastPage={lastPage} goTo={(to) => setQuery({ page: to })} />
        </>
      )}
    </section>
  );
}
