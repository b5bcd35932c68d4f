// The alerts inbox: the account's alerts newest first, filtered by status and urgency and searched
// with `q`, refreshed every few seconds so new and changed alerts appear without a reload.
// The list is read from the earlier interface's GET /alert: it is the one that shows each alert's
// assignee (d_team_id / d_user_id), which v4 does not; actions go through /api/v4.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Page } from '../api';
import { AlertActions, ACTION_DONE } from '../components/alert-actions';
import { Badge, ErrorList, Loading, Notice, PageTitle, Pager, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import { age, plural } from '../lib/format';
import { href, navigate, type PageProps } from '../router';
import type { AlertEarlier } from '../types';

export const POLL_MS = 2000;
const PAGE_SIZE = 25;

const STATUS_FILTERS: { value: string; label: string; statuses: string[] }[] = [
  { value: '', label: 'All statuses', statuses: [] },
  { value: 'active', label: 'Open or acknowledged', statuses: ['open', 'acknowledged'] },
  { value: 'open', label: 'Open', statuses: ['open'] },
  { value: 'acknowledged', label: 'Acknowledged', statuses: ['acknowledged'] },
  { value: 'resolved', label: 'Resolved', statuses: ['resolved'] },
  { value: 'dropped', label: 'Dropped', statuses: ['dropped'] },
  { value: 'suppressed', label: 'Suppressed', statuses: ['suppressed'] },
  { value: 'archived', label: 'Archived', statuses: ['archived'] },
];
const URGENCIES = ['critical', 'high', 'medium', 'low', 'silent'];

export function AlertsPage({ query }: PageProps) {
  const status = query.get('status') ?? '';
  const urgency = query.get('urgency') ?? '';
  const q = query.get('q') ?? '';
  const page = Math.max(1, Number(query.get('page')) || 1);
  const [search, setSearch] = useState(q);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string[] } | null>(null);
  const directory = useDirectory();

  const setQuery = (changes: Record<string, string | null>) => {
    const next: Record<string, string | null> = { status, urgency, q, page: page > 1 ? String(page) : null, ...changes };
    navigate('/alerts', next, { replace: true });
  };

  // The search box sends `q` once typing pauses.
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(debounce.current), []);
  const onSearch = (value: string) => {
    setSearch(value);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => setQuery({ q: value.trim() || null, page: null }), 300);
  };

  const statuses = STATUS_FILTERS.find((f) => f.value === status)?.statuses ?? [];
  const list = useLoad(
    () =>
      api.get<Page<AlertEarlier>>('/alert', {
        limit: PAGE_SIZE,
        page,
        status: statuses,
        urgency: urgency || undefined,
        q: q || undefined,
        select: 'tinyId,title,urgency,status,d_team_id,d_user_id,createdAt,updatedAt',
      }),
    [status, urgency, q, page],
    POLL_MS,
  );

  const now = Date.now();
  const alerts = list.data?.data ?? [];
  const total = list.data?.total_count ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <section aria-labelledby="alerts-title">
      <PageTitle>
        <span id="alerts-title">Alerts</span>
      </PageTitle>
      <form class="filters" role="search" aria-label="Filter alerts" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="alerts-status">Status</label>
          <select
            id="alerts-status"
            value={status}
            onChange={(e) => setQuery({ status: (e.currentTarget as HTMLSelectElement).value || null, page: null })}
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="alerts-urgency">Urgency</label>
          <select
            id="alerts-urgency"
            value={urgency}
            onChange={(e) => setQuery({ urgency: (e.currentTarget as HTMLSelectElement).value || null, page: null })}
          >
            <option value="">All urgencies</option>
            {URGENCIES.map((u) => (
              <option key={u} value={u}>
                {u[0].toUpperCase() + u.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div class="field field-grow">
          <label for="alerts-search">Search</label>
          <input
            id="alerts-search"
            type="search"
            value={search}
            onInput={(e) => onSearch((e.currentTarget as HTMLInputElement).value)}
            placeholder="Title or description"
          />
        </div>
      </form>

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
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="alerts" />
      ) : (
        <>
          <p class="summary" id="alerts-summary">
            {total === 0 ? 'No alerts match.' : `${plural(total, 'alert')}, newest first`}
          </p>
          {alerts.length > 0 && (
            <table class="table alerts-table" aria-describedby="alerts-summary">
              <caption class="visually-hidden">Alerts</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Title</th>
                  <th scope="col">Urgency</th>
                  <th scope="col">Status</th>
                  <th scope="col">Assignee</th>
                  <th scope="col">Age</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {alerts.map((alert) => {
                  const titleId = `alert-title-${alert.id}`;
                  return (
                    <tr key={alert.id} data-alert-id={alert.id} data-status={alert.status}>
                      <td class="tiny-id">#{alert.tinyId}</td>
                      <td>
                        <a id={titleId} href={href(`/alerts/${alert.id}`)}>
                          {alert.title}
                        </a>
                      </td>
                      <td>
                        <Badge kind="urgency" value={alert.urgency} />
                      </td>
                      <td>
                        <Badge kind="status" value={alert.status} />
                      </td>
                      <td>
                        {alert.d_user_id
                          ? directory.nameOfPrefixed(alert.d_user_id)
                          : alert.d_team_id
                            ? directory.nameOfPrefixed(alert.d_team_id)
                            : '—'}
                      </td>
                      <td>
                        <time dateTime={alert.createdAt} title={new Date(alert.createdAt).toLocaleString()}>
                          {age(alert.createdAt, now)}
                        </time>
                      </td>
                      <td>
                        <AlertActions
                          alertId={alert.id}
                          status={alert.status}
                          describedBy={titleId}
                          onDone={(action) => {
                            setMessage({ kind: 'success', text: [`Alert #${alert.tinyId} ${ACTION_DONE[action]}.`] });
                            void list.reload();
                          }}
                          onError={(messages) => setMessage({ kind: 'error', text: [`Alert #${alert.tinyId}:`, ...messages] })}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <Pager label="Pages of alerts" page={page} lastPage={lastPage} goTo={(to) => setQuery({ page: to })} />
        </>
      )}
    </section>
  );
}
