// A source schedule → the events that put the same people on call here (docs/api.md#recurrence,
// #rotations, #overrides-and-exceptions). Pure: the apply step writes what this returns.
//
// How a rotation becomes events. A rotation hands turn k (from start + k × length) to participant
// k mod n, and restrictions cut each turn to the restricted hours. On the wall clock of the
// rotation's zone that pattern repeats: after q turns the restriction windows (a day or a week)
// line up with the turns again. So each piece of the first q turns is the first occurrence of an
// event repeating every q × length, and the people of its occurrences cycle through the
// participants. When that cycle is a list of distinct single people, one rotation event carries it
// (occurrence k → attendee k mod n, as the source does); otherwise one event per slot. Our repeats
// keep the wall-clock time and length across daylight-saving changes, as the sources' turns and
// restrictions do, so the result is exact where it applies. Hourly turns without restrictions step
// in elapsed hours, as our hourly repeats do.
//
// How layers combine. Every event here sits on one escalation layer, where events add their people
// (Opsgenie's rotations: all on call at once). For "higher layer wins" each lower event gets, as
// override children, copies of the higher layers' events: a child cuts its parent while it lasts
// and adds the same people the higher layer already has. Overrides are children the same way.
import { now } from '../clock';
import { DAY_MS, HOUR_MS, MINUTE_MS, weekdayOfDay } from '../oncall/civil-calendar';
import { expandOccurrences } from '../oncall/recurrence';
import { zoneOffsets } from '../oncall/zone-offsets';
import type { SourceRestriction, SourceRotationLayer, SourceSchedule, UnsupportedItem } from './source-model';

const WEEK_MS = 7 * DAY_MS;

import { eventsOfSpecs, ourSpans, type EventSpec } from './spec-engine';
import { spansFromPeriods, type Period } from './spans';

export type { EventSpec };

export interface TranslatedSchedule {
  events: EventSpec[];
  unsupported: UnsupportedItem[];
}

function gcd(a: number, b: number): number {
  let [x, y] = [Math.abs(a), Math.abs(b)];
  while (y) [x, y] = [y, x % y];
  return x;
}

function timeOfDayMs(text: string): number {
  const [hours, minutes] = text.split(':').map(Number);
  return hours * HOUR_MS + minutes * MINUTE_MS;
}

const UNIT_MS = { hours: HOUR_MS, days: DAY_MS, weeks: WEEK_MS } as const;

/** The restriction windows (local ms) that can touch [from, to), merged into disjoint sorted intervals. */
export function restrictionWindows(restrictions: readonly SourceRestriction[], from: number, to: number): [number, number][] {
  const windows: [number, number][] = [];
  const firstDay = Math.floor(from / DAY_MS) - 8;
  const lastDay = Math.floor(to / DAY_MS) + 1;
  for (const restriction of restrictions) {
    const offset = timeOfDayMs(restriction.start);
    const length = restriction.minutes * MINUTE_MS;
    for (let day = firstDay; day <= lastDay; day++) {
      if (restriction.kind === 'weekly' && weekdayOfDay(day) !== restriction.startDay % 7) continue;
      const start = day * DAY_MS + offset;
      if (start < to && start + length > from) windows.push([start, start + length]);
    }
  }
  windows.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of windows) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

interface Space {
  toLocal(utc: number): number;
  toUtc(local: number): number;
  unit: 'hourly' | 'daily';
  unitMs: number;
}

function spaceOf(layer: SourceRotationLayer, elapsed: boolean): Space {
  if (elapsed) return { toLocal: (t) => t, toUtc: (t) => t, unit: 'hourly', unitMs: HOUR_MS };
  const zone = zoneOffsets(layer.timeZone);
  return { toLocal: (t) => t + zone.offsetAt(t), toUtc: (t) => zone.localToUtc(t), unit: 'daily', unitMs: DAY_MS };
}

/** A repeating piece before clipping: occurrence i starts at local `start + i × period`. */
interface Piece {
  key: string;
  start: number;
  length: number;
  period: number;
  rotation: boolean;
  /** Per occurrence i: people[i mod people.length]. For a non-rotation piece, one entry (everyone). */
  people: string[][];
}

function piecesOfRotation(layer: SourceRotationLayer, space: Space, unsupported: UnsupportedItem[]): Piece[] {
  const slots = layer.participants.map((participant) => {
    if (participant.kind === 'users') return participant.userSourceIds.length > 0 ? participant.userSourceIds : null;
    if (participant.kind === 'team' || participant.kind === 'escalation-policy') {
      const id = participant.kind === 'team' ? participant.teamSourceId : participant.policySourceId;
      unsupported.push({
        kind: 'layer',
        sourceId: layer.sourceId,
        name: layer.name,
        reason: `a ${participant.kind} (${id}) holds a turn of this rotation; here a turn belongs to people, so that turn has nobody on call`,
      });
    }
    return null;
  });
  const participants = slots.length;
  if (participants === 0 || slots.every((slot) => slot === null)) return [];
  const turn = layer.length.count * UNIT_MS[layer.length.unit];
  const restricted = layer.restrictions.length > 0;
  const windowPeriod = !restricted ? 0 : layer.restrictions.some((r) => r.kind === 'weekly') ? WEEK_MS : DAY_MS;
  const turnsPerPattern = windowPeriod === 0 ? 1 : windowPeriod / gcd(turn, windowPeriod);
  const period = turnsPerPattern * turn;
  const cycle = participants / gcd(participants, turnsPerPattern);
  const anchor = space.toLocal(Date.parse(layer.start));

  const pieces: Piece[] = [];
  for (let t = 0; t < turnsPerPattern; t++) {
    const turnStart = anchor + t * turn;
    const turnEnd = turnStart + turn;
    const parts: [number, number][] = restricted
      ? restrictionWindows(layer.restrictions, turnStart, turnEnd).map(([a, b]) => [Math.max(a, turnStart), Math.min(b, turnEnd)])
      : [[turnStart, turnEnd]];
    parts.forEach(([a, b], j) => {
      if (!(b > a)) return;
      const sequence = Array.from({ length: cycle }, (_, i) => slots[(t + i * turnsPerPattern) % participants]);
      const key = `${layer.sourceId}/t${t}/p${j}`;
      const singles = sequence.every((slot) => slot !== null && slot.length === 1);
      const distinct = new Set(sequence.map((slot) => slot?.[0])).size === cycle;
      if (cycle === 1) {
        if (sequence[0]) pieces.push({ key, start: a, length: b - a, period, rotation: false, people: [sequence[0]] });
      } else if (singles && distinct) {
        pieces.push({ key, start: a, length: b - a, period, rotation: true, people: sequence as string[][] });
      } else {
        sequence.forEach((slot, i) => {
          if (slot) {
            pieces.push({
              key: `${key}/s${i}`,
              start: a + i * period,
              length: b - a,
              period: cycle * period,
              rotation: false,
              people: [slot],
            });
          }
        });
      }
    });
  }
  return pieces;
}

/** Occurrence i of a piece in real time. */
function occurrence(piece: Piece, space: Space, i: number): [number, number] {
  const local = piece.start + i * piece.period;
  return [space.toUtc(local), space.toUtc(local + piece.length)];
}

function peopleAt(piece: Piece, i: number): string[] {
  return piece.people[i % piece.people.length];
}

/** The piece's events within [from, until): a repeating event, plus single events for the cut occurrences at either end. */
function clippedEvents(
  piece: Piece,
  space: Space,
  layer: SourceRotationLayer,
  layerNumber: number,
  from: number,
  until: number,
): EventSpec[] {
  const base = { layer: layerNumber, timeZone: layer.timeZone, sourceLayerId: layer.sourceId };
  const single = (suffix: string, start: number, end: number, i: number): EventSpec => ({
    ...base,
    key: `${piece.key}/${suffix}`,
    start,
    end,
    repeat: null,
    rotation: false,
    userSourceIds: peopleAt(piece, i),
  });
  const events: EventSpec[] = [];
  // The first occurrence that ends after `from` (scan from an estimate: periods are at least an hour).
  let first = Math.max(0, Math.floor((space.toLocal(from) - piece.start) / piece.period) - 1);
  while (occurrence(piece, space, first)[1] <= from) first++;
  let [firstStart, firstEnd] = occurrence(piece, space, first);
  if (firstStart >= until) return [];
  if (firstStart < from) {
    events.push(single('head', from, Math.min(firstEnd, until), first));
    first++;
    [firstStart, firstEnd] = occurrence(piece, space, first);
    if (firstStart >= until) return events;
  }
  let last: number | null = null;
  if (Number.isFinite(until)) {
    last = Math.max(first, Math.floor((space.toLocal(until) - piece.start) / piece.period) + 1);
    while (last >= first && occurrence(piece, space, last)[0] >= until) last--;
    const [lastStart, lastEnd] = occurrence(piece, space, last);
    if (lastEnd > until) {
      events.push(single('tail', lastStart, until, last));
      last--;
    }
    if (last < first) return events;
  }
  const rotated = piece.people.map((_, k) => piece.people[(first + k) % piece.people.length]);
  events.push({
    ...base,
    key: piece.key,
    start: firstStart,
    end: firstEnd,
    repeat: { unit: space.unit, frequency: piece.period / space.unitMs, until: last === null ? null : occurrence(piece, space, last)[0] },
    rotation: piece.rotation,
    userSourceIds: piece.rotation ? rotated.map((slot) => slot[0]) : rotated[0],
  });
  return events;
}

/** Whether the zone changes its clock within a year of now (UTC and many zones never do). */
function changesClock(zone: string): boolean {
  const at = now();
  return zoneOffsets(zone).transitionsBetween(at - 366 * DAY_MS, at + 366 * DAY_MS).length > 0;
}

function rotationEvents(layer: SourceRotationLayer, layerNumber: number, unsupported: UnsupportedItem[]): EventSpec[] {
  const elapsed = layer.length.unit === 'hours' && layer.restrictions.length === 0;
  if (layer.length.unit === 'hours' && !elapsed && changesClock(layer.timeZone)) {
    unsupported.push({
      kind: 'layer',
      sourceId: layer.sourceId,
      name: layer.name,
      reason:
        'hourly turns with restrictions are imported on the wall clock; if the source counts hourly turns in elapsed time they differ by the clock change after a daylight-saving change (the proof shows where)',
    });
  }
  if (layer.restrictions.length > 0 && layer.restrictionTimeZone !== layer.timeZone) {
    unsupported.push({
      kind: 'layer',
      sourceId: layer.sourceId,
      name: layer.name,
      reason: `restrictions in ${layer.restrictionTimeZone} on turns in ${layer.timeZone}: imported in ${layer.timeZone}`,
    });
  }
  const space = spaceOf(layer, elapsed);
  const from = Math.max(Date.parse(layer.start), layer.activeFrom ? Date.parse(layer.activeFrom) : -Infinity);
  const until = layer.end ? Date.parse(layer.end) : Infinity;
  if (!(until > from)) return [];
  return piecesOfRotation(layer, space, unsupported).flatMap((piece) => clippedEvents(piece, space, layer, layerNumber, from, until));
}

/**
 * Copies `event` as an override child of `parent` (same timing and people; the key says both). The
 * copy still stands for its own layer: an override of that layer must cut it too.
 */
function childCopy(event: EventSpec, parent: EventSpec): EventSpec {
  return { ...event, key: `${parent.key}>${event.key}`, parentKey: parent.key };
}

/** Each event of a lower layer gets the higher layers' events (and, below them, their own higher ones) as children. */
function withPrecedence(layers: EventSpec[][]): EventSpec[] {
  const all: EventSpec[] = [];
  const cut = (event: EventSpec, level: number): void => {
    all.push(event);
    for (let higher = level + 1; higher < layers.length; higher++) {
      for (const cutter of layers[higher]) cut(childCopy(cutter, event), higher);
    }
  };
  layers.forEach((events, level) => events.forEach((event) => cut(event, level)));
  return all;
}

/** Beyond this many events a schedule becomes explicit shifts (asShifts). */
export const MAX_EVENTS = 300;
/** How far ahead explicit shifts reach, and how many there may be at most. */
export const SHIFT_DAYS = 90;
const MAX_SHIFTS = 1000;

/**
 * The fallback for a schedule whose exact repeating form needs too many events (short turns cut by
 * restrictions, several layers where the higher wins): who is on call, as one single event per
 * stretch with the same people, from `from` for SHIFT_DAYS (fewer when that would be more than
 * MAX_SHIFTS shifts). Each layer's own events are evaluated alone and combined here by the
 * schedule's rule, then overrides; exact within that reach, and listed, because it ends.
 */
function asShifts(
  schedule: SourceSchedule,
  perLayer: EventSpec[][],
  layerNumber: number,
  from: number,
  wouldBe: number,
  unsupported: UnsupportedItem[],
): EventSpec[] {
  const to = from + SHIFT_DAYS * DAY_MS;
  const layerSpans = perLayer.map((events) => ourSpans(eventsOfSpecs(events), (id) => id, from, to));
  const overrides = schedule.overrides.map((o) => ({ ...o, span: [Date.parse(o.start), Date.parse(o.end)] }));
  const cuts = new Set<number>([from, to]);
  for (const at of [
    ...layerSpans.flat().flatMap((span) => [Date.parse(span.start), Date.parse(span.end)]),
    ...overrides.flatMap((o) => o.span),
  ]) {
    if (at > from && at < to) cuts.add(at);
  }
  const instants = [...cuts].sort((a, b) => a - b);
  const cursor = layerSpans.map(() => 0);
  const periods: Period[] = [];
  instants.slice(0, -1).forEach((at, i) => {
    const layered = layerSpans.map((spans, l) => {
      while (cursor[l] < spans.length && Date.parse(spans[cursor[l]].end) <= at) cursor[l]++;
      return spans[cursor[l]]?.userSourceIds ?? [];
    });
    const active = overrides.filter((o) => o.span[0] <= at && at < o.span[1]);
    const whole = active.filter((o) => o.replaces === 'schedule');
    const people = whole.length
      ? whole.flatMap((o) => o.userSourceIds)
      : (() => {
          const replaced = layered.map((list, l) => {
            const named = active.filter(
              (o) => o.replaces !== 'schedule' && o.replaces.layerSourceIds.includes(schedule.layers[l].sourceId),
            );
            return named.length ? named.flatMap((o) => o.userSourceIds) : list;
          });
          return schedule.layerCombination === 'all-at-once'
            ? replaced.flat()
            : ([...replaced].reverse().find((list) => list.length > 0) ?? []);
        })();
    for (const id of new Set(people)) periods.push({ start: at, end: instants[i + 1], userSourceId: id });
  });
  const spans = spansFromPeriods(periods, from, to).filter((span) => span.userSourceIds.length > 0);
  const kept = spans.slice(0, MAX_SHIFTS);
  const until = kept.length < spans.length ? kept[kept.length - 1].end : new Date(to).toISOString();
  unsupported.push({
    kind: 'schedule',
    sourceId: schedule.sourceId,
    name: schedule.name,
    reason: `its exact repeating form would take ${wouldBe} events here: imported as ${kept.length} single shifts until ${until}; run the import again before then`,
  });
  return kept.map((span) => ({
    key: `shift@${span.start}`,
    layer: layerNumber,
    start: Date.parse(span.start),
    end: Date.parse(span.end),
    timeZone: schedule.timeZone,
    repeat: null,
    rotation: false,
    userSourceIds: span.userSourceIds,
  }));
}

/** How many events withPrecedence would make, without making them. */
function precedenceCount(layers: EventSpec[][]): number {
  const below = layers.map(() => 0);
  for (let level = layers.length - 1; level >= 0; level--) {
    below[level] = 1 + layers.slice(level + 1).reduce((sum, events, i) => sum + events.length * below[level + 1 + i], 0);
  }
  return layers.reduce((sum, events, level) => sum + events.length * below[level], 0);
}

export interface TranslateOptions {
  /** Where explicit shifts (the fallback) begin: the import's time, or the proof's start when earlier. */
  shiftsFrom: number;
}

/** Every event the schedule needs on escalation layer `layerNumber`; keys are prefixed with `keyPrefix`. */
export function translateSchedule(
  schedule: SourceSchedule,
  layerNumber = 1,
  keyPrefix = '',
  options: TranslateOptions = { shiftsFrom: now() },
): TranslatedSchedule {
  const unsupported: UnsupportedItem[] = [];
  const perLayer = schedule.layers.map((layer): EventSpec[] => {
    if (layer.kind === 'rotation') return rotationEvents(layer, layerNumber, unsupported);
    return layer.shifts
      .filter((shift) => shift.userSourceIds.length > 0 && Date.parse(shift.end) > Date.parse(shift.start))
      .map((shift, i) => ({
        key: `${layer.sourceId}/shift${i}@${shift.start}`,
        layer: layerNumber,
        start: Date.parse(shift.start),
        end: Date.parse(shift.end),
        timeZone: layer.timeZone,
        repeat: null,
        rotation: false,
        userSourceIds: shift.userSourceIds,
        sourceLayerId: layer.sourceId,
      }));
  });
  const prefixed = (events: EventSpec[]): TranslatedSchedule => ({
    events: keyPrefix
      ? events.map((event) => ({
          ...event,
          key: keyPrefix + event.key,
          ...(event.parentKey ? { parentKey: keyPrefix + event.parentKey } : {}),
        }))
      : events,
    unsupported,
  });
  const higherWins = schedule.layerCombination === 'higher-wins';
  const exactCount = higherWins ? precedenceCount(perLayer) : perLayer.flat().length;
  if (exactCount > MAX_EVENTS) return prefixed(asShifts(schedule, perLayer, layerNumber, options.shiftsFrom, exactCount, unsupported));
  let events = higherWins ? withPrecedence(perLayer) : perLayer.flat();

  const overrides: EventSpec[] = [];
  for (const override of schedule.overrides) {
    const start = Date.parse(override.start);
    const end = Date.parse(override.end);
    if (!(end > start)) continue;
    if (override.userSourceIds.length === 0) {
      unsupported.push({
        kind: 'override',
        sourceId: override.sourceId,
        name: `${override.start} – ${override.end}`,
        reason: 'an override to nobody: an override here puts people on call, so this span keeps the rotation',
      });
      continue;
    }
    const spec: EventSpec = {
      key: `!${override.sourceId}`,
      layer: layerNumber,
      start,
      end,
      timeZone: schedule.timeZone,
      repeat: null,
      rotation: false,
      userSourceIds: override.userSourceIds,
    };
    let replaced = override.replaces === 'schedule' ? null : new Set(override.replaces.layerSourceIds);
    if (replaced && schedule.layerCombination === 'higher-wins') {
      // Where the named layer had nobody, its override would have to win over the layers below and
      // yield to those above: more than override children say. No source has such overrides.
      unsupported.push({
        kind: 'override',
        sourceId: override.sourceId,
        name: `${override.start} – ${override.end}`,
        reason: 'an override of single layers in a schedule whose higher layer wins: imported as an override of the whole schedule',
      });
      replaced = null;
    }
    // A child only needs a parent that is on call during the override: one child anywhere already
    // puts the override's people on call for the whole span.
    const parents = events.filter(
      (event) =>
        (replaced === null || (event.sourceLayerId !== undefined && replaced.has(event.sourceLayerId))) &&
        expandOccurrences(eventsOfSpecs([event])[0], start, end).length > 0,
    );
    if (parents.length === 0) overrides.push(spec);
    for (const parent of parents) overrides.push(childCopy(spec, parent));
  }
  events = [...events, ...overrides];
  if (events.length > MAX_EVENTS)
    return prefixed(asShifts(schedule, perLayer, layerNumber, options.shiftsFrom, events.length, unsupported));
  return prefixed(events);
}
