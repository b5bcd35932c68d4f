// The Opsgenie reader against the API stand-in, and the schedule translation against Opsgenie's
// rendered timeline (computed in test/ by opsgenie-timeline.ts from the documented rules): our
// engine over the translated events must put the same people on call at every hand-off, across
// daylight-saving changes, restrictions, `none` slots and overrides; also for seeded random
// rotations. No emulators: the engine is pure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opsgenieSource } from '../../lib/importers/opsgenie/reader';
import { compareSpans } from '../../lib/importers/proof';
import { eventsOfSpecs, ourSpans } from '../../lib/importers/spec-engine';
import type { Snapshot, SourceRotationLayer } from '../../lib/importers/source-model';
import { spansFromPeriods } from '../../lib/importers/spans';
import { translateSchedule } from '../../lib/importers/translate-schedule';
import { seededRandom } from '../support/seeded-random';
import { FROM, opsgenieAccount } from './opsgenie-fixture';
import { OpsgenieStandIn } from './opsgenie-stand-in';
import { rotationPeriods, type OgRestriction, type OgRotation } from './opsgenie-timeline';

const DAY = 86_400_000;
const KEY = 'genie-key-0123456789';
let standIn: OpsgenieStandIn;
let snapshot: Snapshot;

beforeAll(async () => {
  standIn = new OpsgenieStandIn(opsgenieAccount(), KEY);
  await standIn.start();
  snapshot = await opsgenieSource({ allowPrivateAddresses: true, apiKey: KEY, apiUrl: standIn.url }).read();
});
afterAll(() => standIn.stop());

describe('reading Opsgenie', () => {
  it('pages through users with offset and limit, following paging.next, with the GenieKey header', () => {
    const userPages = standIn.requests.filter((r) => r.path === '/v2/users');
    expect(userPages.map((r) => r.query.offset)).toEqual(['0', '3', '6']);
    expect(snapshot.users).toHaveLength(7);
    expect(new Set(standIn.requests.map((r) => r.authorization))).toEqual(new Set([`GenieKey ${KEY}`]));
  });

  it('reads people with their addresses, numbers, zones and roles', () => {
    const ada = snapshot.users.find((u) => u.sourceId === 'u-ada')!;
    expect(ada).toMatchObject({
      name: 'Ada Lovelace',
      emails: ['ada@example.org', 'ada.home@example.org'],
      phones: [{ number: '+4915112345678', use: 'both' }],
      timeZone: 'Europe/Berlin',
      role: 'owner',
    });
    expect(snapshot.users.find((u) => u.sourceId === 'u-barbara')).toMatchObject({ role: 'observer', sourceRole: 'Stakeholder' });
    expect(snapshot.teams.find((t) => t.sourceId === 't-platform')).toMatchObject({
      memberSourceIds: ['u-ada', 'u-grace', 'u-linus', 'u-margaret'],
      adminSourceIds: ['u-ada'],
    });
  });

  it('reads rotations, restrictions (a wrapping day, weekday spans), overrides and escalation rules', () => {
    const primary = snapshot.schedules.find((s) => s.sourceId === 's-primary')!;
    const nights = primary.layers[1] as SourceRotationLayer;
    expect(nights.restrictions).toEqual([{ kind: 'daily', start: '18:00', minutes: 840 }]);
    expect(nights.participants[1]).toEqual({ kind: 'nobody' });
    const business = snapshot.schedules.find((s) => s.sourceId === 's-db')!.layers[0] as SourceRotationLayer;
    expect(business.restrictions).toEqual([{ kind: 'weekly', startDay: 1, start: '09:00', minutes: 4 * 1440 + 480 }]);
    expect(primary.overrides.map((o) => o.replaces)).toEqual(['schedule', { layerSourceIds: ['r-weekly'] }]);
    const platform = snapshot.escalationPolicies.find((p) => p.sourceId === 'e-platform')!;
    expect(platform.steps.map((s) => s.atMinute)).toEqual([0, 5, 15, 30]);
    expect(platform.steps[3].targets).toEqual([{ kind: 'schedule', scheduleSourceId: 's-db', who: 'next' }]);
    expect(platform.repeat).toEqual({ times: 2, afterMinutes: 10 });
    expect(snapshot.integrations.find((i) => i.sourceId === 'i-prom')!.oldAddress).toBe(`${standIn.url}/v2/alerts with GenieKey …a1b2`);
  });

  it('refuses a wrong key with the status and without echoing the key', async () => {
    const failure = opsgenieSource({ allowPrivateAddresses: true, apiKey: 'wrong-key', apiUrl: standIn.url }).read();
    await expect(failure).rejects.toThrow(/401 to GET \/v2\/users \(check the API key/);
    await expect(failure).rejects.not.toThrow(/wrong-key/);
  });
});

describe('the translation puts the same people on call as Opsgenie renders', () => {
  it.each(['s-primary', 's-db', 's-sun'])('schedule %s over 28 days across the DST change', async (id) => {
    const schedule = snapshot.schedules.find((s) => s.sourceId === id)!;
    const from = Date.parse(FROM);
    const to = from + 28 * DAY;
    const source = opsgenieSource({ allowPrivateAddresses: true, apiKey: KEY, apiUrl: standIn.url });
    const theirs = await source.renderedOnCall(id, FROM, new Date(to).toISOString());
    const ours = ourSpans(eventsOfSpecs(translateSchedule(schedule).events), (attendee) => attendee, from, to);
    expect(theirs.length).toBeGreaterThan(20);
    expect(compareSpans(ours, theirs, from, to).differences).toEqual([]);
  });

  it('a schedule changed after the translation shows as a difference', async () => {
    const schedule = snapshot.schedules.find((s) => s.sourceId === 's-primary')!;
    const from = Date.parse(FROM);
    const to = from + 28 * DAY;
    const events = eventsOfSpecs(translateSchedule(schedule).events);
    standIn.account.overrides['s-primary'].push({
      alias: 'late',
      user: { type: 'user', id: 'u-dennis', username: 'dennis@example.org' },
      startDate: '2026-04-10T00:00:00Z',
      endDate: '2026-04-10T06:00:00Z',
    });
    try {
      const theirs = await opsgenieSource({ allowPrivateAddresses: true, apiKey: KEY, apiUrl: standIn.url }).renderedOnCall(
        's-primary',
        FROM,
        new Date(to).toISOString(),
      );
      const { differences } = compareSpans(
        ourSpans(events, (a) => a, from, to),
        theirs,
        from,
        to,
      );
      expect(differences).toEqual([
        { start: '2026-04-10T00:00:00.000Z', end: '2026-04-10T06:00:00.000Z', ours: ['u-linus', 'u-margaret'], theirs: ['u-dennis'] },
      ]);
    } finally {
      standIn.account.overrides['s-primary'].pop();
    }
  });
});

describe('seeded random rotations', () => {
  const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const people = ['p1', 'p2', 'p3', 'p4'];

  function randomRotation(random: () => number, i: number): OgRotation {
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const type = pick(['daily', 'weekly', 'hourly'] as const);
    const restrictionKind = pick(['none', 'none', 'time-of-day', 'weekday-and-time-of-day'] as const);
    const time = () => ({ hour: Math.floor(random() * 24), min: pick([0, 30]) });
    const restriction = (): OgRestriction => {
      const [a, b] = [time(), time()];
      return { startDay: pick(DAYS), endDay: pick(DAYS), startHour: a.hour, startMin: a.min, endHour: b.hour, endMin: b.min };
    };
    const participants = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      random() < 0.15 ? { type: 'none' as const } : { type: 'user' as const, id: pick(people) },
    );
    const start = Date.parse('2026-02-20T00:00:00Z') + Math.floor(random() * 40 * 48) * 1_800_000;
    return {
      id: `r${i}`,
      name: `r${i}`,
      type,
      length: type === 'hourly' ? pick([1, 3, 6, 8, 12, 24]) : 1 + Math.floor(random() * 3),
      startDate: new Date(start).toISOString(),
      ...(random() < 0.3 ? { endDate: new Date(start + Math.floor(random() * 60 * 24) * 3_600_000).toISOString() } : {}),
      participants,
      ...(restrictionKind === 'time-of-day' ? { timeRestriction: { type: 'time-of-day' as const, restriction: restriction() } } : {}),
      ...(restrictionKind === 'weekday-and-time-of-day'
        ? {
            timeRestriction: {
              type: 'weekday-and-time-of-day' as const,
              restrictions: [restriction(), restriction()].slice(0, 1 + Math.floor(random() * 2)),
            },
          }
        : {}),
    };
  }

  it('match Opsgenie over 28 days in Berlin (wall-clock turns, and hourly ones without restrictions)', async () => {
    const random = seededRandom(20260329);
    const { restrictionsOf } = await import('../../lib/importers/opsgenie/reader');
    const zone = 'Europe/Berlin';
    const from = Date.parse(FROM);
    const to = from + 28 * DAY;
    let compared = 0;
    let busy = 0;
    for (let i = 0; i < 90; i++) {
      const rotation = randomRotation(random, i);
      // Hourly turns with restrictions are listed as inexact across a clock change (translate-schedule.ts).
      if (rotation.type === 'hourly' && rotation.timeRestriction) continue;
      const layer: SourceRotationLayer = {
        kind: 'rotation',
        sourceId: rotation.id,
        name: rotation.name,
        start: rotation.startDate,
        ...(rotation.endDate ? { end: rotation.endDate } : {}),
        length: { unit: rotation.type === 'hourly' ? 'hours' : rotation.type === 'daily' ? 'days' : 'weeks', count: rotation.length },
        timeZone: zone,
        participants: rotation.participants.map((p) =>
          p.type === 'user' ? { kind: 'users', userSourceIds: [p.id!] } : { kind: 'nobody' },
        ),
        restrictions: restrictionsOf(rotation.timeRestriction),
        restrictionTimeZone: zone,
        restrictionMode: 'partial',
      };
      const events = translateSchedule({
        sourceId: 's',
        name: 's',
        timeZone: zone,
        enabled: true,
        layerCombination: 'all-at-once',
        layers: [layer],
        overrides: [],
      }).events;
      const theirs = spansFromPeriods(
        rotationPeriods(rotation, zone, from, to).map((p) => ({ start: p.start, end: p.end, userSourceId: p.userId })),
        from,
        to,
      );
      const ours = ourSpans(eventsOfSpecs(events), (a) => a, from, to);
      expect(compareSpans(ours, theirs, from, to).differences, JSON.stringify(rotation)).toEqual([]);
      compared++;
      if (theirs.some((span) => span.userSourceIds.length > 0)) busy++;
    }
    expect(compared).toBeGreaterThan(60);
    expect(busy).toBeGreaterThan(40);
  });
});
