// Schedules: the list (and a new one), and one schedule's week in the viewer's time zone from
// GET /api/v4/schedule/:id/window_events, with rotations, overrides and removed occurrences told
// apart (the schedule's events, GET /api/v4/schedules/:id/events, say which is which), previous and
// next week, a form to override an occurrence (POST /api/v4/events/:id/override) and one to add a
// shift (POST /api/v4/events); the layers' gaps (GET /api/v4/schedules/:id/coverage) marked red in
// the week and listed for the next 4 weeks, a fairness table (GET /api/v4/schedules/:id/fairness:
// hours, night hours and weekend hours per person over the last or next 4 weeks), and a secret calendar address to subscribe to
// (POST /api/v4/schedules/:id/calendar, shown as a webcal link).
import { useMemo, useState } from 'preact/hooks';
import { api, ApiError, listAll } from '../api';
import { CheckboxField, CheckboxGroup, Form, SelectField, SubmitButton, TextField, useForm } from '../components/form';
import { Badge, CopyButton, ErrorList, Loading, Notice, PageTitle, useLoad } from '../components/ui';
import { useDirectory } from '../directory';
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatTime,
  localInputToWallClock,
  toApiUtc,
  toLocalInput,
  viewerTimeZone,
  zoneOffsetLabel,
} from '../lib/format';
import type { OncallEntry } from '../lib/oncall';
import {
  layoutWeek,
  localDateKey,
  occurrenceStartOf,
  parseLocalDateKey,
  shiftWeek,
  weekDays,
  weekStart,
  type ScheduleEvent,
} from '../lib/week';
import { href, navigate, type PageProps } from '../router';
import type { CalendarAddress, Schedule, ScheduleCoverage, ScheduleFairness } from '../types';

export function SchedulesPage() {
  const directory = useDirectory();
  const list = useLoad(() => listAll<Schedule>('/api/v4/schedules'), []);
  return (
    <section>
      <PageTitle>Schedules</PageTitle>
      {list.error ? <ErrorList error={list.error} /> : null}
      {list.loading && !list.data ? (
        <Loading what="schedules" />
      ) : list.data && list.data.length === 0 ? (
        <p>No schedules yet. Creating a team also creates its schedule.</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">Schedules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((schedule) => (
              <tr key={schedule.id}>
                <td>
                  <a href={href(`/schedules/${schedule.id}`)}>{schedule.name}</a>
                </td>
                <td>
                  {directory.teams
                    .filter((t) => t.schedule_id === schedule.id)
                    .map((t) => t.name)
                    .join(', ') || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {directory.isAdmin && <NewSchedule />}
    </section>
  );
}

function NewSchedule() {
  const [name, setName] = useState('');
  const form = useForm();
  return (
    <section class="card" aria-labelledby="new-schedule">
      <h2 id="new-schedule">New schedule</h2>
      <Form
        form={form}
        label="New schedule"
        onSubmit={() =>
          form.submit(async () => {
            const created = await api.post<Schedule>('/api/v4/schedules', { name });
            navigate(`/schedules/${created.id}`);
          })
        }
      >
        <TextField form={form} name="name" label="Name" value={name} onInput={setName} />
        <SubmitButton form={form} label="Create schedule" busyLabel="Creating…" />
      </Form>
    </section>
  );
}

const KIND_LABEL = { override: 'Override', rotation: 'Rotation', shift: 'Shift' } as const;

export function SchedulePage({ params, query }: PageProps) {
  const id = params.id;
  const directory = useDirectory();
  const start = weekStart(parseLocalDateKey(query.get('week')) ?? new Date());
  const days = weekDays(start);
  const end = days[7];
  const zone = viewerTimeZone();
  const weekKey = localDateKey(start);

  const loaded = useLoad(async () => {
    const window = { start: toApiUtc(start), end: toApiUtc(end) };
    const [schedule, events, entries, coverage] = await Promise.all([
      api.get<Schedule>(`/api/v4/schedules/${encodeURIComponent(id)}`),
      listAll<ScheduleEvent>(`/api/v4/schedules/${encodeURIComponent(id)}/events`),
      api.get<OncallEntry[]>(`/api/v4/schedule/${encodeURIComponent(id)}/window_events`, window),
      api.get<ScheduleCoverage>(`/api/v4/schedules/${encodeURIComponent(id)}/coverage`, window),
    ]);
    return { schedule, events, entries, coverage, weekKey, start };
  }, [id, weekKey]);

  // Laid out in the week the data was loaded for (`start` is a new Date on every render).
  const week = useMemo(() => (loaded.data ? layoutWeek(loaded.data.start, loaded.data.entries, loaded.data.events) : []), [loaded.data]);
  const people = (ids: string[]) => ids.map((a) => directory.personName(a)).join(', ');
  const canEdit =
    directory.isAdmin ||
    directory.teams.some((t) => t.schedule_id === id && directory.me && t.admin_account_user_ids.includes(directory.me.id));

  if (loaded.loading && !loaded.data) return <Loading what="the schedule" />;
  if (!loaded.data) return <ErrorList error={loaded.error} />;
  const { schedule, events, entries, coverage } = loaded.data;
  // Another week's entries are never shown under this week's heading.
  const current = loaded.data.weekKey === weekKey;

  return (
    <section aria-labelledby="schedule-title">
      <p class="breadcrumb">
        <a href={href('/schedules')}>Schedules</a>
      </p>
      <PageTitle>
        <span id="schedule-title">{schedule.name}</span>
      </PageTitle>
      {loaded.error ? <ErrorList error={loaded.error} /> : null}
      <div class="week-nav">
        <h2 id="week-heading">Week of {formatDate(start)}</h2>
        <p class="zone" id="week-zone">
          Times in {zone} ({zoneOffsetLabel(start, zone)})
        </p>
        <nav aria-label="Weeks" class="week-links">
          <a class="button button-small" href={href(`/schedules/${id}`, { week: localDateKey(shiftWeek(start, -1)) })}>
            Previous week
          </a>
          <a class="button button-small" href={href(`/schedules/${id}`)}>
            This week
          </a>
          <a class="button button-small" href={href(`/schedules/${id}`, { week: localDateKey(shiftWeek(start, 1)) })}>
            Next week
          </a>
        </nav>
      </div>
      <ul class="legend" aria-label="Legend">
        <li>
          <span class="swatch piece-rotation" aria-hidden="true" /> Rotation
        </li>
        <li>
          <span class="swatch piece-shift" aria-hidden="true" /> Shift
        </li>
        <li>
          <span class="swatch piece-override" aria-hidden="true" /> Override
        </li>
        <li>
          <span class="swatch piece-removed" aria-hidden="true" /> Removed occurrence
        </li>
        <li>
          <span class="swatch piece-gap" aria-hidden="true" /> Gap: nobody on call on a layer
        </li>
      </ul>
      {!current && <Loading what="the week" />}
      {current && (
        <ol class="week" aria-labelledby="week-heading" aria-describedby="week-zone">
          {week.map((day) => (
            <li class="day" key={day.start}>
              <h3>{formatDay(day.start)}</h3>
              {day.pieces.length === 0 && day.removed.length === 0 ? (
                <p class="empty">Nobody on call</p>
              ) : (
                <ul class="pieces">
                  {day.pieces.map((piece, i) => (
                    <li
                      key={`${piece.entry.event_id}-${piece.entry.start_time}-${i}`}
                      class={`piece piece-${piece.kind}`}
                      data-kind={piece.kind}
                    >
                      <span class="piece-time">
                        {piece.continuesBefore ? '… ' : ''}
                        {formatTime(piece.start)}–{piece.end === day.end ? '24:00' : formatTime(piece.end)}
                        {piece.continuesAfter ? ' …' : ''}
                      </span>{' '}
                      <span class="piece-layer">Layer {piece.entry.layer}</span>{' '}
                      <span class="piece-people">{people(piece.entry.attendees.map((a) => a.attendee_id))}</span>{' '}
                      <Badge kind="tag" value={KIND_LABEL[piece.kind]} />
                    </li>
                  ))}
                  {day.removed.map((removed) => (
                    <li key={`removed-${removed.event.id}-${removed.start}`} class="piece piece-removed" data-kind="removed">
                      <del>
                        {formatTime(Math.max(removed.start, day.start))}–{removed.end >= day.end ? '24:00' : formatTime(removed.end)} Layer{' '}
                        {removed.event.layer}
                      </del>{' '}
                      <Badge kind="tag" value="Removed" />
                    </li>
                  ))}
                </ul>
              )}
              <DayGaps coverage={coverage} dayStart={day.start} dayEnd={day.end} />
            </li>
          ))}
        </ol>
      )}
      <div class="columns">
        <UpcomingGaps scheduleId={schedule.id} />
        <FairnessTable scheduleId={schedule.id} />
        <CalendarSubscription scheduleId={schedule.id} />
      </div>
      {canEdit && current && (
        <div class="columns">
          <OverrideForm entries={entries} events={events} onDone={() => void loaded.reload()} />
          <NewShiftForm scheduleId={schedule.id} onDone={() => void loaded.reload()} />
        </div>
      )}
    </section>
  );
}

/** The gaps of the week's coverage that fall on one day, each cut to the day. */
function DayGaps({ coverage, dayStart, dayEnd }: { coverage: ScheduleCoverage; dayStart: number; dayEnd: number }) {
  const gaps = coverage.layers.flatMap((layer) =>
    layer.gaps
      .map((gap) => ({ layer: layer.layer, start: Math.max(Date.parse(gap.start), dayStart), end: Math.min(Date.parse(gap.end), dayEnd) }))
      .filter((gap) => gap.end > gap.start),
  );
  if (gaps.length === 0) return null;
  return (
    <ul class="pieces gaps" aria-label="Gaps">
      {gaps.map((gap) => (
        <li key={`gap-${gap.layer}-${gap.start}`} class="piece piece-gap" data-kind="gap">
          <span class="piece-time">
            {formatTime(gap.start)}–{gap.end === dayEnd ? '24:00' : formatTime(gap.end)}
          </span>{' '}
          <span class="piece-layer">Layer {gap.layer}</span> Nobody on call
        </li>
      ))}
    </ul>
  );
}

const UPCOMING_DAYS = 28;

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days ? `${days} d` : '', hours ? `${hours} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ') || '0 min';
}

/** Every layer's gaps from now to 4 weeks ahead, listed. */
function UpcomingGaps({ scheduleId }: { scheduleId: string }) {
  const loaded = useLoad(() => {
    const from = new Date();
    const window = { start: toApiUtc(from), end: toApiUtc(new Date(from.getTime() + UPCOMING_DAYS * 86_400_000)) };
    return api.get<ScheduleCoverage>(`/api/v4/schedules/${encodeURIComponent(scheduleId)}/coverage`, window);
  }, [scheduleId]);
  const layers = loaded.data?.layers ?? [];
  return (
    <section class="card" aria-labelledby="gaps-title">
      <h2 id="gaps-title">Gaps in the next 4 weeks</h2>
      <p class="hint">When a layer has nobody on call, an alert that reaches it pages no one. Times in {viewerTimeZone()}.</p>
      {loaded.error ? <ErrorList error={loaded.error} /> : null}
      {loaded.loading && !loaded.data ? <Loading what="the gaps" /> : null}
      {layers.map((layer) => (
        <div key={layer.layer} class="layer-gaps">
          <h3>Layer {layer.layer}</h3>
          {layer.gaps.length === 0 ? (
            <p class="covered">Always covered.</p>
          ) : (
            <ul class="gap-list">
              {layer.gaps.map((gap) => (
                <li key={gap.start} class="gap">
                  {formatDateTime(gap.start)} – {formatDateTime(gap.end)} ({duration(Date.parse(gap.end) - Date.parse(gap.start))})
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </section>
  );
}

const FAIRNESS_PERIODS = {
  next: { label: 'Next 4 weeks', from: 0, to: UPCOMING_DAYS },
  last: { label: 'Last 4 weeks', from: -UPCOMING_DAYS, to: 0 },
  quarter: { label: 'Last 90 days', from: -90, to: 0 },
} as const;
type FairnessPeriod = keyof typeof FAIRNESS_PERIODS;

const hoursOf = (seconds: number) => {
  const hours = seconds / 3600;
  return Number.isInteger(hours) ? String(hours) : hours.toFixed(1);
};

/** How the on-call time is shared out: hours, nights and weekends per person and layer. */
function FairnessTable({ scheduleId }: { scheduleId: string }) {
  const directory = useDirectory();
  const [period, setPeriod] = useState<FairnessPeriod>('next');
  const loaded = useLoad(() => {
    const { from, to } = FAIRNESS_PERIODS[period];
    // Whole hours, so that a reload within the hour asks for the same window.
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const window = { start: toApiUtc(new Date(now + from * 86_400_000)), end: toApiUtc(new Date(now + to * 86_400_000)) };
    return api.get<ScheduleFairness>(`/api/v4/schedules/${encodeURIComponent(scheduleId)}/fairness`, window);
  }, [scheduleId, period]);
  const rows = loaded.data?.people ?? [];
  return (
    <section class="card" aria-labelledby="fairness-title">
      <h2 id="fairness-title">Fairness</h2>
      <p class="hint">
        Who carries the pager, in hours. Nights are 22:00–07:00 and weekends Saturday and Sunday, each on the person's own clock (their
        profile's time zone).
      </p>
      <div class="filters">
        <div class="field">
          <label for="fairness-period">Period</label>
          <select
            id="fairness-period"
            value={period}
            onChange={(event) => setPeriod((event.currentTarget as HTMLSelectElement).value as FairnessPeriod)}
          >
            {Object.entries(FAIRNESS_PERIODS).map(([key, { label }]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {loaded.error ? <ErrorList error={loaded.error} /> : null}
      {loaded.loading && !loaded.data ? <Loading what="the fairness table" /> : null}
      {loaded.data && rows.length === 0 ? <p>Nobody is on call in this period.</p> : null}
      {rows.length > 0 ? (
        <table class="table fairness">
          <caption class="visually-hidden">On-call time per person, {FAIRNESS_PERIODS[period].label.toLowerCase()}</caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Layer</th>
              <th scope="col">Hours</th>
              <th scope="col">Night hours</th>
              <th scope="col">Weekend hours</th>
              <th scope="col">Shifts</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.layer}-${row.account_user_id}`} data-person={row.account_user_id}>
                <th scope="row">
                  {directory.personName(row.account_user_id)} <span class="hint">({row.time_zone})</span>
                </th>
                <td>{row.layer}</td>
                <td>{hoursOf(row.seconds)}</td>
                <td>{hoursOf(row.night_seconds)}</td>
                <td>{hoursOf(row.weekend_seconds)}</td>
                <td>{row.spans}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** A secret address of this schedule's shifts for a calendar app, made on request and shown once. */
function CalendarSubscription({ scheduleId }: { scheduleId: string }) {
  const [address, setAddress] = useState<string | null>(null);
  const form = useForm();
  return (
    <section class="card" aria-labelledby="calendar-title">
      <h2 id="calendar-title">Add to calendar</h2>
      <p class="hint">
        Subscribe to this schedule in a calendar app: the shifts from a week ago to 90 days ahead, kept up to date by the app. Anyone with
        the address can read the schedule; an admin can revoke every address.
      </p>
      {address ? (
        <>
          <p>
            <a class="button" href={address.replace(/^https?:/, 'webcal:')}>
              Subscribe in your calendar app
            </a>
          </p>
          <p>
            <code class="calendar-address">{address}</code> <CopyButton value={address} description="Copy the calendar address" />
          </p>
        </>
      ) : (
        <Form
          form={form}
          label="Add to calendar"
          onSubmit={() =>
            form.submit(async () => {
              const created = await api.post<CalendarAddress>(`/api/v4/schedules/${encodeURIComponent(scheduleId)}/calendar`);
              setAddress(created.url);
            })
          }
        >
          <SubmitButton form={form} label="Get a calendar address" busyLabel="Getting one…" />
        </Form>
      )}
    </section>
  );
}

function OverrideForm({ entries, events, onDone }: { entries: OncallEntry[]; events: ScheduleEvent[]; onDone: () => void }) {
  const directory = useDirectory();
  const byId = useMemo(() => new Map(events.map((e) => [e.id, e])), [events]);
  const occurrences = entries.filter((e) => !byId.get(e.event_id)?.parent_id);
  const [choice, setChoice] = useState('');
  const [startTime, setStartTime] = useState('');
  const [endTime, setEndTime] = useState('');
  const [who, setWho] = useState<string[]>([]);
  const [done, setDone] = useState<string | null>(null);
  // An action_time the API refuses is about the chosen occurrence.
  const form = useForm({ action_time: 'occurrence', layer: 'occurrence' });
  const people = (ids: string[]) => ids.map((a) => directory.personName(a)).join(', ');

  const choose = (value: string) => {
    setChoice(value);
    const entry = occurrences[Number(value)];
    if (entry) {
      setStartTime(toLocalInput(entry.start_time));
      setEndTime(toLocalInput(entry.end_time));
    }
  };

  return (
    <section class="card" aria-labelledby="override-title">
      <h2 id="override-title">Override a shift</h2>
      <p class="hint">Someone else takes part of a shift. Times in {viewerTimeZone()}.</p>
      {done && <Notice kind="success">{done}</Notice>}
      <Form
        form={form}
        label="Override a shift"
        onSubmit={async () => {
          setDone(null);
          const ok = await form.submit(async () => {
            const entry = occurrences[Number(choice)];
            if (choice === '' || !entry) throw new ApiError(422, ["occurrence can't be blank"]);
            await api.post(`/api/v4/events/${entry.event_id}/override`, {
              start_time: localInputToWallClock(startTime),
              end_time: localInputToWallClock(endTime),
              layer: entry.layer,
              time_zone: viewerTimeZone(),
              account_user_ids: who,
              action_time: new Date(occurrenceStartOf(entry, entries, byId)).toISOString(),
            });
          });
          if (ok) {
            setDone(`Override added: ${people(who)}.`);
            setChoice('');
            setWho([]);
            onDone();
          }
        }}
      >
        <SelectField
          form={form}
          name="occurrence"
          label="Shift"
          value={choice}
          onChange={choose}
          placeholder="Choose a shift this week"
          options={occurrences.map((entry, i) => ({
            value: String(i),
            label: `${formatDateTime(entry.start_time)} – ${formatDateTime(entry.end_time)}, layer ${entry.layer}: ${people(entry.attendees.map((a) => a.attendee_id))}`,
          }))}
        />
        <TextField form={form} name="start_time" label="From" type="datetime-local" value={startTime} onInput={setStartTime} />
        <TextField form={form} name="end_time" label="To" type="datetime-local" value={endTime} onInput={setEndTime} />
        <CheckboxGroup
          form={form}
          name="account_user_ids"
          legend="On call instead"
          values={who}
          onChange={setWho}
          options={directory.users.map((u) => ({ value: u.id, label: u.user.name }))}
        />
        <SubmitButton form={form} label="Add override" busyLabel="Adding…" />
      </Form>
    </section>
  );
}

const REPEATS = [
  { value: '', label: 'Does not repeat' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
];

function NewShiftForm({ scheduleId, onDone }: { scheduleId: string; onDone: () => void }) {
  const directory = useDirectory();
  const [startDatetime, setStart] = useState('');
  const [endDatetime, setEnd] = useState('');
  const [layer, setLayer] = useState('1');
  const [repeat, setRepeat] = useState('');
  const [rotation, setRotation] = useState(false);
  const [who, setWho] = useState<string[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm();
  return (
    <section class="card" aria-labelledby="shift-title">
      <h2 id="shift-title">Add a shift</h2>
      <p class="hint">Times in {viewerTimeZone()}. A rotation hands each occurrence to the next person in order.</p>
      {done && <Notice kind="success">{done}</Notice>}
      <Form
        form={form}
        label="Add a shift"
        onSubmit={async () => {
          setDone(null);
          const ok = await form.submit(async () => {
            await api.post('/api/v4/events', {
              start_datetime: startDatetime,
              end_datetime: endDatetime,
              layer: layer === '' ? undefined : Number(layer),
              time_zone: viewerTimeZone(),
              repeat: repeat !== '',
              ...(repeat ? { frequency: 1, frequency_unit: repeat } : {}),
              rotation,
              account_user_ids: who,
              schedule_ids: [scheduleId],
            });
          });
          if (ok) {
            setDone('Shift added.');
            setWho([]);
            onDone();
          }
        }}
      >
        <TextField form={form} name="start_datetime" label="Starts" type="datetime-local" value={startDatetime} onInput={setStart} />
        <TextField form={form} name="end_datetime" label="Ends" type="datetime-local" value={endDatetime} onInput={setEnd} />
        <TextField form={form} name="layer" label="Layer" type="number" min={1} value={layer} onInput={setLayer} />
        <SelectField form={form} name="frequency_unit" label="Repeats" value={repeat} onChange={setRepeat} options={REPEATS} />
        <CheckboxField
          form={form}
          name="rotation"
          label="Rotation (one person per occurrence, in order)"
          checked={rotation}
          onChange={setRotation}
        />
        <CheckboxGroup
          form={form}
          name="account_user_ids"
          legend="People"
          values={who}
          onChange={setWho}
          options={directory.users.map((u) => ({ value: u.id, label: u.user.name }))}
        />
        <SubmitButton form={form} label="Add shift" busyLabel="Adding…" />
      </Form>
    </section>
  );
}
