// Calendar feeds and coverage (issue 22), on the local runtime with its embedded emulators, through
// HTTP: (a) the feed of a busy person, on call on 10 schedules (two rotations each), p50 of a fetch;
// (b) coverage of one schedule of 20 rotations over 90 days, p50 of the request (target ≤ 100 ms) and
// of the pure computation alone (spansInWindow + coverageOf over the same events).
import { startRuntime } from '../infra/local/runtime';
import { coverageOf } from '../lib/oncall/coverage';
import { spansInWindow } from '../lib/oncall/oncall-spans';
import type { OncallEvent } from '../lib/oncall/types';
import { KeepAliveClient, median, percentile, round, runWhenMain, type Figures } from './support';

const DAY = 86_400_000;
const ROUNDS = Number(process.env.BENCH_CALENDAR_ROUNDS ?? 30);

async function json<T = { id: string }>(client: KeepAliveClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.request(method, path, body === undefined ? undefined : JSON.stringify(body), {
    'content-type': 'application/json',
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return (res.body ? JSON.parse(res.body) : null) as T;
}

async function timed(rounds: number, run: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  await run(); // warm: the function's module, the caches of the runtime
  for (let i = 0; i < rounds; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

/** What the bench reads of GET /api/v4/schedules/:id/events. */
interface StoredEvent {
  id: string;
  layer: number;
  start_datetime: string;
  end_datetime: string;
  time_zone: string;
  repeat: boolean;
  frequency: number;
  frequency_unit: OncallEvent['frequencyUnit'];
  rotation: boolean;
  event_attendees: { attendee_id: string; position: number }[];
}

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'];
const SHAPES = [
  { frequency_unit: 'daily', frequency: 1, hours: 24 },
  { frequency_unit: 'hourly', frequency: 8, hours: 8 },
  { frequency_unit: 'weekly', frequency: 1, hours: 168 },
  { frequency_unit: 'hourly', frequency: 12, hours: 12 },
] as const;

function rotation(index: number, scheduleId: string, attendees: string[], layer: number) {
  const shape = SHAPES[index % SHAPES.length];
  const start = new Date(Date.now() - 30 * DAY);
  start.setUTCMinutes(0, 0, 0);
  start.setUTCHours(index % 24);
  return {
    start_datetime: start.toISOString(),
    end_datetime: new Date(start.getTime() + shape.hours * 3_600_000).toISOString(),
    time_zone: ZONES[index % ZONES.length],
    layer,
    repeat: true,
    frequency: shape.frequency,
    frequency_unit: shape.frequency_unit,
    rotation: true,
    account_user_ids: attendees,
    schedule_ids: [scheduleId],
  };
}

export async function benchCalendars(): Promise<Figures> {
  const apiKey = 'c'.repeat(48);
  const runtime = await startRuntime({
    port: 0,
    dataDir: ':memory:',
    tableName: 'bench-calendars',
    bootstrap: { apiKey },
    env: { OUTBOX: 'none', LOG_LEVEL: 'error' },
  });
  const admin = new KeepAliveClient(runtime.url, { authorization: `Bearer ${apiKey}` });
  const anonymous = new KeepAliveClient(runtime.url);
  const out: Figures = {};
  try {
    const people: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await json(admin, 'POST', '/api/v4/account_users', {
        user_attributes: { name: `Bench Person ${i}`, emails_attributes: [{ email: `bench-${i}-${Date.now()}@example.com` }] },
      });
      people.push(created.id);
    }
    const busy = people[0];

    // (a) 10 schedules, two rotations each, the busy person in every rotation.
    for (let s = 0; s < 10; s++) {
      const schedule = await json(admin, 'POST', '/api/v4/schedules', { name: `Bench schedule ${s}` });
      const others = people.slice(1 + (s % 4), 4 + (s % 4));
      await json(admin, 'POST', '/api/v4/events', rotation(2 * s, schedule.id, [busy, ...others], 1));
      await json(admin, 'POST', '/api/v4/events', rotation(2 * s + 1, schedule.id, [...others, busy], 2));
    }
    const { url } = await json<{ url: string }>(admin, 'POST', `/api/v4/account_users/${busy}/calendar`);
    const feedPath = new URL(url).pathname;
    let vevents = 0;
    let bytes = 0;
    const feedTimes = await timed(ROUNDS, async () => {
      const res = await anonymous.request('GET', feedPath);
      if (res.status !== 200) throw new Error(`feed: ${res.status} ${res.body.slice(0, 200)}`);
      vevents = res.body.split('BEGIN:VEVENT').length - 1;
      bytes = Buffer.byteLength(res.body);
    });
    out.feed_busy_person_p50_ms = round(median(feedTimes), 1);
    out.feed_busy_person_p90_ms = round(percentile(feedTimes, 90), 1);
    out.feed_vevents = vevents;
    out.feed_kib = round(bytes / 1024, 1);

    // (b) one schedule of 20 rotations on 3 layers, coverage over the next 90 days.
    const covered = await json(admin, 'POST', '/api/v4/schedules', { name: 'Bench coverage' });
    for (let r = 0; r < 20; r++) {
      await json(admin, 'POST', '/api/v4/events', rotation(r, covered.id, people.slice(r % 5, (r % 5) + 3), 1 + (r % 3)));
    }
    const start = new Date(Date.now()).toISOString();
    const end = new Date(Date.now() + 90 * DAY).toISOString();
    const coveragePath = `/api/v4/schedules/${covered.id}/coverage?start=${start}&end=${end}`;
    let peopleRows = 0;
    const coverageTimes = await timed(ROUNDS, async () => {
      const res = await admin.request('GET', coveragePath);
      if (res.status !== 200) throw new Error(`coverage: ${res.status} ${res.body.slice(0, 200)}`);
      peopleRows = (JSON.parse(res.body) as { people: unknown[] }).people.length;
    });
    out.coverage_20_rotations_90d_p50_ms = round(median(coverageTimes), 1);
    out.coverage_20_rotations_90d_p90_ms = round(percentile(coverageTimes, 90), 1);
    out.coverage_people_rows = peopleRows;

    // The pure part alone, over the same events as the engine reads them.
    const windowEvents = await json<unknown[]>(admin, 'GET', `/api/v4/schedule/${covered.id}/window_events?start=${start}&end=${end}`);
    out.coverage_spans = windowEvents.length;
    const stored = (await json<{ data: StoredEvent[] }>(admin, 'GET', `/api/v4/schedules/${covered.id}/events?limit=100`)).data;
    const events: OncallEvent[] = stored.map((e) => ({
      id: e.id,
      layer: e.layer,
      start: Date.parse(e.start_datetime),
      end: Date.parse(e.end_datetime),
      timeZone: e.time_zone,
      repeat: e.repeat,
      frequency: e.frequency,
      frequencyUnit: e.frequency_unit,
      daysOfWeek: null,
      repeatEnd: null,
      rotation: e.rotation,
      attendees: e.event_attendees.map((a) => ({ attendeeId: a.attendee_id, position: a.position })),
      exceptions: [],
    }));
    const from = Date.parse(start);
    const to = Date.parse(end);
    const engineTimes = await timed(ROUNDS, () => {
      coverageOf(
        spansInWindow(events, from, to),
        events.map((e) => e.layer),
        from,
        to,
      );
      return Promise.resolve();
    });
    out.coverage_engine_only_p50_ms = round(median(engineTimes), 2);
    return out;
  } finally {
    admin.close();
    anonymous.close();
    await runtime.stop();
  }
}

runWhenMain(import.meta.url, benchCalendars);
