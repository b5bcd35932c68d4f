// Grafana OnCall's objects in the source-neutral terms (lib/importers/source-model.ts). Pure: the
// reader (source.ts) fetches, this decides what each object means here and lists what it cannot
// carry.
//
// A shift's `start`, `rotation_start` and `until` are wall-clock times of its `time_zone`, else of
// its schedule's, else UTC; each occurrence lasts `duration` seconds on that wall clock (hourly ones
// in elapsed time), as Python's aware datetimes add. A rotation here has turns of
// a fixed length handed from participant to participant and restrictions that cut each turn, so:
// - rolling_users: the user groups take turns of `interval` hours, days or weeks (a group of
//   several is on call together), beginning with group `start_rotation_from_user_index`;
// - recurrent_event: its users hold every `interval`-th turn of one hour, day or week, nobody the
//   turns between;
// - an occurrence shorter than its turn becomes a restriction (daily, or weekly per `by_day`
//   weekday) at the start's time of day;
// - single_event: one explicit shift; override: an override of the whole schedule.
// Recurrences whose turns Grafana counts otherwise (monthly, `by_day` with a rotation interval,
// weekly `by_day` weeks not beginning on the start's weekday, occurrences running into the next
// turn) are listed as unsupported, never approximated.
import { parseDateTimeIn } from '../../oncall/datetime-inputs';
import { zoneOffsets } from '../../oncall/zone-offsets';
import type {
  IsoWeekday,
  SourceEscalationPolicy,
  SourceEscalationStep,
  SourceEscalationTarget,
  SourceIntegration,
  SourceLayer,
  SourceOverride,
  SourceParticipant,
  SourceRestriction,
  SourceRole,
  SourceSchedule,
  SourceTeam,
  SourceUser,
  TurnLength,
  UnsupportedItem,
} from '../source-model';
import type { GoEscalationChain, GoEscalationStep, GoIntegration, GoRoute, GoSchedule, GoShift, GoTeam, GoUser } from './wire';

const WEEKDAYS: Record<string, IsoWeekday> = { MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6, SU: 7 };
const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

const ROLES: Record<string, SourceRole> = { admin: 'admin', editor: 'user', user: 'user', viewer: 'observer', observer: 'observer' };

export function translateUser(user: GoUser): SourceUser {
  const role = ROLES[user.role ?? 'editor'] ?? 'user';
  return {
    sourceId: user.id,
    name: user.name || user.username || user.email,
    emails: [user.email],
    phones: [],
    ...(user.timezone ? { timeZone: user.timezone } : {}),
    role,
    ...(user.role ? { sourceRole: user.role } : {}),
  };
}

/** Grafana OnCall names a user's teams on the user; a team's admins are its members with the admin role. */
export function translateTeams(teams: GoTeam[], users: GoUser[]): SourceTeam[] {
  return teams.map((team) => {
    const members = users.filter((u) => u.teams?.includes(team.id));
    return {
      sourceId: team.id,
      name: team.name,
      memberSourceIds: members.map((u) => u.id),
      adminSourceIds: members.filter((u) => u.role === 'admin').map((u) => u.id),
    };
  });
}

interface WallClock {
  instant: number;
  /** `HH:MM` */
  time: string;
  seconds: number;
  weekday: IsoWeekday;
}

function wallClock(raw: string, zone: string): WallClock | null {
  const instant = parseDateTimeIn(raw, zone);
  if (instant === null) return null;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const weekday = WEEKDAYS[String(parts.weekday).slice(0, 2).toUpperCase()];
  return { instant, time: `${parts.hour}:${parts.minute}`, seconds: Number(parts.second), weekday };
}

function rotate<T>(items: T[], by: number): T[] {
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** A rotating or recurrent shift as a rotation layer, or why it cannot be one. */
function rotationLayer(shift: GoShift, zone: string): SourceLayer | string {
  const rolling = shift.type === 'rolling_users';
  const groups = rolling ? (shift.rolling_users ?? []).filter((g) => g.length > 0) : [shift.users ?? []];
  if (groups.length === 0 || groups[0].length === 0) return 'it names nobody';
  const start = wallClock(shift.start, zone);
  if (!start) return `its start "${shift.start}" cannot be read`;
  if (start.seconds !== 0 || shift.duration % 60 !== 0) return 'it starts or lasts on a second, not a minute';
  const interval = shift.interval ?? 1;
  const steps = rolling ? interval : 1;
  const participants: SourceParticipant[] = rolling
    ? rotate(groups, shift.start_rotation_from_user_index ?? 0).map((g) => ({ kind: 'users' as const, userSourceIds: g }))
    : [{ kind: 'users', userSourceIds: groups[0] }, ...Array.from({ length: interval - 1 }, () => ({ kind: 'nobody' as const }))];
  const days = shift.by_day?.map((d) => WEEKDAYS[d]);
  if (days?.some((d) => d === undefined)) return `by_day ${shift.by_day!.join(',')} names an ordinal weekday`;
  const minutes = shift.duration / 60;
  let length: TurnLength;
  let restrictions: SourceRestriction[] = [];
  const weekly = (list: IsoWeekday[]) => list.map((startDay) => ({ kind: 'weekly' as const, startDay, start: start.time, minutes }));
  switch (shift.frequency) {
    case 'hourly':
      if (days?.length) return 'an hourly recurrence on chosen weekdays';
      if (shift.duration !== steps * HOUR) return 'an hourly recurrence whose occurrences do not fill their turn';
      length = { unit: 'hours', count: steps };
      break;
    case 'daily':
      length = { unit: 'days', count: steps };
      if (days?.length) {
        if (steps !== 1) return 'a daily rotation on chosen weekdays with an interval (Grafana OnCall counts those turns its own way)';
        if (shift.duration > DAY) return 'daily occurrences longer than a day';
        restrictions = weekly(days);
      } else if (shift.duration === steps * DAY) restrictions = [];
      else if (steps === 1 && shift.duration < DAY) restrictions = [{ kind: 'daily', start: start.time, minutes }];
      else return 'daily occurrences that neither fill their turn nor fit in a day';
      break;
    case 'weekly':
      length = { unit: 'weeks', count: steps };
      if (days?.length) {
        if (steps !== 1) return 'a weekly rotation on chosen weekdays with an interval (Grafana OnCall counts those turns its own way)';
        if (WEEKDAYS[shift.week_start ?? 'SU'] !== start.weekday)
          return "weekly occurrences whose weeks (week_start) do not begin on the start's weekday";
        if (days.some((d) => ((d - start.weekday + 7) % 7) * DAY + shift.duration > WEEK))
          return 'weekly occurrences running into the next turn';
        restrictions = weekly(days);
      } else if (shift.duration === steps * WEEK) restrictions = [];
      else if (steps === 1 && shift.duration < WEEK) restrictions = weekly([start.weekday]);
      else return 'weekly occurrences that neither fill their turn nor fit in a week';
      break;
    default:
      return `a ${shift.frequency ?? 'missing'} recurrence has no equivalent here`;
  }
  const rotationStart = rolling && shift.rotation_start ? parseDateTimeIn(shift.rotation_start, zone) : null;
  const until = shift.until ? parseDateTimeIn(shift.until, zone) : null;
  return {
    kind: 'rotation',
    sourceId: shift.id,
    name: shift.name ?? shift.id,
    start: new Date(start.instant).toISOString(),
    ...(rotationStart !== null && rotationStart > start.instant ? { activeFrom: new Date(rotationStart).toISOString() } : {}),
    ...(until !== null ? { end: new Date(until).toISOString() } : {}),
    length,
    timeZone: zone,
    participants,
    restrictions,
    restrictionTimeZone: zone,
    restrictionMode: 'partial',
  };
}

/** A single event's or an override's span: `duration` on the wall clock (18:00 + 13 h is 07:00 the next day, a change of clocks or not). */
function shiftSpan(shift: GoShift, zone: string): { start: number; end: number } | null {
  const start = parseDateTimeIn(shift.start, zone);
  if (start === null) return null;
  const offsets = zoneOffsets(zone);
  return { start, end: offsets.localToUtc(start + offsets.offsetAt(start) + shift.duration * 1000) };
}

/**
 * A schedule and its shifts: levels lowest first, the highest level with somebody on call
 * deciding (`higher-wins`); override shifts replace the whole result for their span.
 */
export function translateSchedule(schedule: GoSchedule, shifts: GoShift[], unsupported: UnsupportedItem[]): SourceSchedule | null {
  const zone = schedule.time_zone || 'UTC';
  if (schedule.type === 'ical') {
    unsupported.push({
      kind: 'schedule',
      sourceId: schedule.id,
      name: schedule.name,
      reason: `its shifts live in an external iCal calendar (${schedule.ical_url_primary ?? 'no URL'}): not imported; subscribe to it or rebuild the rotations here`,
    });
    return null;
  }
  if (schedule.ical_url_overrides) {
    unsupported.push({
      kind: 'override',
      sourceId: schedule.id,
      name: schedule.name,
      reason: `overrides from an external iCal calendar (${schedule.ical_url_overrides}) are not imported`,
    });
  }
  const own = (schedule.shifts ?? []).map((id) => shifts.find((s) => s.id === id)).filter((s): s is GoShift => s !== undefined);
  const layered = own.filter((s) => s.type !== 'override').sort((a, b) => (a.level ?? 0) - (b.level ?? 0));
  const layers: SourceLayer[] = [];
  const levels = new Map<number, string>();
  for (const shift of layered) {
    const shiftZone = shift.time_zone || zone;
    const name = `${schedule.name} / ${shift.name ?? shift.id}`;
    const level = shift.level ?? 0;
    if (levels.has(level)) {
      unsupported.push({
        kind: 'layer',
        sourceId: shift.id,
        name,
        reason: `shares level ${level} with ${levels.get(level)}: here the later one wins where both have somebody, where Grafana OnCall puts both on call`,
      });
    }
    levels.set(level, shift.name ?? shift.id);
    if (shift.type === 'single_event') {
      const span = shiftSpan(shift, shiftZone);
      if (span) {
        layers.push({
          kind: 'shifts',
          sourceId: shift.id,
          name: shift.name ?? shift.id,
          timeZone: shiftZone,
          shifts: [{ start: new Date(span.start).toISOString(), end: new Date(span.end).toISOString(), userSourceIds: shift.users ?? [] }],
        });
        continue;
      }
    }
    const layer = shift.type === 'single_event' ? `its start "${shift.start}" cannot be read` : rotationLayer(shift, shiftZone);
    if (typeof layer === 'string') unsupported.push({ kind: 'layer', sourceId: shift.id, name, reason: `${layer}: not imported` });
    else layers.push(layer);
  }
  const overrides: SourceOverride[] = [];
  for (const shift of own.filter((s) => s.type === 'override')) {
    const span = shiftSpan(shift, shift.time_zone || zone);
    if (!span || shift.frequency) {
      unsupported.push({
        kind: 'override',
        sourceId: shift.id,
        name: `${schedule.name} / ${shift.name ?? shift.id}`,
        reason: 'a repeating or unreadable override: not imported',
      });
      continue;
    }
    overrides.push({
      sourceId: shift.id,
      start: new Date(span.start).toISOString(),
      end: new Date(span.end).toISOString(),
      userSourceIds: shift.users?.length ? shift.users : (shift.rolling_users ?? []).flat(),
      replaces: 'schedule',
    });
  }
  return {
    sourceId: schedule.id,
    name: schedule.name,
    timeZone: zone,
    ...(schedule.team_id ? { teamSourceId: schedule.team_id } : {}),
    enabled: true,
    layerCombination: 'higher-wins',
    layers,
    overrides,
  };
}

/** Grafana OnCall repeats a chain from the top at most this many times (its step says "5 times max"). */
const REPEATS = 5;

/**
 * An escalation chain's steps in `position` order: a `wait` moves the clock on, the notify steps
 * between two waits are one step here; `repeat_escalation` starts over (the wait before it is the
 * pause before the repeat). Steps with no equivalent are listed.
 */
export function translateEscalationChain(
  chain: GoEscalationChain,
  policies: GoEscalationStep[],
  unsupported: UnsupportedItem[],
): SourceEscalationPolicy {
  const steps: SourceEscalationStep[] = [];
  let minute = 0;
  let repeats = 0;
  const add = (target: SourceEscalationTarget) => {
    const last = steps.at(-1);
    if (last && last.atMinute === minute) last.targets.push(target);
    else steps.push({ atMinute: minute, targets: [target], condition: 'if-not-acknowledged' });
  };
  let repeatAt: number | null = null;
  for (const policy of [...policies].sort((a, b) => a.position - b.position)) {
    if (repeatAt !== null) break;
    switch (policy.type) {
      case 'wait':
        minute += Math.round((policy.duration ?? 0) / 60);
        break;
      case 'notify_persons':
        for (const id of policy.persons_to_notify ?? []) add({ kind: 'user', userSourceId: id });
        break;
      case 'notify_on_call_from_schedule':
        if (policy.notify_on_call_from_schedule)
          add({ kind: 'schedule', scheduleSourceId: policy.notify_on_call_from_schedule, who: 'on-call' });
        break;
      case 'notify_team_members':
        if (policy.team_to_notify) add({ kind: 'team', teamSourceId: policy.team_to_notify, who: 'members' });
        break;
      case 'repeat_escalation':
        repeats = REPEATS;
        repeatAt = minute;
        break;
      default:
        unsupported.push({
          kind: 'escalation-step',
          sourceId: policy.id,
          name: chain.name,
          reason: `a "${policy.type}" step has no equivalent here: left out`,
        });
    }
  }
  const last = steps.at(-1);
  return {
    sourceId: chain.id,
    name: chain.name,
    ...(chain.team_id ? { teamSourceId: chain.team_id } : {}),
    steps,
    repeat: { times: repeats, ...(repeatAt !== null && last ? { afterMinutes: repeatAt - last.atMinute } : {}) },
  };
}

/**
 * An integration keeps its senders' format; its default route's chain is the policy it runs. Its
 * other routes (a regex or Jinja2 template choosing another chain) have no equivalent on an
 * integration here: each is listed, naming what it matched and where it sent the alerts.
 */
export function translateIntegration(
  integration: GoIntegration,
  routes: GoRoute[],
  unsupported: UnsupportedItem[],
): SourceIntegration | null {
  for (const route of routes.filter((r) => r.integration_id === integration.id && !r.is_the_last_route)) {
    unsupported.push({
      kind: 'integration',
      sourceId: route.id,
      name: `${integration.name}: route`,
      reason: `alerts matching the ${route.routing_type ?? 'regex'} "${route.routing_regex ?? ''}" went to escalation chain ${route.escalation_chain_id ?? '(none)'}; here every alert of the integration goes to its default route's team: send those to a router instead`,
    });
  }
  if (integration.type === 'inbound_email') {
    unsupported.push({
      kind: 'integration',
      sourceId: integration.id,
      name: integration.name,
      reason: 'e-mail integrations have no equivalent here: point the sender at a webhook integration instead',
    });
    return null;
  }
  const chain = integration.default_route?.escalation_chain_id;
  return {
    sourceId: integration.id,
    name: integration.name,
    type: integration.type,
    enabled: !integration.maintenance_mode,
    ...(integration.team_id ? { teamSourceId: integration.team_id } : {}),
    ...(chain ? { escalationPolicySourceId: chain } : {}),
    ...(integration.link ? { oldAddress: integration.link } : {}),
  };
}
