// Reports (contract §14): alerts per day or week by what became of them, the times to acknowledge and
// resolve over time (GET /api/v4/reports/alerts), pages per person and channel and the night pages
// (GET /api/v4/reports/pages), for the account or one team, over the last 7, 30 or 90 UTC days.
// Each chart has its figures as a table behind it.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { DataTable, GroupedBars, Legend, Lines, StackedRows, type Series } from '../components/charts';
import { ErrorList, Loading, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import type { AlertReport, AlertReportRow, PageReport } from '../types';

const DAY_MS = 86_400_000;
const PERIODS = [7, 30, 90] as const;
const CHANNELS = ['push', 'email', 'sms', 'voice', 'slack'] as const;
const CHANNEL_NAMES: Record<(typeof CHANNELS)[number], string> = {
  push: 'Push',
  email: 'E-mail',
  sms: 'SMS',
  voice: 'Voice',
  slack: 'Slack',
};

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A duration in seconds, in the unit that reads best. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 120) return `${Math.round(seconds * 10) / 10} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 6) / 10} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

/** A bucket's label: its first day, and its last when it spans several (a week). */
function bucketLabel(row: AlertReportRow): string {
  const first = row.start.slice(5, 10);
  const last = utcDay(Date.parse(row.end) - DAY_MS).slice(5, 10);
  return first === last ? first : `${first}–${last}`;
}

interface Reports {
  alerts: AlertReport;
  pages: PageReport;
}

export function ReportsPage() {
  const directory = useDirectory();
  const [days, setDays] = useState<(typeof PERIODS)[number]>(30);
  const [bucket, setBucket] = useState<'day' | 'week'>('day');
  const [teamId, setTeamId] = useState('');
  const loaded = useLoad<Reports>(async () => {
    const end = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
    const window = { start: utcDay(end - days * DAY_MS), end: utcDay(end), team_id: teamId || undefined };
    const [alerts, pages] = await Promise.all([
      api.get<AlertReport>('/api/v4/reports/alerts', { ...window, bucket }),
      api.get<PageReport>('/api/v4/reports/pages', window),
    ]);
    return { alerts, pages };
  }, [days, bucket, teamId]);
  const teams = [...directory.teams].sort((a, b) => a.name.localeCompare(b.name));
  const scope = teamId ? directory.teamName(teamId) : 'the account';

  return (
    <section aria-labelledby="reports-title">
      <PageTitle>
        <span id="reports-title">Reports</span>
      </PageTitle>
      <form class="filters" aria-label="Report period and team" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="reports-period">Period</label>
          <select
            id="reports-period"
            value={days}
            onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value) as 7 | 30 | 90)}
          >
            {PERIODS.map((n) => (
              <option key={n} value={n}>
                Last {n} days
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="reports-bucket">Per</label>
          <select
            id="reports-bucket"
            value={bucket}
            onChange={(e) => setBucket((e.currentTarget as HTMLSelectElement).value as 'day' | 'week')}
          >
            <option value="day">Day</option>
            <option value="week">Week (from Monday)</option>
          </select>
        </div>
        <div class="field">
          <label for="reports-team">Team</label>
          <select id="reports-team" value={teamId} onChange={(e) => setTeamId((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">All teams</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <p class="hint">
        Days are UTC days. An alert counts on the day it was created, with what became of it since; times are measured from its creation.
      </p>
      <ErrorList error={loaded.error} />
      {loaded.loading && !loaded.data ? (
        <Loading what="the reports" />
      ) : loaded.data ? (
        <ReportCharts reports={loaded.data} scope={scope} personName={(id, name) => name ?? directory.personName(id)} />
      ) : null}
    </section>
  );
}

function ReportCharts({
  reports,
  scope,
  personName,
}: {
  reports: Reports;
  scope: string;
  personName: (id: string, name: string | null) => string;
}) {
  const rows = reports.alerts.buckets;
  const labels = rows.map(bucketLabel);
  const total = reports.alerts.total;
  const counts: Series[] = [
    { name: 'Created', values: rows.map((r) => r.created) },
    { name: 'Acknowledged', values: rows.map((r) => r.acknowledged) },
    { name: 'Resolved', values: rows.map((r) => r.resolved) },
    { name: 'Dropped', values: rows.map((r) => r.dropped) },
  ];
  const times = (pick: (r: AlertReportRow) => AlertReportRow['mtta']): Series[] => [
    { name: 'Mean', values: rows.map((r) => pick(r).mean) },
    { name: 'Median (p50)', values: rows.map((r) => pick(r).p50) },
    { name: 'p90', values: rows.map((r) => pick(r).p90) },
  ];
  const people = reports.pages.people;
  const names = people.map((p) => personName(p.account_user_id, p.name));
  const byChannel: Series[] = CHANNELS.map((channel) => ({ name: CHANNEL_NAMES[channel], values: people.map((p) => p.pages[channel]) }));
  const nightAndDay: Series[] = [
    { name: 'Night (22:00–07:00 their time)', values: people.map((p) => p.night_pages) },
    { name: 'Day', values: people.map((p) => p.total_pages - p.night_pages) },
  ];
  const per = reports.alerts.bucket === 'week' ? 'week' : 'day';

  return (
    <>
      <p class="summary" role="status">
        {total.created} alerts created for {scope}: {total.acknowledged} acknowledged (median {formatSeconds(total.mtta.p50)}),{' '}
        {total.resolved} resolved (median {formatSeconds(total.mttr.p50)}), {total.dropped} dropped.
      </p>
      <section class="card" aria-labelledby="report-alerts">
        <h2 id="report-alerts">Alerts per {per}</h2>
        <GroupedBars
          id="chart-alerts"
          title={`Alerts per ${per}`}
          description={`Bars per ${per}: alerts created, and of those how many were acknowledged, resolved and dropped. The table below has the figures.`}
          labels={labels}
          series={counts}
        />
        <Legend names={counts.map((s) => s.name)} />
        <DataTable
          caption={`Alerts per ${per}`}
          head={[per === 'week' ? 'Week' : 'Day', 'Created', 'Acknowledged', 'Resolved', 'Dropped']}
          rows={rows.map((r, i) => [labels[i], r.created, r.acknowledged, r.resolved, r.dropped])}
        />
      </section>
      <div class="columns">
        {(
          [
            ['mtta', 'Time to acknowledge', (r: AlertReportRow) => r.mtta],
            ['mttr', 'Time to resolve', (r: AlertReportRow) => r.mttr],
          ] as const
        ).map(([key, title, pick]) => (
          <section key={key} class="card" aria-labelledby={`report-${key}`}>
            <h2 id={`report-${key}`}>{title}</h2>
            <Lines
              id={`chart-${key}`}
              title={`${title} per ${per}`}
              description={`Lines per ${per}: the mean, median and 90th percentile ${title.toLowerCase()}, from creation. The table below has the figures.`}
              labels={labels}
              series={times(pick)}
              format={formatSeconds}
            />
            <Legend names={times(pick).map((s) => s.name)} />
            <DataTable
              caption={`${title} per ${per}`}
              head={[per === 'week' ? 'Week' : 'Day', 'Mean', 'Median', 'p90']}
              rows={rows.map((r, i) => [labels[i], formatSeconds(pick(r).mean), formatSeconds(pick(r).p50), formatSeconds(pick(r).p90)])}
            />
          </section>
        ))}
      </div>
      <div class="columns">
        <section class="card" aria-labelledby="report-pages">
          <h2 id="report-pages">Pages per person and channel</h2>
          {people.length === 0 ? (
            <p class="empty">Nobody was paged in this period.</p>
          ) : (
            <>
              <StackedRows
                id="chart-pages"
                title="Pages per person and channel"
                description="A bar per person, split by channel. The table below has the figures."
                labels={names}
                series={byChannel}
              />
              <Legend names={byChannel.map((s) => s.name)} />
              <DataTable
                caption="Pages per person and channel"
                head={['Person', ...CHANNELS.map((c) => CHANNEL_NAMES[c]), 'All', 'Acknowledged']}
                rows={people.map((p, i) => [names[i], ...CHANNELS.map((c) => p.pages[c]), p.total_pages, p.acknowledged])}
              />
            </>
          )}
        </section>
        <section class="card" aria-labelledby="report-nights">
          <h2 id="report-nights">Night pages</h2>
          {people.length === 0 ? (
            <p class="empty">Nobody was paged in this period.</p>
          ) : (
            <>
              <StackedRows
                id="chart-nights"
                title="Pages at night and by day per person"
                description="A bar per person: pages between 22:00 and 07:00 in their time zone, then the others. The table below has the figures."
                labels={names}
                series={nightAndDay}
              />
              <Legend names={nightAndDay.map((s) => s.name)} />
              <DataTable
                caption="Night pages per person"
                head={['Person', 'Night pages', 'All pages']}
                rows={people.map((p, i) => [names[i], p.night_pages, p.total_pages])}
              />
            </>
          )}
        </section>
      </div>
    </>
  );
}
