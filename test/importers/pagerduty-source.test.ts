// The PagerDuty reader against the REST API v2 stand-in: what it reads and how it translates it,
// paging through lists, the rendered final schedule it hands the proof, and a refused key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagerDutySource } from '../../lib/importers/pagerduty/source';
import { translateSchedule } from '../../lib/importers/pagerduty/translate';
import type { Snapshot, UnsupportedItem } from '../../lib/importers/source-model';
import { PD_NOW, pagerDutyAccount } from './pagerduty-fixtures';
import { PagerDutyStandIn } from './pagerduty-stand-in';

let standIn: PagerDutyStandIn;
let snapshot: Snapshot;

beforeAll(async () => {
  // Pages of 3: every list of the account takes more than one request.
  standIn = await PagerDutyStandIn.start(pagerDutyAccount(), { maxLimit: 3 });
  snapshot = await pagerDutySource({ allowPrivateAddresses: true, apiKey: standIn.apiKey, apiUrl: standIn.url, now: () => PD_NOW }).read();
});

afterAll(async () => {
  await standIn.close();
});

function onCallAt(spans: { start: string; end: string; userSourceIds: string[] }[], at: string): string[] | undefined {
  const t = Date.parse(at);
  return spans.find((s) => Date.parse(s.start) <= t && t < Date.parse(s.end))?.userSourceIds;
}

describe('reading a PagerDuty account', () => {
  it('pages through every list with limit and offset, sending the API key as PagerDuty wants it', () => {
    const userPages = standIn.requests.filter((r) => r.path === '/users');
    expect(userPages.map((r) => r.query.get('offset'))).toEqual(['0', '3', '6']);
    expect(userPages.every((r) => r.query.getAll('include[]').includes('contact_methods'))).toBe(true);
    expect(standIn.requests.every((r) => r.headers.authorization === `Token token=${standIn.apiKey}`)).toBe(true);
    expect(snapshot.users.map((u) => u.sourceId)).toEqual(['PALICE1', 'PBOB002', 'PCAROL3', 'PDAN004', 'PERIN05', 'PFRANK6', 'PGRACE7']);
  });

  it('reads people with their e-mails, phones, zones and roles', () => {
    const alice = snapshot.users.find((u) => u.sourceId === 'PALICE1')!;
    expect(alice).toMatchObject({
      name: 'Alice Adler',
      emails: ['alice@pd.example', 'alice.adler@work.example'],
      phones: [{ number: '+4915112345671', use: 'voice' }],
      timeZone: 'Europe/Berlin',
      role: 'admin',
    });
    expect(snapshot.users.find((u) => u.sourceId === 'PBOB002')!.phones).toEqual([{ number: '+4915112345672', use: 'both' }]);
    expect(snapshot.users.find((u) => u.sourceId === 'PCAROL3')).toMatchObject({ role: 'user', sourceRole: 'limited_user', phones: [] });
    expect(snapshot.users.find((u) => u.sourceId === 'PFRANK6')!.role).toBe('observer');
    expect(snapshot.unsupported).toContainEqual(
      expect.objectContaining({ kind: 'user', sourceId: 'PALICE1', reason: expect.stringContaining('push') }),
    );
  });

  it('reads teams with members and their managers as admins', () => {
    expect(snapshot.teams).toEqual([
      {
        sourceId: 'PTPLAT1',
        name: 'Platform',
        description: 'Runs the platform',
        memberSourceIds: ['PALICE1', 'PBOB002', 'PCAROL3', 'PFRANK6'],
        adminSourceIds: ['PALICE1'],
      },
      { sourceId: 'PTPAY02', name: 'Payments', memberSourceIds: ['PDAN004', 'PERIN05', 'PGRACE7'], adminSourceIds: ['PDAN004'] },
    ]);
  });

  it('reads schedule layers as rotations of wall-clock lengths with their restrictions, and the overrides ahead', () => {
    const platform = snapshot.schedules.find((s) => s.sourceId === 'PSPLAT1')!;
    expect(platform).toMatchObject({ timeZone: 'Europe/Berlin', teamSourceId: 'PTPLAT1', layerCombination: 'higher-wins' });
    expect(platform.layers.map((l) => (l.kind === 'rotation' ? [l.sourceId, l.length, l.restrictions] : null))).toEqual([
      ['PLWEEK1', { unit: 'weeks', count: 1 }, []],
      ['PLWKND2', { unit: 'days', count: 1 }, [{ kind: 'weekly', startDay: 5, start: '18:00', minutes: 62 * 60 }]],
      ['PLLUNC3', { unit: 'days', count: 2 }, [{ kind: 'daily', start: '12:00', minutes: 60 }]],
    ]);
    const lunch = platform.layers[2];
    expect(lunch.kind === 'rotation' && [Date.parse(lunch.start), Date.parse(lunch.activeFrom!), Date.parse(lunch.end!)]).toEqual([
      Date.parse('2026-10-10T00:00:00+02:00'),
      Date.parse('2026-10-20T00:00:00+02:00'),
      Date.parse('2026-11-05T00:00:00+01:00'),
    ]);
    expect(lunch.kind === 'rotation' && lunch.participants).toEqual([
      { kind: 'users', userSourceIds: ['PGRACE7'] },
      { kind: 'users', userSourceIds: ['PALICE1'] },
    ]);
    expect(platform.overrides.map((o) => [o.sourceId, o.userSourceIds, o.replaces])).toEqual([
      ['PO1DST1', ['PDAN004'], 'schedule'],
      ['PO2NOV3', ['PERIN05'], 'schedule'],
    ]);
    const halfDays = snapshot.schedules.find((s) => s.sourceId === 'PSPAY02')!.layers[0];
    expect(halfDays.kind === 'rotation' && halfDays.length).toEqual({ unit: 'hours', count: 12 });
  });

  it('reads escalation rules as steps at cumulative minutes, their user and schedule targets, and the loops', () => {
    expect(snapshot.escalationPolicies.find((p) => p.sourceId === 'PEPLAT1')).toEqual({
      sourceId: 'PEPLAT1',
      name: 'Platform',
      description: 'Primary, then the manager and payments',
      teamSourceId: 'PTPLAT1',
      steps: [
        { atMinute: 0, condition: 'if-not-acknowledged', targets: [{ kind: 'schedule', scheduleSourceId: 'PSPLAT1', who: 'on-call' }] },
        {
          atMinute: 10,
          condition: 'if-not-acknowledged',
          targets: [
            { kind: 'user', userSourceId: 'PALICE1' },
            { kind: 'schedule', scheduleSourceId: 'PSPAY02', who: 'on-call' },
          ],
        },
      ],
      repeat: { times: 2, afterMinutes: 15 },
    });
  });

  it("reads services' integrations with their keys, and lists e-mail integrations as unsupported", () => {
    expect(snapshot.integrations).toEqual([
      {
        sourceId: 'PIEV2A1',
        name: 'Public API: Events API v2',
        type: 'events_api_v2_inbound_integration',
        enabled: true,
        teamSourceId: 'PTPLAT1',
        escalationPolicySourceId: 'PEPLAT1',
        oldAddress: 'routing_key …8f90',
        addressKind: 'key',
        senderKey: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      },
      {
        sourceId: 'PIPROM3',
        name: 'Billing: Prometheus',
        type: 'events_api_v2_inbound_integration',
        enabled: false,
        teamSourceId: 'PTPAY02',
        escalationPolicySourceId: 'PEPAY02',
        oldAddress: 'routing_key …e1f0',
        addressKind: 'key',
        senderKey: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      },
    ]);
    expect(snapshot.unsupported).toContainEqual(expect.objectContaining({ kind: 'integration', sourceId: 'PIMAIL2' }));
  });
});

describe('layers that cannot be carried', () => {
  it('are listed with the reason, and a layer that ended before the import is left out', () => {
    const unsupported: UnsupportedItem[] = [];
    const layer = (id: string, turn: number, extra: object = {}) => ({
      id,
      name: id,
      start: '2026-09-01T00:00:00Z',
      rotation_virtual_start: '2026-09-01T00:00:00Z',
      rotation_turn_length_seconds: turn,
      users: [{ user: { id: 'PALICE1', type: 'user_reference' } }],
      ...extra,
    });
    const schedule = translateSchedule(
      {
        id: 'PSODD01',
        name: 'Odd',
        time_zone: 'UTC',
        teams: [
          { id: 'PTPLAT1', type: 'team_reference', summary: 'Platform' },
          { id: 'PTPAY02', type: 'team_reference', summary: 'Payments' },
        ],
        schedule_layers: [
          layer('L90MIN', 5400),
          layer('LSECONDS', 86_400, {
            restrictions: [{ type: 'daily_restriction', start_time_of_day: '08:00:30', duration_seconds: 3600 }],
          }),
          layer('LENDED', 86_400, { end: '2026-10-01T00:00:00Z' }),
          layer('LFINE', 86_400),
        ],
      },
      [],
      PD_NOW,
      unsupported,
    );
    expect(schedule.layers.map((l) => l.sourceId)).toEqual(['LFINE']);
    expect(schedule.teamSourceId).toBe('PTPLAT1');
    expect(unsupported.map((u) => [u.kind, u.sourceId])).toEqual([
      ['layer', 'L90MIN'],
      ['layer', 'LSECONDS'],
      ['schedule', 'PSODD01'],
    ]);
    expect(unsupported[0].reason).toContain('5400 s is not whole hours');
  });
});

describe("PagerDuty's rendered on-call", () => {
  it('covers the window without gaps, with overrides, higher layers and restrictions across the change of clocks', async () => {
    const source = pagerDutySource({ allowPrivateAddresses: true, apiKey: standIn.apiKey, apiUrl: standIn.url, now: () => PD_NOW });
    const from = '2026-10-15T00:00:00.000Z';
    const to = '2026-11-12T00:00:00.000Z';
    const spans = await source.renderedOnCall('PSPLAT1', from, to);
    expect(spans[0].start).toBe(from);
    expect(spans.at(-1)!.end).toBe(to);
    for (let i = 1; i < spans.length; i += 1) expect(spans[i].start).toBe(spans[i - 1].end);
    // Layer 1's weekly turns from Monday 2026-09-28 09:00: Alice, Bob, Carol, so Carol from 10-12.
    expect(onCallAt(spans, '2026-10-16T10:00:00+02:00')).toEqual(['PCAROL3']);
    // Friday 18:00 the weekend layer's daily turn 15 (from 10-01 18:00): Carol.
    expect(onCallAt(spans, '2026-10-16T19:00:00+02:00')).toEqual(['PCAROL3']);
    // The lunch layer (two-day turns from 10-10, active from 10-20): Grace on 10-23.
    expect(onCallAt(spans, '2026-10-23T12:30:00+02:00')).toEqual(['PGRACE7']);
    expect(onCallAt(spans, '2026-10-23T13:30:00+02:00')).toEqual(['PALICE1']);
    // The override across the night the clocks go back.
    expect(onCallAt(spans, '2026-10-25T02:30:00+01:00')).toEqual(['PDAN004']);
    // The weekend restriction runs 62 hours on the wall clock from Friday 18:00: to 08:00 on Monday.
    expect(onCallAt(spans, '2026-10-26T06:30:00Z')).toEqual(['PBOB002']);
    expect(onCallAt(spans, '2026-10-26T07:00:00Z')).toEqual(['PALICE1']);
    // Layer 1's hand-off stays 09:00 Berlin time after the change.
    expect(onCallAt(spans, '2026-10-26T07:59:00Z')).toEqual(['PALICE1']);
    expect(onCallAt(spans, '2026-10-26T08:00:00Z')).toEqual(['PBOB002']);
    const query = standIn.requests.at(-1)!.query;
    expect([query.get('since'), query.get('until')]).toEqual([from, to]);
  });

  it('answers a schedule without layers as nobody on call', async () => {
    const source = pagerDutySource({ allowPrivateAddresses: true, apiKey: standIn.apiKey, apiUrl: standIn.url });
    expect(await source.renderedOnCall('PSEMPT3', '2026-10-15T00:00:00Z', '2026-10-16T00:00:00Z')).toEqual([
      { start: '2026-10-15T00:00:00.000Z', end: '2026-10-16T00:00:00.000Z', userSourceIds: [] },
    ]);
  });
});

describe("PagerDuty's rate limit", () => {
  it('is waited out as Retry-After asks, and the read goes on', async () => {
    const source = pagerDutySource({ allowPrivateAddresses: true, apiKey: standIn.apiKey, apiUrl: standIn.url, now: () => PD_NOW });
    const asked = standIn.requests.length;
    standIn.rateLimited = 2;
    const began = Date.now();
    const spans = await source.renderedOnCall('PSPAY02', '2026-10-16T00:00:00Z', '2026-10-17T00:00:00Z');
    expect(Date.now() - began).toBeGreaterThanOrEqual(2000);
    expect(standIn.requests.length - asked).toBe(3);
    expect(spans.length).toBeGreaterThan(1);
  });
});

describe('a refused key', () => {
  it("fails the read with PagerDuty's status and message, never the key", async () => {
    const source = pagerDutySource({ allowPrivateAddresses: true, apiKey: 'wrong-key-123', apiUrl: standIn.url });
    const failure = await source.read().then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/PagerDuty: GET .*\/users.* answered 401: Unauthorized/);
    expect(failure?.message).not.toContain('wrong-key-123');
  });
});
