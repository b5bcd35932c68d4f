// A PagerDuty REST API v2 stand-in on loopback, serving an account from fixtures in PagerDuty's own
// wire format (developer.pagerduty.com, REST API v2): `Authorization: Token token=<key>`; classic
// pagination (`limit` ≤ 100, default 25, `offset`; answers `limit`, `offset`, `more`, and `total`
// only when asked with `total=true`); `include[]=contact_methods` on /users and
// `include[]=integrations` on /services (references otherwise); /teams/{id}/members with roles;
// /schedules listing without layers and GET /schedules/{id}?since&until rendering every layer's
// `rendered_schedule_entries`, `overrides_subschedule` and `final_schedule` by PagerDuty's rules;
// /schedules/{id}/overrides; /escalation_policies with escalation_rules and targets.
//
// The rendering is this file's own reading of PagerDuty's documented rules, sharing nothing with
// the importer: turn k of a layer runs from rotation_virtual_start + k × rotation_turn_length_seconds
// and belongs to users[k mod n] (lengths of whole days follow the schedule zone's wall clock, so a
// 09:00 hand-off stays 09:00 across DST); restrictions (daily: every day from start_time_of_day for
// duration_seconds on the wall clock, so Friday 18:00 for 62 hours ends Monday 08:00 even on the
// weekend the clocks change; weekly: from start_day_of_week, ISO 1 = Monday) cut each turn to the
// restricted intervals; the layer counts from its `start` to its `end`; a later layer wins over an earlier one
// wherever it has somebody; an override wins over every layer for its span.
import { DateTime } from 'luxon';
import {
  combineByPrecedence,
  plusOnWallClock,
  startLoopbackJsonServer,
  type LoopbackJsonServer,
  type StandInAnswer,
  type StandInRequest,
} from './loopback-json-server';

interface Reference {
  id: string;
  type: string;
  summary?: string;
}

export interface PdContactMethod {
  id: string;
  type: 'email_contact_method' | 'phone_contact_method' | 'sms_contact_method' | 'push_notification_contact_method';
  label: string;
  address: string;
  country_code?: number;
}

export interface PdUser {
  id: string;
  name: string;
  email: string;
  time_zone: string;
  role: string;
  contact_methods: PdContactMethod[];
}

export interface PdTeam {
  id: string;
  name: string;
  description: string | null;
  members: { userId: string; role: 'manager' | 'responder' | 'observer' }[];
}

export interface PdRestriction {
  type: 'daily_restriction' | 'weekly_restriction';
  start_time_of_day: string;
  duration_seconds: number;
  start_day_of_week?: number;
}

export interface PdLayer {
  id: string;
  name: string;
  start: string;
  end: string | null;
  rotation_virtual_start: string;
  rotation_turn_length_seconds: number;
  userIds: string[];
  restrictions: PdRestriction[];
}

export interface PdOverride {
  id: string;
  start: string;
  end: string;
  userId: string;
}

export interface PdSchedule {
  id: string;
  name: string;
  description: string | null;
  time_zone: string;
  teamIds: string[];
  /** Lowest first: a later layer wins over an earlier one (PagerDuty's Layer 1, Layer 2 …). */
  layers: PdLayer[];
  overrides: PdOverride[];
}

export interface PdEscalationPolicy {
  id: string;
  name: string;
  description: string | null;
  num_loops: number;
  teamIds: string[];
  rules: { id: string; escalation_delay_in_minutes: number; targets: { type: 'user_reference' | 'schedule_reference'; id: string }[] }[];
}

export interface PdService {
  id: string;
  name: string;
  status: 'active' | 'warning' | 'critical' | 'maintenance' | 'disabled';
  escalationPolicyId: string;
  teamIds: string[];
  integrations: { id: string; type: string; name: string; integration_key?: string; integration_email?: string; vendor?: string | null }[];
}

export interface PagerDutyAccount {
  users: PdUser[];
  teams: PdTeam[];
  schedules: PdSchedule[];
  escalationPolicies: PdEscalationPolicy[];
  services: PdService[];
}

interface Piece {
  start: number;
  end: number;
  who: string[];
}

const DAY_SECONDS = 86_400;

function inZone(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();
}

/** The restricted intervals of a layer that overlap [from, to), on the schedule zone's wall clock. */
function restrictedIntervals(restrictions: PdRestriction[], zone: string, from: number, to: number): [number, number][] {
  const intervals: [number, number][] = [];
  const firstDay = DateTime.fromMillis(from, { zone }).startOf('day').minus({ days: 8 });
  for (let day = firstDay; day.toMillis() < to; day = day.plus({ days: 1 })) {
    for (const restriction of restrictions) {
      if (restriction.type === 'weekly_restriction' && day.weekday !== restriction.start_day_of_week) continue;
      const [hour, minute, second] = restriction.start_time_of_day.split(':').map(Number);
      const start = day.set({ hour, minute, second: second ?? 0 }).toMillis();
      const end = plusOnWallClock(start, restriction.duration_seconds, zone);
      if (end > from && start < to) intervals.push([Math.max(start, from), Math.min(end, to)]);
    }
  }
  return intervals;
}

/** One layer's on-call pieces within [from, to). */
export function renderPdLayer(layer: PdLayer, zone: string, from: number, to: number): Piece[] {
  const anchor = DateTime.fromISO(layer.rotation_virtual_start, { zone });
  const length = layer.rotation_turn_length_seconds;
  const turnStart = (k: number): number =>
    length % DAY_SECONDS === 0 ? anchor.plus({ days: (k * length) / DAY_SECONDS }).toMillis() : anchor.toMillis() + k * length * 1000;
  const activeFrom = Math.max(Date.parse(layer.start), from);
  const activeTo = Math.min(layer.end ? Date.parse(layer.end) : Infinity, to);
  const pieces: Piece[] = [];
  if (activeFrom >= activeTo || layer.userIds.length === 0) return pieces;
  let k = 0;
  while (turnStart(k) > activeFrom) k -= 1;
  for (; turnStart(k) < activeTo; k += 1) {
    const [start, end] = [turnStart(k), turnStart(k + 1)];
    if (end <= activeFrom) continue;
    const n = layer.userIds.length;
    const who = [layer.userIds[((k % n) + n) % n]];
    const intervals = layer.restrictions.length
      ? restrictedIntervals(layer.restrictions, zone, start, end)
      : [[start, end] as [number, number]];
    for (const [a, b] of intervals) {
      const [s, e] = [Math.max(a, activeFrom), Math.min(b, activeTo)];
      if (s < e) pieces.push({ start: s, end: e, who });
    }
  }
  return pieces.sort((a, b) => a.start - b.start);
}

/** The schedule's final on-call within [from, to): PagerDuty's `final_schedule`. */
export function renderPdFinal(schedule: PdSchedule, from: number, to: number): Piece[] {
  const layers = schedule.layers.map((layer) => renderPdLayer(layer, schedule.time_zone, from, to));
  const overrides = schedule.overrides.map((o) => ({ start: Date.parse(o.start), end: Date.parse(o.end), who: [o.userId] }));
  return combineByPrecedence(layers, overrides, from, to);
}

export class PagerDutyStandIn {
  readonly apiKey = 'u+pd-stand-in-key';
  private server: LoopbackJsonServer | null = null;

  private constructor(
    readonly account: PagerDutyAccount,
    private readonly maxLimit: number,
  ) {}

  /** `maxLimit`: the most a page holds whatever `limit` asks (PagerDuty's is 100; tests lower it to page). */
  static async start(account: PagerDutyAccount, options: { maxLimit?: number } = {}): Promise<PagerDutyStandIn> {
    const standIn = new PagerDutyStandIn(account, options.maxLimit ?? 100);
    standIn.server = await startLoopbackJsonServer((request) => standIn.answer(request));
    return standIn;
  }

  get url(): string {
    return this.server!.url;
  }

  get requests(): StandInRequest[] {
    return this.server!.requests;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private userRef(id: string): Reference {
    return { id, type: 'user_reference', summary: this.account.users.find((u) => u.id === id)?.name ?? id };
  }

  private page(request: StandInRequest, key: string, items: unknown[]): StandInAnswer {
    const limit = Math.min(Number(request.query.get('limit') ?? 25), this.maxLimit);
    const offset = Number(request.query.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) {
      return { status: 400, body: { error: { message: 'Invalid Input Provided', code: 2001, errors: ['limit or offset is invalid'] } } };
    }
    return {
      status: 200,
      body: {
        [key]: items.slice(offset, offset + limit),
        limit,
        offset,
        more: offset + limit < items.length,
        total: request.query.get('total') === 'true' ? items.length : null,
      },
    };
  }

  /** How many of the next requests PagerDuty's rate limit refuses (429, `Retry-After: 1`). */
  rateLimited = 0;

  private answer(request: StandInRequest): StandInAnswer {
    if (this.rateLimited > 0) {
      this.rateLimited -= 1;
      return { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate Limit Exceeded', code: 2020 } } };
    }
    if (request.headers.authorization !== `Token token=${this.apiKey}`) {
      return { status: 401, body: { error: { message: 'Unauthorized', code: 2006 } } };
    }
    if (request.method !== 'GET') return { status: 405, body: { error: { message: 'Method Not Allowed', code: 2000 } } };
    const includes = request.query.getAll('include[]');
    const parts = request.path.split('/').filter(Boolean);
    const notFound = { status: 404, body: { error: { message: 'Not Found', code: 2100 } } };
    const { account } = this;
    if (parts[0] === 'users' && parts.length === 1) {
      return this.page(
        request,
        'users',
        account.users.map((u) => ({
          id: u.id,
          type: 'user',
          summary: u.name,
          name: u.name,
          email: u.email,
          time_zone: u.time_zone,
          role: u.role,
          contact_methods: includes.includes('contact_methods')
            ? u.contact_methods
            : u.contact_methods.map((c) => ({ id: c.id, type: `${c.type}_reference` })),
          teams: account.teams
            .filter((t) => t.members.some((m) => m.userId === u.id))
            .map((t) => ({ id: t.id, type: 'team_reference', summary: t.name })),
        })),
      );
    }
    if (parts[0] === 'users' && parts[2] === 'contact_methods') {
      const user = account.users.find((u) => u.id === parts[1]);
      return user ? { status: 200, body: { contact_methods: user.contact_methods } } : notFound;
    }
    if (parts[0] === 'teams' && parts.length === 1) {
      return this.page(
        request,
        'teams',
        account.teams.map((t) => ({ id: t.id, type: 'team', summary: t.name, name: t.name, description: t.description })),
      );
    }
    if (parts[0] === 'teams' && parts[2] === 'members') {
      const team = account.teams.find((t) => t.id === parts[1]);
      if (!team) return notFound;
      return this.page(
        request,
        'members',
        team.members.map((m) => ({ user: this.userRef(m.userId), role: m.role })),
      );
    }
    if (parts[0] === 'schedules' && parts.length === 1) {
      return this.page(
        request,
        'schedules',
        account.schedules.map((s) => ({
          id: s.id,
          type: 'schedule',
          summary: s.name,
          name: s.name,
          description: s.description,
          time_zone: s.time_zone,
          teams: s.teamIds.map((id) => ({ id, type: 'team_reference' })),
        })),
      );
    }
    if (parts[0] === 'schedules') {
      const schedule = account.schedules.find((s) => s.id === parts[1]);
      if (!schedule) return notFound;
      if (parts[2] === 'overrides') return this.overrides(request, schedule);
      if (parts.length === 2) return this.schedule(request, schedule);
      return notFound;
    }
    if (parts[0] === 'escalation_policies' && parts.length === 1) {
      return this.page(
        request,
        'escalation_policies',
        account.escalationPolicies.map((p) => ({
          id: p.id,
          type: 'escalation_policy',
          summary: p.name,
          name: p.name,
          description: p.description,
          num_loops: p.num_loops,
          on_call_handoff_notifications: 'if_has_services',
          escalation_rules: p.rules.map((r) => ({
            id: r.id,
            escalation_delay_in_minutes: r.escalation_delay_in_minutes,
            targets: r.targets.map((t) => ({ id: t.id, type: t.type, summary: t.id })),
          })),
          teams: p.teamIds.map((id) => ({ id, type: 'team_reference' })),
        })),
      );
    }
    if (parts[0] === 'services' && parts.length === 1) {
      return this.page(
        request,
        'services',
        account.services.map((s) => ({
          id: s.id,
          type: 'service',
          summary: s.name,
          name: s.name,
          status: s.status,
          escalation_policy: { id: s.escalationPolicyId, type: 'escalation_policy_reference' },
          teams: s.teamIds.map((id) => ({ id, type: 'team_reference' })),
          integrations: s.integrations.map((i) =>
            includes.includes('integrations')
              ? { ...i, summary: i.name, service: { id: s.id, type: 'service_reference' } }
              : { id: i.id, type: `${i.type}_reference`, summary: i.name },
          ),
        })),
      );
    }
    return notFound;
  }

  private window(request: StandInRequest): { since: number; until: number } | StandInAnswer {
    const since = Date.parse(request.query.get('since') ?? '');
    const until = Date.parse(request.query.get('until') ?? '');
    if (Number.isNaN(since) || Number.isNaN(until) || until <= since) {
      return {
        status: 400,
        body: { error: { message: 'Invalid Input Provided', code: 2001, errors: ['since and until must be a range'] } },
      };
    }
    return { since, until };
  }

  private overrides(request: StandInRequest, schedule: PdSchedule): StandInAnswer {
    const window = this.window(request);
    if ('status' in window) return window;
    const zone = schedule.time_zone;
    const overlapping = schedule.overrides.filter((o) => Date.parse(o.end) > window.since && Date.parse(o.start) < window.until);
    return {
      status: 200,
      body: {
        overrides: overlapping.map((o) => ({
          id: o.id,
          start: inZone(Date.parse(o.start), zone),
          end: inZone(Date.parse(o.end), zone),
          user: this.userRef(o.userId),
        })),
      },
    };
  }

  private schedule(request: StandInRequest, schedule: PdSchedule): StandInAnswer {
    const zone = schedule.time_zone;
    const hasWindow = request.query.has('since') || request.query.has('until');
    const window = hasWindow ? this.window(request) : null;
    if (window && 'status' in window) return window;
    const entries = (pieces: Piece[]) =>
      window
        ? pieces
            .filter((p) => p.who.length > 0)
            .map((p) => ({ start: inZone(p.start, zone), end: inZone(p.end, zone), user: this.userRef(p.who[0]) }))
        : [];
    const final = window ? renderPdFinal(schedule, window.since, window.until) : [];
    const overrides = window
      ? schedule.overrides
          .map((o) => ({
            start: Math.max(Date.parse(o.start), window.since),
            end: Math.min(Date.parse(o.end), window.until),
            who: [o.userId],
          }))
          .filter((p) => p.start < p.end)
      : [];
    return {
      status: 200,
      body: {
        schedule: {
          id: schedule.id,
          type: 'schedule',
          summary: schedule.name,
          name: schedule.name,
          description: schedule.description,
          time_zone: zone,
          teams: schedule.teamIds.map((id) => ({ id, type: 'team_reference' })),
          users: [...new Set(schedule.layers.flatMap((l) => l.userIds))].map((id) => this.userRef(id)),
          schedule_layers: schedule.layers.map((layer) => ({
            id: layer.id,
            name: layer.name,
            start: inZone(Date.parse(layer.start), zone),
            end: layer.end ? inZone(Date.parse(layer.end), zone) : null,
            rotation_virtual_start: inZone(DateTime.fromISO(layer.rotation_virtual_start, { zone }).toMillis(), zone),
            rotation_turn_length_seconds: layer.rotation_turn_length_seconds,
            users: layer.userIds.map((id) => ({ user: this.userRef(id) })),
            restrictions: layer.restrictions,
            rendered_schedule_entries: window ? entries(renderPdLayer(layer, zone, window.since, window.until)) : [],
          })),
          overrides_subschedule: { name: 'Overrides', rendered_schedule_entries: entries(overrides) },
          final_schedule: { name: 'Final Schedule', rendered_schedule_entries: entries(final) },
        },
      },
    };
  }
}
