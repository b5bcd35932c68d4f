// The Grafana OnCall reader against the public API v1 stand-in: what it reads and how it
// translates it, following `next` through lists, the final shifts it hands the proof, what it lists
// as unsupported, and a refused token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grafanaOnCallSource } from '../../lib/importers/grafana-oncall/source';
import { translateSchedule } from '../../lib/importers/grafana-oncall/translate';
import type { OnCallSpan, Snapshot, UnsupportedItem } from '../../lib/importers/source-model';
import { GO_NOW, grafanaOnCallStack } from './grafana-oncall-fixtures';
import { GrafanaOnCallStandIn } from './grafana-oncall-stand-in';

let standIn: GrafanaOnCallStandIn;
let snapshot: Snapshot;

beforeAll(async () => {
  // Pages of 2: every list of the stack takes more than one request.
  standIn = await GrafanaOnCallStandIn.start(grafanaOnCallStack(), { pageSize: 2 });
  snapshot = await grafanaOnCallSource({
    allowPrivateAddresses: true,
    apiKey: standIn.token,
    apiUrl: standIn.apiUrl,
    now: () => GO_NOW,
  }).read();
});

afterAll(async () => {
  await standIn.close();
});

function onCallAt(spans: OnCallSpan[], at: string): string[] | undefined {
  const t = Date.parse(at);
  return spans.find((s) => Date.parse(s.start) <= t && t < Date.parse(s.end))?.userSourceIds;
}

describe('reading a Grafana OnCall stack', () => {
  it('follows every list through next, with the token as the Authorization header', () => {
    const userPages = standIn.requests.filter((r) => r.path.startsWith('/oncall/api/v1/users'));
    expect(userPages.map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
    expect(standIn.requests.every((r) => r.headers.authorization === standIn.token)).toBe(true);
    expect(snapshot.users.map((u) => u.sourceId)).toEqual(['UALICE1', 'UBOB002', 'UCAROL3', 'UDAN004', 'UERIN05', 'UFRANK6']);
  });

  it('reads people (the username when there is no name) and teams from their members, admins by role', () => {
    expect(snapshot.users.find((u) => u.sourceId === 'UCAROL3')).toEqual({
      sourceId: 'UCAROL3',
      name: 'carol',
      emails: ['carol@go.example'],
      phones: [],
      role: 'user',
      sourceRole: 'editor',
    });
    expect(snapshot.users.find((u) => u.sourceId === 'UFRANK6')!.role).toBe('observer');
    expect(snapshot.teams).toEqual([
      { sourceId: 'TSRE001', name: 'SRE', memberSourceIds: ['UALICE1', 'UBOB002', 'UCAROL3'], adminSourceIds: ['UALICE1'] },
      { sourceId: 'TDATA02', name: 'Data', memberSourceIds: ['UCAROL3', 'UDAN004', 'UERIN05'], adminSourceIds: ['UDAN004'] },
    ]);
    expect(snapshot.unsupported).toContainEqual(
      expect.objectContaining({ kind: 'other', reason: expect.stringContaining('phone numbers') }),
    );
  });

  it("says so when the users' answers name no teams (older Grafana OnCall versions)", async () => {
    const stack = grafanaOnCallStack();
    for (const user of stack.users) delete (user as Partial<typeof user>).teams;
    const older = await GrafanaOnCallStandIn.start(stack);
    try {
      const read = await grafanaOnCallSource({
        allowPrivateAddresses: true,
        apiKey: older.token,
        apiUrl: older.apiUrl,
        now: () => GO_NOW,
      }).read();
      expect(read.teams.map((t) => t.memberSourceIds)).toEqual([[], []]);
      expect(read.unsupported).toContainEqual(expect.objectContaining({ kind: 'other', sourceId: 'team-members' }));
      expect(snapshot.unsupported).not.toContainEqual(expect.objectContaining({ sourceId: 'team-members' }));
    } finally {
      await older.close();
    }
  });

  it('reads every shift type into rotations, restrictions, explicit shifts and overrides', () => {
    const sre = snapshot.schedules.find((s) => s.sourceId === 'SSRE001')!;
    expect(sre).toMatchObject({ timeZone: 'Europe/Berlin', teamSourceId: 'TSRE001', layerCombination: 'higher-wins' });
    expect(sre.layers.map((l) => l.sourceId)).toEqual(['OWEEK01', 'OEVEN02', 'OWKND03', 'OONCE04']);
    const [weekly, evenings, weekends, once] = sre.layers;
    expect(weekly).toMatchObject({
      kind: 'rotation',
      start: '2026-09-28T07:00:00.000Z',
      length: { unit: 'weeks', count: 1 },
      restrictions: [],
    });
    expect(evenings).toMatchObject({
      kind: 'rotation',
      length: { unit: 'days', count: 1 },
      participants: [
        { kind: 'users', userSourceIds: ['UBOB002'] },
        { kind: 'users', userSourceIds: ['UCAROL3'] },
      ],
      restrictions: [1, 2, 3, 4, 5].map((startDay) => ({ kind: 'weekly', startDay, start: '18:00', minutes: 840 })),
    });
    expect(weekends).toMatchObject({
      kind: 'rotation',
      length: { unit: 'weeks', count: 1 },
      participants: [{ kind: 'users', userSourceIds: ['UDAN004', 'UERIN05'] }, { kind: 'nobody' }],
      restrictions: [
        { kind: 'weekly', startDay: 6, start: '10:00', minutes: 240 },
        { kind: 'weekly', startDay: 7, start: '10:00', minutes: 240 },
      ],
    });
    expect(once).toEqual({
      kind: 'shifts',
      sourceId: 'OONCE04',
      name: 'Release day',
      timeZone: 'Europe/Berlin',
      shifts: [{ start: '2026-10-20T08:00:00.000Z', end: '2026-10-20T10:00:00.000Z', userSourceIds: ['UERIN05'] }],
    });
    expect(sre.overrides).toEqual([
      {
        sourceId: 'OOVER05',
        start: '2026-10-24T18:00:00.000Z',
        end: '2026-10-25T08:00:00.000Z',
        userSourceIds: ['UDAN004'],
        replaces: 'schedule',
      },
    ]);
    const data = snapshot.schedules.find((s) => s.sourceId === 'SDATA02')!;
    expect(data.layers).toMatchObject([
      {
        sourceId: 'OHALF07',
        length: { unit: 'hours', count: 12 },
        participants: [
          { kind: 'users', userSourceIds: ['UERIN05', 'UCAROL3'] },
          { kind: 'users', userSourceIds: ['UDAN004'] },
        ],
      },
      {
        sourceId: 'ODAYS08',
        timeZone: 'America/New_York',
        activeFrom: '2026-10-20T13:00:00.000Z',
        restrictions: [{ kind: 'daily', start: '09:00', minutes: 480 }],
      },
    ]);
  });

  it('lists the recurrences it cannot carry instead of approximating them', () => {
    const unsupported: UnsupportedItem[] = [];
    const schedule = translateSchedule(
      { id: 'SMONTH1', name: 'Monthly review', type: 'calendar', time_zone: 'UTC', shifts: ['OMONTH1', 'OBYDAY2'] },
      [
        {
          id: 'OMONTH1',
          name: 'Review',
          type: 'recurrent_event',
          start: '2026-10-01T09:00:00',
          duration: 3600,
          frequency: 'monthly',
          users: ['UALICE1'],
        },
        {
          id: 'OBYDAY2',
          name: 'Alternate weekdays',
          type: 'rolling_users',
          level: 1,
          start: '2026-10-05T09:00:00',
          duration: 3600,
          frequency: 'weekly',
          interval: 2,
          by_day: ['MO', 'WE'],
          rolling_users: [['UALICE1'], ['UBOB002']],
        },
      ],
      unsupported,
    );
    expect(schedule!.layers).toEqual([]);
    expect(unsupported.map((u) => [u.sourceId, u.kind])).toEqual([
      ['OMONTH1', 'layer'],
      ['OBYDAY2', 'layer'],
    ]);
    expect(unsupported[0].reason).toContain('monthly');
  });

  it('reads escalation chains as steps between waits, the repeat, and lists the steps it cannot carry', () => {
    expect(snapshot.escalationPolicies).toEqual([
      {
        sourceId: 'FSRE001',
        name: 'SRE',
        teamSourceId: 'TSRE001',
        steps: [
          { atMinute: 0, condition: 'if-not-acknowledged', targets: [{ kind: 'schedule', scheduleSourceId: 'SSRE001', who: 'on-call' }] },
          {
            atMinute: 5,
            condition: 'if-not-acknowledged',
            targets: [
              { kind: 'user', userSourceId: 'UALICE1' },
              { kind: 'team', teamSourceId: 'TDATA02', who: 'members' },
            ],
          },
        ],
        repeat: { times: 5, afterMinutes: 15 },
      },
      {
        sourceId: 'FDATA02',
        name: 'Data',
        teamSourceId: 'TDATA02',
        steps: [
          { atMinute: 0, condition: 'if-not-acknowledged', targets: [{ kind: 'schedule', scheduleSourceId: 'SDATA02', who: 'on-call' }] },
          { atMinute: 31, condition: 'if-not-acknowledged', targets: [{ kind: 'user', userSourceId: 'UDAN004' }] },
        ],
        repeat: { times: 0 },
      },
    ]);
    expect(snapshot.unsupported.filter((u) => u.kind === 'escalation-step').map((u) => u.sourceId)).toEqual(['ED3', 'ED4']);
  });

  it('reads integrations with their chain and old URL, and lists the e-mail one', () => {
    expect(snapshot.integrations.map((i) => [i.sourceId, i.type, i.escalationPolicySourceId, i.teamSourceId, i.enabled])).toEqual([
      ['CALERT1', 'alertmanager', 'FSRE001', 'TSRE001', true],
      ['CGRAFA2', 'grafana_alerting', 'FDATA02', 'TDATA02', true],
    ]);
    expect(snapshot.integrations[0].oldAddress).toBe(
      'https://oncall-prod-eu-west-0.grafana.net/oncall/integrations/v1/alertmanager/aBcDeF123/',
    );
    expect(snapshot.unsupported).toContainEqual(expect.objectContaining({ kind: 'integration', sourceId: 'CMAIL03' }));
    // A route other than the default has no equivalent on an integration here: listed with what it matched.
    expect(snapshot.unsupported.filter((u) => u.kind === 'integration' && u.sourceId.startsWith('R'))).toEqual([
      expect.objectContaining({
        sourceId: 'RDBSEV1',
        name: 'Alertmanager prod: route',
        reason: expect.stringContaining('"team=data" went to escalation chain FDATA02'),
      }),
    ]);
  });
});

describe("Grafana OnCall's final shifts", () => {
  const from = '2026-10-15T00:00:00.000Z';
  const to = '2026-11-12T00:00:00.000Z';

  it('cover the window without gaps: levels, user groups, the override and hand-offs across the change of clocks', async () => {
    const source = grafanaOnCallSource({ allowPrivateAddresses: true, apiKey: standIn.token, apiUrl: standIn.apiUrl });
    const spans = await source.renderedOnCall('SSRE001', from, to);
    expect(spans[0].start).toBe(from);
    expect(spans.at(-1)!.end).toBe(to);
    for (let i = 1; i < spans.length; i += 1) expect(spans[i].start).toBe(spans[i - 1].end);
    expect(onCallAt(spans, '2026-10-16T10:00:00+02:00')).toEqual(['UCAROL3']);
    expect(onCallAt(spans, '2026-10-15T19:00:00+02:00')).toEqual(['UBOB002']);
    expect(onCallAt(spans, '2026-10-16T19:00:00+02:00')).toEqual(['UCAROL3']);
    expect(onCallAt(spans, '2026-10-20T10:30:00+02:00')).toEqual(['UERIN05']);
    // 20:00 CEST for 13 hours on the wall clock: to 09:00 CET.
    expect(onCallAt(spans, '2026-10-25T07:30:00Z')).toEqual(['UDAN004']);
    expect(onCallAt(spans, '2026-10-25T11:00:00+01:00')).toEqual(['UDAN004', 'UERIN05']);
    expect(onCallAt(spans, '2026-10-26T07:59:00Z')).toEqual(['UALICE1']);
    expect(onCallAt(spans, '2026-10-26T08:00:00Z')).toEqual(['UBOB002']);
    const asked = standIn.requests.filter((r) => r.path.endsWith('/final_shifts'))[0].query;
    expect([asked.get('start_date'), asked.get('end_date')]).toEqual(['2026-10-15', '2026-11-11']);
  });

  it('keep 12-hour turns in elapsed hours and office hours on the wall clock', async () => {
    const source = grafanaOnCallSource({ allowPrivateAddresses: true, apiKey: standIn.token, apiUrl: `${standIn.apiUrl}/api/v1/` });
    const spans = await source.renderedOnCall('SDATA02', from, to);
    expect(onCallAt(spans, '2026-10-15T00:30:00Z')).toEqual(['UDAN004']);
    expect(onCallAt(spans, '2026-10-15T12:30:00Z')).toEqual(['UCAROL3', 'UERIN05']);
    expect(onCallAt(spans, '2026-10-20T14:00:00Z')).toEqual(['UBOB002']);
    expect(onCallAt(spans, '2026-11-02T13:30:00Z')).toEqual(['UCAROL3', 'UERIN05']);
    expect(onCallAt(spans, '2026-11-02T14:30:00Z')).toEqual(['UALICE1']);
  });
});

describe('a refused token', () => {
  it("fails the read with Grafana OnCall's status and detail, never the token", async () => {
    const source = grafanaOnCallSource({ allowPrivateAddresses: true, apiKey: 'glsa_wrong_987', apiUrl: standIn.apiUrl });
    const failure = await source.read().then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/Grafana OnCall: GET .*\/users\/ answered 401: Invalid token\./);
    expect(failure?.message).not.toContain('glsa_wrong_987');
  });
});
