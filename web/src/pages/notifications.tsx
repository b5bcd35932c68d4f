// Notifications: the outbox, newest first — what was sent to whom, on which channel, with which
// template, its status and when, and the alert it was about (GET /api/v4/notifications, filtered by
// account_user_id, channel, template, status and alert_id, searched with q, a page of 25 at a time),
// refreshed every few seconds; a failed one says why (the earlier GET /notification/:id's err). The alert page lists its own notifications with the same table (NotificationsTable).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Page } from '../api';
import { Badge, ErrorList, Loading, PageTitle, Pager, useLoad } from '../components/ui';
import { useDirectory, type Directory } from '../directory';
import { formatDateTime, plural } from '../lib/format';
import { href, navigate, type PageProps } from '../router';
import type { Notification } from '../types';

const POLL_MS = 5000;
const PAGE_SIZE = 25;

export const CHANNEL_NAMES: Record<string, string> = {
  push: 'Push',
  email: 'E-mail',
  sms: 'SMS',
  voice: 'Voice',
  slack: 'Slack',
  whatsapp: 'WhatsApp',
};

const TEMPLATES = [
  'alert_alert',
  'alert_page',
  'alert_handoff',
  'alert_acknowledged',
  'alert_rejected',
  'alert_timeout',
  'alert_dropped',
  'alert_stakeholder',
  'alert_broadcast',
  'event_goc',
  'welcome',
  'password_reset',
];
const STATUSES = ['queued', 'sent', 'delivered', 'failed'];

/** Who a notification went to: the person's name, else the address alone. */
function recipient(n: Notification, directory: Directory): string {
  return n.account_user_id ? directory.personName(n.account_user_id) : n.to;
}

/**
 * Why the failed notifications among `notifications` failed: v4 does not show it, the earlier
 * GET /notification/:id does (`err`). One read per failed row shown, only when there are some.
 */
function useFailureReasons(notifications: Notification[]): Record<string, string> {
  const failed = notifications.filter((n) => n.status === 'failed').map((n) => n.prefix_id);
  const reasons = useLoad(async () => {
    const found: Record<string, string> = {};
    await Promise.all(
      failed.map(async (id) => {
        const earlier = await api.get<{ err?: string[]; provider_status?: string | null }>(`/notification/${id}`).catch(() => null);
        const text =
          [...(earlier?.err ?? [])].join('; ') || (earlier?.provider_status ? `Provider status: ${earlier.provider_status}` : '');
        if (text) found[id] = text;
      }),
    );
    return found;
  }, [failed.join(',')]);
  return reasons.data ?? {};
}

/** The outbox's rows. `showAlert` adds the column linking each one to its alert. */
export function NotificationsTable({
  notifications,
  showAlert,
  caption,
}: {
  notifications: Notification[];
  showAlert: boolean;
  caption: string;
}) {
  const directory = useDirectory();
  const reasons = useFailureReasons(notifications);
  return (
    <table class="table notifications-table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">To</th>
          <th scope="col">Channel</th>
          <th scope="col">Template</th>
          <th scope="col">Status</th>
          <th scope="col">What was sent</th>
          {showAlert && <th scope="col">Alert</th>}
        </tr>
      </thead>
      <tbody>
        {notifications.map((n) => (
          <tr key={n.id} data-notification-id={n.id} data-channel={n.channel}>
            <td>
              <time dateTime={n.sent_at ?? n.created_at}>{formatDateTime(n.sent_at ?? n.created_at)}</time>
            </td>
            <td>
              <span class="recipient">{recipient(n, directory)}</span>
              {n.account_user_id && n.to && !n.to.startsWith('acu_') && <span class="hint recipient-address">{n.to}</span>}
            </td>
            <td>{CHANNEL_NAMES[n.channel] ?? n.channel}</td>
            <td>
              <code>{n.template}</code>
            </td>
            <td>
              <Badge kind="status" value={n.status} />
              {reasons[n.prefix_id] && <span class="hint failure-reason">{reasons[n.prefix_id]}</span>}
            </td>
            <td class="notification-content">
              {n.subject ?? n.message.split('\n')[0]}
              {n.message && n.message !== n.subject && (
                <details>
                  <summary>Message</summary>
                  <p class="pre">{n.message}</p>
                </details>
              )}
            </td>
            {showAlert && (
              <td>
                {n.alert_id ? (
                  <a href={href(`/alerts/${n.alert_id}`)} aria-label={`Open alert: ${n.subject ?? n.template}`}>
                    Open alert
                  </a>
                ) : (
                  '—'
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function NotificationsPage({ query }: PageProps) {
  const directory = useDirectory();
  const filters = {
    account_user_id: query.get('account_user_id') ?? '',
    channel: query.get('channel') ?? '',
    template: query.get('template') ?? '',
    status: query.get('status') ?? '',
    alert_id: query.get('alert_id') ?? '',
    q: query.get('q') ?? '',
  };
  const page = Math.max(1, Number(query.get('page')) || 1);
  const [alertInput, setAlertInput] = useState(filters.alert_id);
  useEffect(() => setAlertInput(filters.alert_id), [filters.alert_id]);
  const [search, setSearch] = useState(filters.q);

  // The search box sends `q` once typing pauses.
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(debounce.current), []);
  const onSearch = (value: string) => {
    setSearch(value);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => setQuery({ q: value.trim() || null, page: null }), 300);
  };

  const setQuery = (changes: Record<string, string | null>) => {
    navigate('/notifications', { ...filters, page: page > 1 ? String(page) : null, ...changes }, { replace: true });
  };

  const list = useLoad(
    () => api.get<Page<Notification>>('/api/v4/notifications', { ...filters, limit: PAGE_SIZE, page }),
    [filters.account_user_id, filters.channel, filters.template, filters.status, filters.alert_id, filters.q, page],
    POLL_MS,
  );
  const total = list.data?.total_count ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const people = [...directory.users].sort((a, b) => a.user.name.localeCompare(b.user.name));
  const select = (id: string, label: string, key: keyof typeof filters, all: string, options: { value: string; label: string }[]) => (
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

  return (
    <section aria-labelledby="notifications-title">
      <PageTitle>
        <span id="notifications-title">Notifications</span>
      </PageTitle>
      <p class="hint">Every message the service sent: pages, hand-offs, on-call changes and welcome messages.</p>
      <form
        class="filters"
        role="search"
        aria-label="Filter notifications"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ alert_id: alertInput.trim() || null, page: null });
        }}
      >
        {select(
          'notifications-person',
          'Person',
          'account_user_id',
          'Everyone',
          people.map((u) => ({ value: u.id, label: u.user.name })),
        )}
        {select(
          'notifications-channel',
          'Channel',
          'channel',
          'All channels',
          Object.entries(CHANNEL_NAMES).map(([value, label]) => ({ value, label })),
        )}
        {select(
          'notifications-template',
          'Template',
          'template',
          'All templates',
          TEMPLATES.map((t) => ({ value: t, label: t })),
        )}
        {select(
          'notifications-status',
          'Status',
          'status',
          'All statuses',
          STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) })),
        )}
        <div class="field">
          <label for="notifications-alert">Alert id</label>
          <input
            id="notifications-alert"
            type="search"
            value={alertInput}
            placeholder="alt_… or its id"
            aria-describedby="notifications-alert-hint"
            onInput={(e) => setAlertInput((e.currentTarget as HTMLInputElement).value)}
            onChange={(e) => setQuery({ alert_id: (e.currentTarget as HTMLInputElement).value.trim() || null, page: null })}
          />
          <span id="notifications-alert-hint" class="visually-hidden">
            Press Enter to filter by this alert
          </span>
        </div>
        <div class="field field-grow">
          <label for="notifications-search">Search</label>
          <input
            id="notifications-search"
            type="search"
            value={search}
            placeholder="Subject, message or address"
            onInput={(e) => onSearch((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
      </form>
      {filters.alert_id && (
        <p>
          Showing the notifications of <a href={href(`/alerts/${filters.alert_id.replace(/^alt_/, '')}`)}>one alert</a>.{' '}
          <button type="button" class="button button-small" onClick={() => setQuery({ alert_id: null, page: null })}>
            Show every alert
          </button>
        </p>
      )}
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="notifications" />
      ) : (
        <>
          <p class="summary" id="notifications-summary">
            {total === 0 ? 'No notifications match.' : `${plural(total, 'notification')}, newest first`}
          </p>
          {list.data && list.data.data.length > 0 && (
            <NotificationsTable notifications={list.data.data} showAlert caption="Notifications, newest first" />
          )}
          <Pager label="Pages of notifications" page={page} lastPage={lastPage} goTo={(to) => setQuery({ page: to })} />
        </>
      )}
    </section>
  );
}
