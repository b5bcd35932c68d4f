// Who a source-model schedule (lib/importers/source-model.ts) has on call, computed straight from
// the model's stated rules with luxon's calendar arithmetic, apart from the translation into our
// events: turn k of a rotation starts at start + k × length (days and weeks on the layer zone's wall
// clock, hours elapsed) and belongs to participants[k mod n]; it is on call inside its restrictions
// (wall-clock windows, their minutes counted on the wall clock) from activeFrom (or start) until
// end; layers combine all at once (union) or the last layer with somebody wins; an override replaces
// the whole result, or the named layers' people, for its span.
import { DateTime } from 'luxon';
import type { SourceLayer, SourceRestriction, SourceSchedule } from '../../lib/importers/source-model';
import type { Period } from '../../lib/importers/spans';

type Interval = [number, number];

/** A wall-clock reading `minutes` after `local`, read in `zone`. */
function wallPlus(local: DateTime, minutes: number, zone: string): DateTime {
  const naive = DateTime.fromObject(
    { year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute },
    { zone: 'UTC' },
  ).plus({ minutes });
  return DateTime.fromObject({ year: naive.year, month: naive.month, day: naive.day, hour: naive.hour, minute: naive.minute }, { zone });
}

function windows(restrictions: SourceRestriction[], zone: string, from: number, to: number): Interval[] {
  const out: Interval[] = [];
  const last = DateTime.fromMillis(to, { zone }).endOf('day');
  for (let day = DateTime.fromMillis(from, { zone }).startOf('day').minus({ days: 8 }); day <= last; day = day.plus({ days: 1 })) {
    for (const r of restrictions) {
      if (r.kind === 'weekly' && day.weekday !== r.startDay) continue;
      const [hour, minute] = r.start.split(':').map(Number);
      const start = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour, minute }, { zone });
      out.push([start.toMillis(), wallPlus(start, r.minutes, zone).toMillis()]);
    }
  }
  return out;
}

function layerPeriods(layer: SourceLayer, from: number, to: number): Period[] {
  if (layer.kind === 'shifts') {
    return layer.shifts.flatMap((shift) =>
      shift.userSourceIds.map((id) => ({ start: Date.parse(shift.start), end: Date.parse(shift.end), userSourceId: id })),
    );
  }
  const first = DateTime.fromISO(layer.start, { zone: layer.timeZone });
  const begin = Math.max(from, first.toMillis(), layer.activeFrom ? Date.parse(layer.activeFrom) : -Infinity);
  const until = Math.min(to, layer.end ? Date.parse(layer.end) : Infinity);
  const turn = (k: number) => first.plus({ [layer.length.unit]: k * layer.length.count }).toMillis();
  const periods: Period[] = [];
  for (let k = 0; turn(k) < until; k++) {
    const [start, end] = [turn(k), turn(k + 1)];
    if (end <= begin) continue;
    const slot = layer.participants[k % layer.participants.length];
    if (slot.kind !== 'users') continue;
    const parts =
      layer.restrictions.length === 0 ? [[start, end] as Interval] : windows(layer.restrictions, layer.restrictionTimeZone, start, end);
    for (const [a, b] of parts) {
      const s = Math.max(a, start, begin);
      const e = Math.min(b, end, until);
      if (e > s) for (const id of slot.userSourceIds) periods.push({ start: s, end: e, userSourceId: id });
    }
  }
  return periods;
}

const peopleAt = (periods: Period[], at: number) => [
  ...new Set(periods.filter((p) => p.start <= at && at < p.end).map((p) => p.userSourceId)),
];

/** The schedule's final on-call over [from, to) as periods (one per person and elementary stretch). */
export function oracleOnCall(schedule: SourceSchedule, from: number, to: number): Period[] {
  const perLayer = schedule.layers.map((layer) => layerPeriods(layer, from - 40 * 86_400_000, to));
  const overrides = schedule.overrides.map((o) => ({ ...o, span: [Date.parse(o.start), Date.parse(o.end)] as Interval }));
  const cuts = new Set<number>([from, to]);
  for (const p of [...perLayer.flat(), ...overrides.map((o) => ({ start: o.span[0], end: o.span[1] }))]) {
    if (p.start > from && p.start < to) cuts.add(p.start);
    if (p.end > from && p.end < to) cuts.add(p.end);
  }
  const instants = [...cuts].sort((a, b) => a - b);
  const result: Period[] = [];
  for (let i = 0; i + 1 < instants.length; i++) {
    const at = instants[i];
    const active = overrides.filter((o) => o.span[0] <= at && at < o.span[1]);
    const whole = active.filter((o) => o.replaces === 'schedule');
    let people: string[];
    if (whole.length > 0) people = [...new Set(whole.flatMap((o) => o.userSourceIds))];
    else {
      const layered = schedule.layers.map((layer, index) => {
        const replacing = active.filter((o) => o.replaces !== 'schedule' && o.replaces.layerSourceIds.includes(layer.sourceId));
        return replacing.length > 0 ? [...new Set(replacing.flatMap((o) => o.userSourceIds))] : peopleAt(perLayer[index], at);
      });
      people =
        schedule.layerCombination === 'all-at-once'
          ? [...new Set(layered.flat())]
          : ([...layered].reverse().find((list) => list.length > 0) ?? []);
    }
    for (const id of people) result.push({ start: at, end: instants[i + 1], userSourceId: id });
  }
  return result;
}
