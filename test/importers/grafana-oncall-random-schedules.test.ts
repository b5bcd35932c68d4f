// Seeded random Grafana OnCall schedules (rolling_users and recurrent_event shifts, daily or weekly,
// with by_day and intervals, on levels, single events and overrides) through the reader's
// translation and the shared schedule translation: wherever the reader imports a shift (it lists
// the rest), our engine must put the same people on call as the stand-in's own rendering of Grafana
// OnCall's rules, over 28 days that cross Berlin's change of clocks.
import { describe, expect, it } from 'vitest';
import { translateSchedule as translateGrafana } from '../../lib/importers/grafana-oncall/translate';
import { compareSpans } from '../../lib/importers/proof';
import { eventsOfSpecs, ourSpans } from '../../lib/importers/spec-engine';
import type { UnsupportedItem } from '../../lib/importers/source-model';
import { spansFromPeriods } from '../../lib/importers/spans';
import { translateSchedule } from '../../lib/importers/translate-schedule';
import { seededRandom } from '../support/seeded-random';
import { renderGoFinal, type GoShift, type GoWeekday, type GrafanaOnCallStack } from './grafana-oncall-stand-in';

const DAY = 86_400_000;
const FROM = Date.parse('2026-10-15T00:00:00Z');
const TO = FROM + 28 * DAY;
const ZONE = 'Europe/Berlin';
const PEOPLE = ['U1', 'U2', 'U3', 'U4'];
const WEEKDAYS: GoWeekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

function randomShifts(random: () => number, i: number): GoShift[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const local = () => {
    const day = 1 + Math.floor(random() * 20);
    return `2026-10-${String(day).padStart(2, '0')}T${String(Math.floor(random() * 24)).padStart(2, '0')}:${pick(['00', '30'])}:00`;
  };
  const shifts: GoShift[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, s) => {
    const rolling = random() < 0.6;
    const frequency = pick(['daily', 'weekly'] as const);
    const interval = rolling ? 1 : 1 + Math.floor(random() * 3);
    const start = local();
    const weekday = WEEKDAYS[(new Date(`${start.slice(0, 10)}T12:00:00Z`).getUTCDay() + 6) % 7];
    const byDay = random() < 0.5 ? WEEKDAYS.filter(() => random() < 0.5) : null;
    const unit = frequency === 'daily' ? 86_400 : 7 * 86_400;
    const duration = random() < 0.3 ? unit * interval : (1 + Math.floor(random() * (frequency === 'daily' ? 46 : 100))) * 1800;
    return {
      id: `O${i}-${s}`,
      name: `shift ${s}`,
      type: rolling ? 'rolling_users' : 'recurrent_event',
      team_id: null,
      time_zone: random() < 0.5 ? null : ZONE,
      level: s,
      start,
      rotation_start: start,
      duration,
      frequency,
      interval,
      week_start: weekday,
      by_day: byDay?.length ? byDay : null,
      ...(rolling
        ? {
            rolling_users: Array.from({ length: 1 + Math.floor(random() * 3) }, () => [pick(PEOPLE)]),
            start_rotation_from_user_index: Math.floor(random() * 2),
          }
        : { users: [pick(PEOPLE)] }),
    };
  });
  if (random() < 0.5) {
    shifts.push({
      id: `O${i}-once`,
      name: 'once',
      type: 'single_event',
      team_id: null,
      time_zone: null,
      level: 9,
      start: local(),
      duration: 7200,
      users: [pick(PEOPLE)],
    });
  }
  if (random() < 0.5) {
    shifts.push({
      id: `O${i}-over`,
      name: 'override',
      type: 'override',
      team_id: null,
      time_zone: ZONE,
      level: 99,
      start: local(),
      duration: 36_000,
      rolling_users: [[pick(PEOPLE)]],
    });
  }
  return shifts;
}

describe('seeded random Grafana OnCall schedules', () => {
  it('put the same people on call here as Grafana OnCall renders wherever a shift is imported', () => {
    const random = seededRandom(20261101);
    let compared = 0;
    let withRotations = 0;
    for (let i = 0; i < 80; i++) {
      const shifts = randomShifts(random, i);
      const unsupported: UnsupportedItem[] = [];
      const wire = { id: `S${i}`, name: `S${i}`, type: 'web', time_zone: ZONE, shifts: shifts.map((s) => s.id) };
      const source = translateGrafana(wire, shifts, unsupported)!;
      // Render only what was imported: a listed shift is reported, not carried.
      const imported = shifts.filter((s) => !unsupported.some((u) => u.sourceId === s.id));
      const stack: GrafanaOnCallStack = {
        users: [],
        teams: [],
        schedules: [],
        shifts: imported,
        escalationChains: [],
        escalationPolicies: [],
        integrations: [],
        routes: [],
      };
      const rendered = renderGoFinal(stack, { ...wire, type: 'web', team_id: null, shifts: imported.map((s) => s.id) }, FROM, TO);
      const theirs = spansFromPeriods(
        rendered.flatMap((piece) => piece.who.map((userSourceId) => ({ start: piece.start, end: piece.end, userSourceId }))),
        FROM,
        TO,
      );
      const ours = ourSpans(eventsOfSpecs(translateSchedule(source, 1, '', { shiftsFrom: FROM }).events), (attendee) => attendee, FROM, TO);
      expect(compareSpans(ours, theirs, FROM, TO).differences, JSON.stringify(imported)).toEqual([]);
      compared++;
      if (source.layers.some((l) => l.kind === 'rotation')) withRotations++;
    }
    expect(compared).toBe(80);
    expect(withRotations).toBeGreaterThan(50);
  });
});
