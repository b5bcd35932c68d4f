// The translation of source-model schedules into our events, against the model's rules computed
// apart (source-model-oracle.ts): seeded random schedules with several layers combined all at once
// or higher-wins (PagerDuty's layers, Grafana OnCall's levels), rotations in hours, days and weeks,
// restrictions, groups on call together, `nobody` slots, layers that start later than their turns'
// anchor or end, explicit shifts, and overrides, in zones whose clocks change in the window (Berlin
// forward on 29 March, Sydney back on 5 April 2026). Our engine over the events must have the same
// people on call at every hand-off of either side.
import { describe, expect, it } from 'vitest';
import { compareSpans } from '../../lib/importers/proof';
import { eventsOfSpecs, ourSpans } from '../../lib/importers/spec-engine';
import type { SourceLayer, SourceParticipant, SourceRestriction, SourceSchedule } from '../../lib/importers/source-model';
import { spansFromPeriods } from '../../lib/importers/spans';
import { translateSchedule } from '../../lib/importers/translate-schedule';
import { seededRandom } from '../support/seeded-random';
import { oracleOnCall } from './source-model-oracle';

const FROM = Date.parse('2026-03-20T00:00:00Z');
const TO = FROM + 28 * 86_400_000;
const HALF_HOUR = 1_800_000;

function randomSchedule(random: () => number, n: number): SourceSchedule {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const zone = pick(['Europe/Berlin', 'Australia/Sydney', 'UTC']);
  const people = ['p1', 'p2', 'p3', 'p4', 'p5'];
  const iso = (ms: number) => new Date(ms).toISOString();
  const anchor = () => FROM - 30 * 86_400_000 + Math.floor(random() * 60 * 48) * HALF_HOUR;
  const time = () => `${String(Math.floor(random() * 24)).padStart(2, '0')}:${pick(['00', '30'])}`;
  const layers: SourceLayer[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i): SourceLayer => {
    if (random() < 0.15) {
      return {
        kind: 'shifts',
        sourceId: `l${i}`,
        name: `l${i}`,
        timeZone: zone,
        shifts: Array.from({ length: 3 }, () => {
          const start = FROM + Math.floor(random() * 27 * 48) * HALF_HOUR;
          return { start: iso(start), end: iso(start + (1 + Math.floor(random() * 48)) * HALF_HOUR), userSourceIds: [pick(people)] };
        }),
      };
    }
    const unit = pick(['hours', 'days', 'weeks'] as const);
    // Hourly turns with restrictions are exact only where the clock does not change (listed otherwise).
    const restricted = random() < 0.5 && (unit !== 'hours' || zone === 'UTC');
    const restrictions: SourceRestriction[] = !restricted
      ? []
      : Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
          random() < 0.5
            ? { kind: 'daily' as const, start: time(), minutes: 30 * (1 + Math.floor(random() * 47)) }
            : {
                kind: 'weekly' as const,
                startDay: pick([1, 2, 3, 4, 5, 6, 7] as const),
                start: time(),
                minutes: 30 * (1 + Math.floor(random() * 200)),
              },
        );
    const participants: SourceParticipant[] = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const roll = random();
      if (roll < 0.15) return { kind: 'nobody' };
      if (roll < 0.3) return { kind: 'users', userSourceIds: [pick(people), pick(people)].filter((p, j, all) => all.indexOf(p) === j) };
      return { kind: 'users', userSourceIds: [pick(people)] };
    });
    const start = anchor();
    return {
      kind: 'rotation',
      sourceId: `l${i}`,
      name: `l${i}`,
      start: iso(start),
      ...(random() < 0.3 ? { activeFrom: iso(FROM + Math.floor(random() * 14 * 48) * HALF_HOUR) } : {}),
      ...(random() < 0.3 ? { end: iso(FROM + Math.floor(random() * 28 * 48) * HALF_HOUR) } : {}),
      length: { unit, count: unit === 'hours' ? pick([1, 4, 6, 8, 12, 36]) : 1 + Math.floor(random() * 3) },
      timeZone: zone,
      participants,
      restrictions,
      restrictionTimeZone: zone,
      restrictionMode: 'partial',
    };
  });
  const layerCombination = random() < 0.5 ? 'all-at-once' : 'higher-wins';
  const overrides = Array.from({ length: Math.floor(random() * 3) }, (_, i) => {
    // Apart from each other: what overlapping overrides do is up to each source.
    const start = FROM + (i * 9 + Math.floor(random() * 8)) * 86_400_000 + Math.floor(random() * 48) * HALF_HOUR;
    const replaces =
      layerCombination === 'all-at-once' && random() < 0.5 ? { layerSourceIds: [pick(layers).sourceId] } : ('schedule' as const);
    return {
      sourceId: `o${i}`,
      start: iso(start),
      end: iso(start + (1 + Math.floor(random() * 30)) * HALF_HOUR),
      userSourceIds: [pick(people)],
      replaces,
    };
  });
  return { sourceId: `s${n}`, name: `s${n}`, timeZone: zone, enabled: true, layerCombination, layers, overrides };
}

describe('translating source-model schedules', () => {
  it('puts the same people on call as the model says, for 60 seeded random schedules (a few as explicit shifts)', () => {
    const random = seededRandom(4_2026);
    let busy = 0;
    let higherWins = 0;
    let asShifts = 0;
    for (let n = 0; n < 60; n++) {
      const schedule = randomSchedule(random, n);
      const translated = translateSchedule(schedule, 1, '', { shiftsFrom: FROM });
      const theirs = spansFromPeriods(oracleOnCall(schedule, FROM, TO), FROM, TO);
      const ours = ourSpans(eventsOfSpecs(translated.events), (id) => id, FROM, TO);
      expect(compareSpans(ours, theirs, FROM, TO).differences, JSON.stringify(schedule)).toEqual([]);
      if (theirs.some((span) => span.userSourceIds.length > 0)) busy++;
      if (schedule.layerCombination === 'higher-wins' && schedule.layers.length > 1) higherWins++;
      if (translated.unsupported.some((item) => /single shifts until/.test(item.reason))) asShifts++;
    }
    expect(busy).toBeGreaterThan(40);
    expect(higherWins).toBeGreaterThan(10);
    // Some are too complex to repeat exactly (translate-schedule.ts asShifts), most are not.
    expect(asShifts).toBeGreaterThan(0);
    expect(asShifts).toBeLessThan(10);
  });

  it('makes one rotation event for a rotation of distinct people, and keys that stay the same', () => {
    const schedule: SourceSchedule = {
      sourceId: 's',
      name: 's',
      timeZone: 'Europe/Berlin',
      enabled: true,
      layerCombination: 'all-at-once',
      layers: [
        {
          kind: 'rotation',
          sourceId: 'weekly',
          name: 'weekly',
          start: '2026-03-02T08:00:00Z',
          length: { unit: 'weeks', count: 1 },
          timeZone: 'Europe/Berlin',
          participants: ['a', 'b', 'c'].map((id) => ({ kind: 'users', userSourceIds: [id] })),
          restrictions: [],
          restrictionTimeZone: 'Europe/Berlin',
          restrictionMode: 'partial',
        },
      ],
      overrides: [],
    };
    const { events } = translateSchedule(schedule);
    expect(events).toEqual([
      {
        key: 'weekly/t0/p0',
        layer: 1,
        start: Date.parse('2026-03-02T08:00:00Z'),
        end: Date.parse('2026-03-09T08:00:00Z'),
        timeZone: 'Europe/Berlin',
        repeat: { unit: 'daily', frequency: 7, until: null },
        rotation: true,
        userSourceIds: ['a', 'b', 'c'],
        sourceLayerId: 'weekly',
      },
    ]);
    expect(translateSchedule(schedule).events.map((e) => e.key)).toEqual(['weekly/t0/p0']);
  });

  it('lists an override of single layers where the higher layer wins, and imports it for the whole schedule', () => {
    const layer = (id: string): SourceLayer => ({
      kind: 'shifts',
      sourceId: id,
      name: id,
      timeZone: 'UTC',
      shifts: [{ start: '2026-03-21T00:00:00Z', end: '2026-03-22T00:00:00Z', userSourceIds: [id] }],
    });
    const { unsupported, events } = translateSchedule({
      sourceId: 's',
      name: 's',
      timeZone: 'UTC',
      enabled: true,
      layerCombination: 'higher-wins',
      layers: [layer('low'), layer('high')],
      overrides: [
        {
          sourceId: 'o',
          start: '2026-03-21T10:00:00Z',
          end: '2026-03-21T11:00:00Z',
          userSourceIds: ['x'],
          replaces: { layerSourceIds: ['low'] },
        },
      ],
    });
    expect(unsupported.map((u) => u.reason)).toEqual([expect.stringMatching(/imported as an override of the whole schedule/)]);
    const at = Date.parse('2026-03-21T10:30:00Z');
    expect(ourSpans(eventsOfSpecs(events), (id) => id, at, at + 1)[0].userSourceIds).toEqual(['x']);
  });
});
