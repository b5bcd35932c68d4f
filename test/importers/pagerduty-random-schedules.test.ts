// Seeded random PagerDuty schedules (one to three layers of whole-hour, day and week turns, daily and
// weekly restrictions, layer starts and ends, overrides) through the reader's translation and the
// shared schedule translation: our engine must put the same people on call as the stand-in's own
// rendering of PagerDuty's rules, over 28 days that cross Berlin's change of clocks. Hour turns
// with restrictions are left out: they are imported on the wall clock while PagerDuty counts them
// in elapsed seconds (the shared translation lists them as inexact).
import { describe, expect, it } from 'vitest';
import { translateSchedule as translatePagerDuty } from '../../lib/importers/pagerduty/translate';
import type { PdSchedule as PdWireSchedule } from '../../lib/importers/pagerduty/wire';
import { compareSpans } from '../../lib/importers/proof';
import { eventsOfSpecs, ourSpans } from '../../lib/importers/spec-engine';
import type { UnsupportedItem } from '../../lib/importers/source-model';
import { spansFromPeriods } from '../../lib/importers/spans';
import { translateSchedule } from '../../lib/importers/translate-schedule';
import { seededRandom } from '../support/seeded-random';
import { renderPdFinal, type PdLayer, type PdSchedule } from './pagerduty-stand-in';

const DAY = 86_400_000;
const FROM = Date.parse('2026-10-15T00:00:00Z');
const TO = FROM + 28 * DAY;
const ZONE = 'Europe/Berlin';
const PEOPLE = ['P1', 'P2', 'P3', 'P4'];

function randomSchedule(random: () => number, i: number): PdSchedule {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const at = (days: number) => new Date(FROM + Math.floor(random() * days * 48) * 1_800_000 - 20 * DAY).toISOString();
  const clock = () => `${String(Math.floor(random() * 24)).padStart(2, '0')}:${pick(['00', '30'])}:00`;
  const layers: PdLayer[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, l) => {
    const turn = pick([4 * 3600, 8 * 3600, 12 * 3600, 86_400, 2 * 86_400, 7 * 86_400]);
    const restricted = turn >= 86_400 && random() < 0.6;
    const start = at(30);
    return {
      id: `L${i}-${l}`,
      name: `Layer ${l + 1}`,
      start,
      end: random() < 0.25 ? new Date(Date.parse(start) + Math.floor(random() * 30 * 24) * 3_600_000).toISOString() : null,
      rotation_virtual_start: at(20),
      rotation_turn_length_seconds: turn,
      userIds: Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(PEOPLE)),
      restrictions: restricted
        ? Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
            random() < 0.5
              ? { type: 'daily_restriction' as const, start_time_of_day: clock(), duration_seconds: (1 + Math.floor(random() * 46)) * 1800 }
              : {
                  type: 'weekly_restriction' as const,
                  start_time_of_day: clock(),
                  duration_seconds: (1 + Math.floor(random() * 200)) * 1800,
                  start_day_of_week: 1 + Math.floor(random() * 7),
                },
          )
        : [],
    };
  });
  const overrides = Array.from({ length: Math.floor(random() * 3) }, (_, o) => {
    const start = Date.parse(at(40)) + 20 * DAY;
    return {
      id: `O${i}-${o}`,
      start: new Date(start).toISOString(),
      end: new Date(start + (1 + Math.floor(random() * 48)) * 1_800_000).toISOString(),
      userId: pick(PEOPLE),
    };
  });
  return { id: `S${i}`, name: `S${i}`, description: null, time_zone: ZONE, teamIds: [], layers, overrides };
}

/** The schedule as PagerDuty's API answers it (what the reader's translation reads). */
function onTheWire(schedule: PdSchedule): PdWireSchedule {
  return {
    id: schedule.id,
    name: schedule.name,
    time_zone: schedule.time_zone,
    schedule_layers: schedule.layers.map((layer) => ({
      ...layer,
      users: layer.userIds.map((id) => ({ user: { id, type: 'user_reference' } })),
    })),
  };
}

describe('seeded random PagerDuty schedules', () => {
  it('put the same people on call here as PagerDuty renders, across the change of clocks', () => {
    const random = seededRandom(20261025);
    let busy = 0;
    for (let i = 0; i < 60; i++) {
      const schedule = randomSchedule(random, i);
      const unsupported: UnsupportedItem[] = [];
      const source = translatePagerDuty(
        onTheWire(schedule),
        schedule.overrides.map((o) => ({ id: o.id, start: o.start, end: o.end, user: { id: o.userId, type: 'user_reference' } })),
        FROM,
        unsupported,
      );
      expect(unsupported).toEqual([]);
      const theirs = spansFromPeriods(
        renderPdFinal(schedule, FROM, TO).flatMap((piece) =>
          piece.who.map((userSourceId) => ({ start: piece.start, end: piece.end, userSourceId })),
        ),
        FROM,
        TO,
      );
      const ours = ourSpans(eventsOfSpecs(translateSchedule(source, 1, '', { shiftsFrom: FROM }).events), (attendee) => attendee, FROM, TO);
      expect(compareSpans(ours, theirs, FROM, TO).differences, JSON.stringify(schedule)).toEqual([]);
      if (theirs.filter((s) => s.userSourceIds.length > 0).length > 10) busy++;
    }
    expect(busy).toBeGreaterThan(30);
  });
});
