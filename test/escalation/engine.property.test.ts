import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, initialState, openWorkflows, pendingTimers } from '../../lib/escalation/engine';
import type { AdvanceResult, EscalationEvent, EscalationState } from '../../lib/escalation/engine';
import { allEffects, last, MINUTE, nextTimer, of, run, runTimers, T0, world } from './engine-support';
import type { TeamSpec } from './engine-support';

const USERS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const TEAMS = ['t0', 't1', 't2'];

const layerArb = fc.record({
  timeout: fc.integer({ min: 1, max: 120 }),
  timeout_unit: fc.constantFrom('minutes' as const, 'minutes' as const, 'hours' as const),
  oncall: fc.subarray(USERS),
});

const teamArb = (teamId: string) =>
  fc
    .record({
      layers: fc.array(layerArb, { maxLength: 4 }),
      repeat: fc.integer({ min: 0, max: 3 }),
      reassignTeams: fc.subarray(
        TEAMS.filter((t) => t !== teamId),
        { maxLength: 2 },
      ),
      reassignUsers: fc.subarray(USERS, { maxLength: 2 }),
      drop: fc.constantFrom(
        'none' as const,
        'team_all' as const,
        'team_admins' as const,
        'oncall_rotation' as const,
        'specific_users' as const,
      ),
      admins: fc.subarray(USERS, { maxLength: 2 }),
      members: fc.subarray(USERS, { maxLength: 3 }),
      dropUsers: fc.subarray(USERS, { minLength: 1, maxLength: 2 }),
    })
    .map((t): TeamSpec => ({
      // Layer numbers with gaps, listed shuffled-ish: the engine orders them.
      layers: t.layers.map((l, i) => ({ layer: 1 + 2 * i, timeout: l.timeout, timeout_unit: l.timeout_unit })).reverse(),
      oncall: Object.fromEntries(t.layers.map((l, i) => [1 + 2 * i, l.oncall])),
      repeat: t.repeat,
      reassignTeams: t.reassignTeams,
      reassignUsers: t.reassignUsers,
      drop: t.drop,
      admins: t.admins,
      members: t.members,
      dropUsers: t.dropUsers,
    }));

const teamsArb = fc.record({ t0: teamArb('t0'), t1: teamArb('t1'), t2: teamArb('t2') });
const timeScaleArb = fc.constantFrom(1, 60, 7);
/** A person's notification plan (rule delays), or none: the default single immediate delivery. */
const planArb = fc.option(
  fc.array(
    fc.record({
      at_offset_ms: fc.integer({ min: 0, max: 40 }).map((minutes) => minutes * MINUTE),
      channels: fc.constantFrom(['push'], ['sms'], ['voice', 'email'], null),
    }),
    { maxLength: 3 },
  ),
);

describe('escalation engine properties', () => {
  it('without acknowledgement the pages are the sum over rounds of the non-empty layers’ on-call sets, then dropped', () => {
    fc.assert(
      fc.property(teamArb('t0'), timeScaleArb, (spec, timeScale) => {
        const team = { ...spec, reassignTeams: [], reassignUsers: [] };
        const w = world({ t0: team }, { timeScale });
        const results = run(w, [{ type: 'start', at: T0, key: 's', targets: [{ type: 'team', teamId: 't0' }] }]);
        results.push(...runTimers(w, last(results)));
        const effects = allEffects(results);
        const perRound = Object.values(team.oncall ?? {}).reduce((sum, people) => sum + (people as string[]).length, 0);
        expect(of(effects, 'open_workflow')).toHaveLength((team.repeat! + 1) * perRound);
        expect(of(effects, 'page')).toHaveLength((team.repeat! + 1) * perRound);
        expect(last(results).outcome).toBe('dropped');
        expect(of(effects, 'set_alert_status').map((e) => e.status)).toEqual(['dropped']);
        // Every workflow opened is closed exactly once, timed_out.
        const closes = of(effects, 'close_workflow');
        expect(closes.map((e) => e.workflowId).sort()).toEqual(
          of(effects, 'open_workflow')
            .map((e) => e.workflowId)
            .sort(),
        );
        expect(closes.every((e) => e.status === 'timed_out')).toBe(true);
        // Timer-driven, each step's timer is due strictly after the previous one.
        const dues = of(effects, 'schedule_timer').map((e) => e.dueAt);
        for (let i = 1; i < dues.length; i++) expect(dues[i]).toBeGreaterThan(dues[i - 1]);
      }),
      { numRuns: 300 },
    );
  });

  it('random lives: replays change nothing, nothing happens after a stop, keys are unique, timers move forward, state is JSON, failover tries each channel once', () => {
    const actionArb = fc.array(
      fc.record({
        kind: fc.constantFrom(
          'timer',
          'timer',
          'timer',
          'timer',
          'ack',
          'resolve',
          'reject',
          'reject',
          'handoff',
          'route',
          'fail',
          'fail',
          'fail',
        ),
        pick: fc.nat(),
        gap: fc.integer({ min: 0, max: 30 * MINUTE }),
      }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(
        teamsArb,
        timeScaleArb,
        fc.subarray(TEAMS, { minLength: 1 }),
        fc.boolean(),
        actionArb,
        planArb,
        fc.subarray(['push', 'email', 'sms', 'voice', 'slack']),
        (teams, timeScale, firstTeams, withUser, actions, plan, receivable) => {
          const options = { timeScale, receivable: () => receivable, ...(plan ? { plan: () => plan } : {}) };
          const w = world(teams, options);
          const first: EscalationEvent = {
            type: 'start',
            at: T0,
            key: 'route-0',
            targets: [
              ...firstTeams.map((teamId) => ({ type: 'team' as const, teamId })),
              ...(withUser ? [{ type: 'account_user' as const, accountUserId: 'u5' }] : []),
            ],
          };
          let state: EscalationState = initialState('alt-9');
          let now = T0;
          const events: EscalationEvent[] = [];
          const results: AdvanceResult[] = [];
          const apply = (event: EscalationEvent) => {
            const before = state;
            const result = advance(state, event, w.inputs);
            events.push(event);
            results.push(result);
            state = result.state;
            expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
            if (!result.changed) expect(result.state).toBe(before);
            // Nothing is sent once the alert is acknowledged or resolved (a hand-off is a new start).
            if (before.outcome === 'acknowledged' || before.outcome === 'resolved') {
              if (!(event.type === 'start' && event.template === 'alert_handoff')) {
                expect(result.effects.filter((e) => e.type !== 'log')).toEqual([]);
              }
            }
            // The same event delivered again changes nothing.
            const replay = advance(state, event, w.inputs);
            expect(replay.changed).toBe(false);
            expect(replay.effects).toEqual([]);
            for (const timer of of(result.effects, 'schedule_timer')) expect(timer.dueAt).toBeGreaterThan(event.at);
          };
          apply(first);
          let serial = 0;
          for (const action of actions) {
            now += action.gap;
            switch (action.kind) {
              case 'timer': {
                const timer = nextTimer(state);
                if (timer) {
                  now = Math.max(now, timer.at);
                  apply({ ...timer, at: now });
                }
                break;
              }
              case 'ack':
                apply({ type: 'acknowledge', at: now });
                break;
              case 'resolve':
                apply({ type: 'resolve', at: now });
                break;
              case 'reject': {
                const open = openWorkflows(state);
                if (open.length) {
                  const chosen = open[action.pick % open.length];
                  apply({ type: 'reject', at: now, accountUserId: chosen.accountUserId, workflowIds: [chosen.workflowId] });
                }
                break;
              }
              case 'handoff':
                apply({
                  type: 'start',
                  at: now,
                  key: `handoff-${++serial}`,
                  template: 'alert_handoff',
                  targets: [
                    action.pick % 2
                      ? { type: 'team', teamId: TEAMS[action.pick % 3] }
                      : { type: 'account_user', accountUserId: USERS[action.pick % 6] },
                  ],
                });
                break;
              case 'route':
                apply({ type: 'start', at: now, key: `route-${++serial}`, targets: [{ type: 'team', teamId: TEAMS[action.pick % 3] }] });
                break;
              case 'fail': {
                // One of a few messages of an open page failed (the same one may fail "again": a redelivery).
                const open = openWorkflows(state);
                if (open.length) {
                  const chosen = open[action.pick % open.length];
                  apply({
                    type: 'delivery_failed',
                    at: now,
                    workflowId: chosen.workflowId,
                    messageId: `m-${action.pick % 5}`,
                    channel: 'sms',
                  });
                }
                break;
              }
            }
          }
          // Let every remaining timer fire: the alert must settle.
          const settled = runTimers(w, state);
          const everything = [...results, ...settled];
          const final = settled.length ? last(settled) : state;
          expect(pendingTimers(final)).toEqual([]);
          expect(['acknowledged', 'resolved', 'dropped']).toContain(final.outcome);

          const effects = allEffects(everything);
          // No page for a workflow that was already closed (acknowledged, rejected, timed out).
          const closed = new Set<string>();
          for (const effect of effects) {
            if (effect.type === 'close_workflow') closed.add(effect.workflowId);
            if (effect.type === 'page') expect(closed.has(effect.workflowId)).toBe(false);
          }
          const keys = effects.map((e) => e.key);
          expect(new Set(keys).size).toBe(keys.length);
          // Failover never tries a channel twice for one page, nor one its plan already used, nor one the person cannot receive.
          const used = new Map<string, string[]>();
          for (const page of of(effects, 'page')) {
            const before = used.get(page.workflowId) ?? [];
            if (page.failover !== undefined) {
              expect(page.channels).toHaveLength(1);
              expect(before).not.toContain(page.channels![0]);
              expect(receivable).toContain(page.channels![0]);
            }
            used.set(page.workflowId, [...before, ...(page.channels ?? [])]);
          }
          // Each workflow opened is closed exactly once.
          const opened = of(effects, 'open_workflow')
            .map((e) => e.workflowId)
            .sort();
          expect(
            of(effects, 'close_workflow')
              .map((e) => e.workflowId)
              .sort(),
          ).toEqual(opened);
          // Each assignment only moves forward: (round, layer index) strictly increases step by step.
          const steps = new Map<string, [number, number][]>();
          for (const opened of of(effects, 'open_workflow')) {
            const [, key] = opened.key.split('/').slice(1);
            const match = /^r(\d+)\.l(\d+)$/.exec(key);
            if (!match) continue;
            const position: [number, number] = [Number(match[1]), Number(match[2])];
            const seen = steps.get(opened.assignmentId) ?? [];
            const previous = seen[seen.length - 1];
            if (!previous || previous[0] !== position[0] || previous[1] !== position[1]) {
              if (previous) expect(position[0] * 100 + position[1]).toBeGreaterThan(previous[0] * 100 + previous[1]);
              steps.set(opened.assignmentId, [...seen, position]);
            }
          }

          // Determinism: the same events in a fresh world give the same effects, keys included.
          const again = run(world(teams, options), events, initialState('alt-9'));
          expect(allEffects(again)).toEqual(allEffects(results));
        },
      ),
      { numRuns: 300 },
    );
  });
});
