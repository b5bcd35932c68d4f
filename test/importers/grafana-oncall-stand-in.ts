// A Grafana OnCall public API v1 stand-in on loopback, serving one stack from fixtures in Grafana
// OnCall's wire format (grafana.com/docs/oncall/latest/oncall-api-reference): `Authorization:
// <token>`; lists as `{count, next, previous, results, page_size, current_page_number,
// total_pages}` whose `next` is the whole URL of the next page; /api/v1/users, /teams, /schedules
// (with their `shifts` ids), /on_call_shifts, /escalation_chains, /escalation_policies,
// /integrations, /routes; and /schedules/{id}/final_shifts?start_date&end_date rendering the schedule.
//
// The rendering is this file's own reading of Grafana OnCall's documented rules, sharing nothing
// with the importer. A shift's `start`, `rotation_start` and `until` are wall-clock times of its
// `time_zone` (else the schedule's, else UTC); each occurrence lasts `duration` seconds on that wall
// clock (Python's aware datetime + timedelta), elapsed for hourly recurrences.
// recurrent_event: occurrences every `interval` hours (elapsed), days or weeks (the schedule's wall
// clock; weeks begin on `week_start`, counted from the start's week) at the start's time of day, on
// the `by_day` weekdays when given; all `users` on call together. rolling_users: the same
// occurrences, the user group of turn t = (turn + start_rotation_from_user_index) mod groups, a
// turn being an hour step, a calendar day, or `interval` weeks; occurrences before `rotation_start`
// are dropped. single_event: one occurrence. The highest `level` with somebody on call decides
// (people of the same level add up); an `override` shift beats every level.
import { DateTime } from 'luxon';
import {
  combineByPrecedence,
  plusOnWallClock,
  startLoopbackJsonServer,
  type LoopbackJsonServer,
  type StandInAnswer,
  type StandInRequest,
} from './loopback-json-server';

export interface GoUser {
  id: string;
  email: string;
  username: string;
  name: string | null;
  role: 'admin' | 'editor' | 'viewer';
  timezone: string | null;
  teams: string[];
}

export interface GoTeam {
  id: string;
  name: string;
  email: string | null;
}

export type GoWeekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

export interface GoShift {
  id: string;
  name: string;
  type: 'single_event' | 'recurrent_event' | 'rolling_users' | 'override';
  team_id: string | null;
  time_zone: string | null;
  level: number;
  start: string;
  rotation_start?: string;
  duration: number;
  frequency?: 'hourly' | 'daily' | 'weekly' | 'monthly' | null;
  interval?: number | null;
  until?: string | null;
  week_start?: GoWeekday;
  by_day?: GoWeekday[] | null;
  by_monthday?: number[] | null;
  users?: string[];
  rolling_users?: string[][];
  start_rotation_from_user_index?: number | null;
}

export interface GoSchedule {
  id: string;
  name: string;
  type: 'web' | 'calendar' | 'ical';
  team_id: string | null;
  time_zone: string;
  shifts: string[];
  ical_url_primary?: string | null;
}

export interface GoEscalationStep {
  id: string;
  escalation_chain_id: string;
  position: number;
  type: string;
  duration?: number;
  persons_to_notify?: string[];
  persons_to_notify_next_each_time?: string[];
  notify_on_call_from_schedule?: string;
  team_to_notify?: string;
  action_to_trigger?: string;
  important?: boolean;
}

export interface GoIntegration {
  id: string;
  name: string;
  type: string;
  team_id: string | null;
  link: string;
  default_route: { id: string; escalation_chain_id: string | null };
  maintenance_mode?: string | null;
}

export interface GoRoute {
  id: string;
  integration_id: string;
  escalation_chain_id: string | null;
  routing_type: 'regex' | 'jinja2';
  routing_regex: string;
  position: number;
  is_the_last_route: boolean;
}

export interface GrafanaOnCallStack {
  users: GoUser[];
  teams: GoTeam[];
  schedules: GoSchedule[];
  shifts: GoShift[];
  escalationChains: { id: string; name: string; team_id: string | null }[];
  escalationPolicies: GoEscalationStep[];
  integrations: GoIntegration[];
  /** Every integration's routes; the default one (`is_the_last_route`) is its `default_route`. */
  routes: GoRoute[];
}

interface Piece {
  start: number;
  end: number;
  who: string[];
}

const WEEKDAYS: Record<GoWeekday, number> = { MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6, SU: 7 };

function occurrences(shift: GoShift, zone: string, to: number): { start: number; turn: number }[] {
  const first = DateTime.fromISO(shift.start, { zone });
  const until = shift.until ? DateTime.fromISO(shift.until, { zone }).toMillis() : Infinity;
  const found: { start: number; turn: number }[] = [];
  const keep = (at: DateTime, turn: number) => {
    if (at.toMillis() >= first.toMillis() && at.toMillis() <= until) found.push({ start: at.toMillis(), turn });
  };
  if (shift.type === 'single_event' || shift.type === 'override' || !shift.frequency) {
    keep(first, 0);
    return found;
  }
  const interval = shift.interval ?? 1;
  const days = shift.by_day?.map((d) => WEEKDAYS[d]);
  if (shift.frequency === 'hourly') {
    for (let k = 0; first.toMillis() + k * interval * 3_600_000 < to; k += 1)
      keep(DateTime.fromMillis(first.toMillis() + k * interval * 3_600_000, { zone }), k);
  } else if (shift.frequency === 'daily') {
    for (let k = 0; ; k += interval) {
      const day = first.plus({ days: k });
      if (day.toMillis() >= to) break;
      if (!days || days.includes(day.weekday)) keep(day, shift.type === 'rolling_users' ? k / interval : k);
    }
  } else if (shift.frequency === 'weekly') {
    const weekStart = WEEKDAYS[shift.week_start ?? 'SU'];
    const firstWeek = first.minus({ days: (first.weekday - weekStart + 7) % 7 });
    for (let week = 0; ; week += interval) {
      const weekBegin = firstWeek.plus({ weeks: week });
      if (weekBegin.toMillis() >= to) break;
      for (let offset = 0; offset < 7; offset += 1) {
        const day = weekBegin.plus({ days: offset });
        if ((days ?? [first.weekday]).includes(day.weekday)) keep(day, week / interval);
      }
    }
  }
  return found;
}

/** One shift's on-call pieces within [from, to). */
export function renderGoShift(shift: GoShift, scheduleZone: string, from: number, to: number): Piece[] {
  const zone = shift.time_zone ?? scheduleZone;
  const rotationStart = shift.rotation_start ? DateTime.fromISO(shift.rotation_start, { zone }).toMillis() : -Infinity;
  const groups = shift.type === 'rolling_users' ? (shift.rolling_users ?? []) : [shift.users ?? shift.rolling_users?.flat() ?? []];
  const offset = shift.start_rotation_from_user_index ?? 0;
  const pieces: Piece[] = [];
  for (const occurrence of occurrences(shift, zone, to)) {
    if (shift.type === 'rolling_users' && occurrence.start < rotationStart) continue;
    const end =
      shift.frequency === 'hourly' ? occurrence.start + shift.duration * 1000 : plusOnWallClock(occurrence.start, shift.duration, zone);
    if (end <= from || groups.length === 0) continue;
    const who = shift.type === 'rolling_users' ? groups[(occurrence.turn + offset) % groups.length] : groups[0];
    pieces.push({ start: Math.max(occurrence.start, from), end: Math.min(end, to), who });
  }
  return pieces;
}

export function renderGoFinal(stack: GrafanaOnCallStack, schedule: GoSchedule, from: number, to: number): Piece[] {
  const shifts = schedule.shifts.map((id) => stack.shifts.find((s) => s.id === id)!).filter(Boolean);
  const levels = [...new Set(shifts.filter((s) => s.type !== 'override').map((s) => s.level))].sort((a, b) => a - b);
  const layers = levels.map((level) =>
    shifts.filter((s) => s.type !== 'override' && s.level === level).flatMap((s) => renderGoShift(s, schedule.time_zone, from, to)),
  );
  const overrides = shifts.filter((s) => s.type === 'override').flatMap((s) => renderGoShift(s, schedule.time_zone, from, to));
  return combineByPrecedence(layers, overrides, from, to);
}

export class GrafanaOnCallStandIn {
  readonly token = 'glsa_stand_in_token_0123456789';
  private server: LoopbackJsonServer | null = null;

  private constructor(
    readonly stack: GrafanaOnCallStack,
    private readonly pageSize: number,
  ) {}

  /** `pageSize`: items per page (Grafana OnCall's is 50; tests lower it to page). */
  static async start(stack: GrafanaOnCallStack, options: { pageSize?: number } = {}): Promise<GrafanaOnCallStandIn> {
    const standIn = new GrafanaOnCallStandIn(stack, options.pageSize ?? 50);
    standIn.server = await startLoopbackJsonServer((request, baseUrl) => standIn.answer(request, baseUrl));
    return standIn;
  }

  /** The stack's OnCall API URL, as Grafana shows it (its path ends before /api/v1). */
  get apiUrl(): string {
    return `${this.server!.url}/oncall`;
  }

  get requests(): StandInRequest[] {
    return this.server!.requests;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private page(request: StandInRequest, baseUrl: string, items: unknown[]): StandInAnswer {
    const pageNumber = Number(request.query.get('page') ?? 1);
    const totalPages = Math.max(1, Math.ceil(items.length / this.pageSize));
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > totalPages)
      return { status: 404, body: { detail: 'Invalid page.' } };
    const link = (n: number) => {
      const url = new URL(`${baseUrl}${request.path}`);
      request.query.forEach((value, key) => url.searchParams.set(key, value));
      url.searchParams.set('page', String(n));
      return url.toString();
    };
    return {
      status: 200,
      body: {
        count: items.length,
        next: pageNumber < totalPages ? link(pageNumber + 1) : null,
        previous: pageNumber > 1 ? link(pageNumber - 1) : null,
        results: items.slice((pageNumber - 1) * this.pageSize, pageNumber * this.pageSize),
        page_size: this.pageSize,
        current_page_number: pageNumber,
        total_pages: totalPages,
      },
    };
  }

  private answer(request: StandInRequest, baseUrl: string): StandInAnswer {
    if (request.headers.authorization !== this.token) return { status: 401, body: { detail: 'Invalid token.' } };
    if (request.method !== 'GET') return { status: 405, body: { detail: `Method "${request.method}" not allowed.` } };
    const notFound = { status: 404, body: { detail: 'Not found.' } };
    const match = /^\/oncall\/api\/v1\/([a-z_]+)\/?(?:([A-Z0-9]+)\/?(?:([a-z_]+)\/?)?)?$/.exec(request.path);
    if (!match) return notFound;
    const [, collection, id, action] = match;
    const { stack } = this;
    const list = (items: unknown[]) => (id ? notFound : this.page(request, baseUrl, items));
    switch (collection) {
      case 'users':
        return list(stack.users);
      case 'teams':
        return list(stack.teams.map((t) => ({ ...t, avatar_url: `https://grafana.example/avatar/${t.id}` })));
      case 'on_call_shifts':
        return list(stack.shifts.map((s) => ({ ...s, source: 'api' })));
      case 'escalation_chains':
        return list(stack.escalationChains);
      case 'escalation_policies': {
        const chain = request.query.get('escalation_chain_id');
        return list(stack.escalationPolicies.filter((p) => !chain || p.escalation_chain_id === chain));
      }
      case 'integrations':
        return list(stack.integrations);
      case 'routes': {
        const integration = request.query.get('integration_id');
        return list(stack.routes.filter((r) => !integration || r.integration_id === integration));
      }
      case 'schedules': {
        if (!id) return list(stack.schedules.map((s) => ({ ...s, on_call_now: [], slack: null, ical_url_overrides: null })));
        const schedule = stack.schedules.find((s) => s.id === id);
        if (!schedule || action !== 'final_shifts') return notFound;
        return this.finalShifts(request, baseUrl, schedule);
      }
      default:
        return notFound;
    }
  }

  private finalShifts(request: StandInRequest, baseUrl: string, schedule: GoSchedule): StandInAnswer {
    const startDate = request.query.get('start_date') ?? '';
    const endDate = request.query.get('end_date') ?? '';
    const from = Date.parse(`${startDate}T00:00:00Z`);
    const to = Date.parse(`${endDate}T00:00:00Z`) + 86_400_000;
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(startDate) ||
      !/^\d{4}-\d{2}-\d{2}$/.test(endDate) ||
      Number.isNaN(from) ||
      Number.isNaN(to) ||
      to <= from
    ) {
      return { status: 400, body: { detail: 'start_date and end_date must be dates, end_date not before start_date' } };
    }
    if (to - from > 366 * 86_400_000) return { status: 400, body: { detail: 'end_date cannot be more than 365 days after start_date' } };
    const results = renderGoFinal(this.stack, schedule, from, to).flatMap((piece) =>
      piece.who.map((userId) => {
        const user = this.stack.users.find((u) => u.id === userId);
        return {
          user_pk: userId,
          user_email: user?.email ?? null,
          user_username: user?.username ?? null,
          shift_start: new Date(piece.start).toISOString().replace('.000Z', 'Z'),
          shift_end: new Date(piece.end).toISOString().replace('.000Z', 'Z'),
        };
      }),
    );
    return this.page(request, baseUrl, results);
  }
}
