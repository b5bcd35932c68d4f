// Opsgenie's rendered schedule timeline, computed from a schedule's rotations and overrides by the
// rules Opsgenie documents (Schedule API, "Schedule Rotation" and "Schedule Override"), written
// apart from the importer (with luxon's calendar arithmetic, not our engine) so that the proof
// compares two independent readings of the same schedule:
// - a rotation's turn k starts at startDate + k × length: days and weeks on the wall clock of the
//   schedule's time zone, hours in elapsed time; turn k belongs to participants[k mod n]; a `none`
//   participant (or a team/escalation one, which names no person) leaves the turn empty;
// - the rotation is on call from startDate until endDate, if given;
// - timeRestriction `time-of-day`: every day from start to end time (an end at or before the start
//   ends the next day); `weekday-and-time-of-day`: from startDay start time to the next endDay end
//   time; a turn is on call only inside a restriction;
// - an override puts its user on call instead of the rotations it names (all of them when it names
//   none) for its span.
import { DateTime } from 'luxon';

export interface OgParticipant {
  type: 'user' | 'none' | 'team' | 'escalation';
  id?: string;
  username?: string;
  name?: string;
}

export interface OgRestriction {
  startDay?: string;
  endDay?: string;
  startHour: number;
  startMin: number;
  endHour: number;
  endMin: number;
}

export interface OgRotation {
  id: string;
  name: string;
  startDate: string;
  endDate?: string;
  type: 'daily' | 'weekly' | 'hourly';
  length: number;
  participants: OgParticipant[];
  timeRestriction?:
    { type: 'time-of-day'; restriction: OgRestriction } | { type: 'weekday-and-time-of-day'; restrictions: OgRestriction[] };
}

export interface OgOverride {
  alias: string;
  user: { type: 'user'; id: string; username: string };
  startDate: string;
  endDate: string;
  rotations?: { id: string; name: string }[];
}

export interface OgSchedule {
  id: string;
  name: string;
  description?: string;
  timezone: string;
  enabled: boolean;
  ownerTeam?: { id: string; name: string };
  rotations: OgRotation[];
}

export interface TimelinePeriod {
  startDate: string;
  endDate: string;
  type: 'default' | 'override';
  recipient: { type: 'user'; id: string; name: string };
}

type Interval = [number, number];

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function restrictionIntervals(rotation: OgRotation, zone: string, from: number, to: number): Interval[] {
  const restriction = rotation.timeRestriction;
  if (!restriction) return [[from, to]];
  const out: Interval[] = [];
  let day = DateTime.fromMillis(from, { zone }).startOf('day').minus({ days: 8 });
  const last = DateTime.fromMillis(to, { zone }).endOf('day');
  const at = (date: DateTime, hour: number, minute: number) =>
    DateTime.fromObject({ year: date.year, month: date.month, day: date.day, hour, minute }, { zone });
  for (; day <= last; day = day.plus({ days: 1 })) {
    if (restriction.type === 'time-of-day') {
      const r = restriction.restriction;
      const start = at(day, r.startHour, r.startMin);
      const wraps = r.endHour * 60 + r.endMin <= r.startHour * 60 + r.startMin;
      const end = at(wraps ? day.plus({ days: 1 }) : day, r.endHour, r.endMin);
      out.push([start.toMillis(), end.toMillis()]);
      continue;
    }
    for (const r of restriction.restrictions) {
      const startDay = DAYS.indexOf(r.startDay!) + 1;
      if (day.weekday !== startDay) continue;
      const endDay = DAYS.indexOf(r.endDay!) + 1;
      let ahead = (endDay - startDay + 7) % 7;
      if (ahead === 0 && r.endHour * 60 + r.endMin <= r.startHour * 60 + r.startMin) ahead = 7;
      out.push([at(day, r.startHour, r.startMin).toMillis(), at(day.plus({ days: ahead }), r.endHour, r.endMin).toMillis()]);
    }
  }
  return out.filter(([a, b]) => b > from && a < to);
}

/** The on-call periods of one rotation over [from, to), before overrides. */
export function rotationPeriods(
  rotation: OgRotation,
  zone: string,
  from: number,
  to: number,
): { start: number; end: number; userId: string }[] {
  const first = DateTime.fromISO(rotation.startDate, { zone });
  const activeFrom = Math.max(from, first.toMillis());
  const until = Math.min(to, rotation.endDate ? DateTime.fromISO(rotation.endDate).toMillis() : Infinity);
  const periods: { start: number; end: number; userId: string }[] = [];
  const turnStart = (k: number) =>
    rotation.type === 'hourly'
      ? first.plus({ hours: k * rotation.length })
      : first.plus(rotation.type === 'daily' ? { days: k * rotation.length } : { weeks: k * rotation.length });
  for (let k = 0; ; k++) {
    const start = turnStart(k).toMillis();
    const end = turnStart(k + 1).toMillis();
    if (start >= until) break;
    if (end <= activeFrom) continue;
    const participant = rotation.participants[k % rotation.participants.length];
    if (participant.type !== 'user' || !participant.id) continue;
    for (const [a, b] of restrictionIntervals(rotation, zone, start, end)) {
      const s = Math.max(a, start, activeFrom);
      const e = Math.min(b, end, until);
      if (e > s) periods.push({ start: s, end: e, userId: participant.id });
    }
  }
  return periods;
}

type TypedPeriod = { start: number; end: number; userId: string; type: 'default' | 'override' };

function subtract(periods: TypedPeriod[], cut: Interval): TypedPeriod[] {
  return periods.flatMap((p) => {
    if (p.end <= cut[0] || p.start >= cut[1]) return [p];
    const pieces = [];
    if (p.start < cut[0]) pieces.push({ ...p, end: cut[0] });
    if (p.end > cut[1]) pieces.push({ ...p, start: cut[1] });
    return pieces;
  });
}

/** The schedule's final timeline over [from, to): per rotation, its periods with overrides applied. */
export function finalTimeline(
  schedule: OgSchedule,
  overrides: OgOverride[],
  names: Map<string, string>,
  from: number,
  to: number,
): { id: string; name: string; order: number; periods: TimelinePeriod[] }[] {
  const perRotation = schedule.rotations.map((rotation) => ({
    rotation,
    periods: rotationPeriods(rotation, schedule.timezone, from, to).map((p): TypedPeriod => ({ ...p, type: 'default' })),
  }));
  for (const override of overrides) {
    const span: Interval = [DateTime.fromISO(override.startDate).toMillis(), DateTime.fromISO(override.endDate).toMillis()];
    if (span[1] <= from || span[0] >= to) continue;
    const named = override.rotations?.map((r) => r.id);
    const targets = perRotation.filter((entry) => !named || named.includes(entry.rotation.id));
    for (const entry of targets) entry.periods = subtract(entry.periods, span);
    const holder = targets[0] ?? perRotation[0];
    holder?.periods.push({ start: Math.max(span[0], from), end: Math.min(span[1], to), userId: override.user.id, type: 'override' });
  }
  return perRotation.map(({ rotation, periods }, order) => ({
    id: rotation.id,
    name: rotation.name,
    order: order + 1,
    periods: periods
      .sort((a, b) => a.start - b.start)
      .map((p) => ({
        startDate: new Date(p.start).toISOString(),
        endDate: new Date(p.end).toISOString(),
        type: p.type,
        recipient: { type: 'user', id: p.userId, name: names.get(p.userId) ?? p.userId },
      })),
  }));
}
