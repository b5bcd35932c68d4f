import { describe, expect, it } from 'vitest';
import {
  advance,
  advanceAll,
  advanceWithLoader,
  dueTimeouts,
  initialState,
  InvalidEscalation,
  MissingTeamInputs,
  nextDueAt,
  oncallFromSpans,
  openWorkflowsOf,
  requiredTeamIds,
  workflowOf,
} from '../../lib/escalation/engine';
import type { EscalationState, TeamInput } from '../../lib/escalation/engine';
import { allEffects, last, MINUTE, nextTimer, of, paged, run, runTimers, startTeam, startUser, T0, world } from './engine-support';

const threeLayers = {
  layers: [
    { layer: 1, timeout: 5 },
    { layer: 2, timeout: 10 },
    { layer: 3, timeout: 15 },
  ],
  oncall: { 1: ['ann', 'bob'], 2: ['cat'], 3: ['dan'] },
};

describe('who is paged', () => {
  it('step 1 pages every attendee on call at layer 1, one workflow each, and arms the layer timeout', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    expect(paged(started.effects)).toEqual(['ann', 'bob']);
    const workflows = of(started.effects, 'open_workflow');
    expect(workflows.map((e) => [e.accountUserId, e.teamId, e.round, e.layer, e.template])).toEqual([
      ['ann', 'ops', 0, 1, 'alert_alert'],
      ['bob', 'ops', 0, 1, 'alert_alert'],
    ]);
    expect(new Set(workflows.map((e) => e.workflowId)).size).toBe(2);
    expect(of(started.effects, 'schedule_timer')).toEqual([expect.objectContaining({ dueAt: T0 + 5 * MINUTE, token: 'a0/r0.l0' })]);
    expect(started.state.outcome).toBe('escalating');
    expect(nextDueAt(started.state)).toBe(T0 + 5 * MINUTE);
  });

  it('asks the schedule who is on call at the moment each layer is reached', () => {
    const w = world({
      ops: {
        layers: [
          { layer: 1, timeout: 5 },
          { layer: 2, timeout: 5 },
        ],
        oncall: { 1: ['ann'], 2: (at) => (at < T0 + 5 * MINUTE ? ['early'] : ['late']) },
      },
    });
    const results = [...run(w, [startTeam('ops')])];
    results.push(...runTimers(w, last(results)));
    expect(paged(allEffects(results))).toEqual(['ann', 'late']);
  });

  it('pages a person listed twice on one layer once', () => {
    const w = world({ ops: { oncall: { 1: ['ann', 'ann', 'bob'] } } });
    expect(paged(run(w, [startTeam('ops')])[0].effects)).toEqual(['ann', 'bob']);
  });

  it('moves to the next layer when nobody acknowledges within the layer timeout, closing the old workflows timed_out', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const timedOut = advance(started.state, { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/r0.l0' }, w.inputs);
    expect(of(timedOut.effects, 'close_workflow').map((e) => [e.accountUserId, e.status])).toEqual([
      ['ann', 'timed_out'],
      ['bob', 'timed_out'],
    ]);
    expect(paged(timedOut.effects)).toEqual(['cat']);
    expect(of(timedOut.effects, 'schedule_timer')[0].dueAt).toBe(T0 + 15 * MINUTE);
    const third = advance(timedOut.state, nextTimer(timedOut.state)!, w.inputs);
    expect(paged(third.effects)).toEqual(['dan']);
    expect(of(third.effects, 'schedule_timer')[0].dueAt).toBe(T0 + 30 * MINUTE);
  });

  it('skips a layer with nobody on call at once', () => {
    const w = world({ ops: { ...threeLayers, oncall: { 1: ['ann'], 2: [], 3: ['dan'] } } });
    const [started] = run(w, [startTeam('ops')]);
    const next = advance(started.state, nextTimer(started.state)!, w.inputs);
    expect(paged(next.effects)).toEqual(['dan']);
    expect(of(next.effects, 'log').map((e) => e.kind)).toEqual(['layer_skipped', 'escalated']);
    // Layer 3's own timeout counts from when it was paged, not from layer 2's.
    expect(nextDueAt(next.state)).toBe(T0 + 5 * MINUTE + 15 * MINUTE);
  });

  it('skips an empty first layer at start', () => {
    const w = world({ ops: { ...threeLayers, oncall: { 1: [], 2: [], 3: ['dan'] } } });
    const [started] = run(w, [startTeam('ops')]);
    expect(paged(started.effects)).toEqual(['dan']);
    expect(of(started.effects, 'open_workflow')[0].layer).toBe(3);
  });

  it('follows layer numbers, not the order the policy lists them in', () => {
    const w = world({
      ops: {
        layers: [
          { layer: 2, timeout: 5 },
          { layer: 1, timeout: 5 },
        ],
        oncall: { 1: ['one'], 2: ['two'] },
      },
    });
    const results = run(w, [startTeam('ops')]);
    results.push(...runTimers(w, last(results)));
    expect(paged(allEffects(results))).toEqual(['one', 'two']);
  });
});

describe('repeat, reassign, drop', () => {
  it('runs the whole sequence again `repeat` more times after the last layer', () => {
    const w = world({
      ops: {
        layers: [
          { layer: 1, timeout: 5 },
          { layer: 2, timeout: 5 },
        ],
        repeat: 2,
        oncall: { 1: ['ann'], 2: ['bob'] },
      },
    });
    const results = run(w, [startTeam('ops')]);
    results.push(...runTimers(w, last(results)));
    const effects = allEffects(results);
    expect(paged(effects)).toEqual(['ann', 'bob', 'ann', 'bob', 'ann', 'bob']);
    expect(of(effects, 'open_workflow').map((e) => e.round)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(
      of(effects, 'log')
        .filter((e) => e.kind === 'repeated')
        .map((e) => e.detail.round),
    ).toEqual([1, 2]);
    expect(last(results).outcome).toBe('dropped');
    // The last page is at 25 min; its layer times out at 30 min, and that is when the alert drops.
    expect(of(effects, 'set_alert_status')).toEqual([expect.objectContaining({ status: 'dropped', at: T0 + 30 * MINUTE })]);
  });

  it('reassigns once to the policy’s teams (each its own policy) and users (paged alone)', () => {
    const w = world({
      ops: { oncall: { 1: ['ann'] }, reassignTeams: ['dba'], reassignUsers: ['zoe'] },
      dba: { layers: [{ layer: 1, timeout: 7 }], oncall: { 1: ['dee'] }, reassignTeams: ['ops', 'web'] },
      web: { oncall: { 1: ['wes'] } },
    });
    const [started] = run(w, [startTeam('ops')]);
    const atTimeout = advance(started.state, nextTimer(started.state)!, w.inputs);
    expect(of(atTimeout.effects, 'assignment_started').map((e) => [e.assignmentId, e.target, e.origin, e.parentAssignmentId])).toEqual([
      ['a1', { type: 'team', teamId: 'dba' }, 'reassign', 'a0'],
      ['a2', { type: 'account_user', accountUserId: 'zoe' }, 'reassign', 'a0'],
    ]);
    expect(paged(atTimeout.effects)).toEqual(['dee', 'zoe']);
    const timers = of(atTimeout.effects, 'schedule_timer').map((e) => e.dueAt - (T0 + 5 * MINUTE));
    expect(timers).toEqual([7 * MINUTE, 5 * MINUTE]);
    const rest = runTimers(w, atTimeout.state);
    // dba's own reassign targets are not used: the alert is reassigned once.
    expect(of(allEffects(rest), 'assignment_started')).toEqual([]);
    expect(last(rest).outcome).toBe('dropped');
    expect(of(allEffects(rest), 'set_alert_status')[0].at).toBe(T0 + 12 * MINUTE);
  });

  it('does not reassign to a team that already has an assignment of this alert, so reassignment cannot loop', () => {
    const w = world({ ops: { oncall: { 1: ['ann'] }, reassignTeams: ['ops'] } });
    const results = run(w, [startTeam('ops')]);
    results.push(...runTimers(w, last(results)));
    expect(of(allEffects(results), 'assignment_started')).toHaveLength(1);
    expect(last(results).outcome).toBe('dropped');
  });

  it.each([
    ['none', []],
    ['team_all', ['m1', 'm2', 'adm']],
    ['team_admins', ['adm', 'm1']],
    ['oncall_rotation', ['ann', 'other-layer']],
    ['specific_users', ['s1', 's2']],
  ] as const)('drop_notifications %s tells %j (alert_dropped)', (drop, expected) => {
    const w = world({
      ops: { oncall: { 1: ['ann'], 4: ['other-layer'] }, members: ['m1', 'm2'], admins: ['adm', 'm1'], drop, dropUsers: ['s1', 's2'] },
    });
    const results = run(w, [startTeam('ops')]);
    results.push(...runTimers(w, last(results)));
    const notes = of(allEffects(results), 'notify');
    expect(notes.map((n) => n.accountUserId).sort()).toEqual([...expected].sort());
    expect(notes.every((n) => n.template === 'alert_dropped' && n.teamId === 'ops')).toBe(true);
  });

  it('a team with no policy, a policy without layers, a deleted team, or nobody on call anywhere: dropped at once with drop notifications', () => {
    const w = world({
      bare: { noPolicy: true, admins: ['adm'], drop: 'team_admins' },
      empty: { layers: [], admins: ['adm2'], drop: 'team_admins' },
      nobody: { oncall: {}, admins: ['adm3'], drop: 'team_admins' },
      gone: null,
    });
    for (const [teamId, reason, told] of [
      ['bare', 'no_policy', ['adm']],
      ['empty', 'no_layers', ['adm2']],
      ['nobody', 'layers_exhausted', ['adm3']],
      ['gone', 'no_team', []],
    ] as const) {
      const [started] = run(w, [startTeam(teamId)]);
      expect(started.state.outcome).toBe('dropped');
      expect(of(started.effects, 'log').find((e) => e.kind === 'exhausted')?.detail.reason).toBe(reason);
      expect(of(started.effects, 'set_alert_status')).toEqual([expect.objectContaining({ status: 'dropped', at: T0 })]);
      expect(of(started.effects, 'notify').map((n) => n.accountUserId)).toEqual(told);
      expect(nextDueAt(started.state)).toBeNull();
    }
  });

  it('a policy without layers still reassigns', () => {
    const w = world({ empty: { layers: [], reassignUsers: ['zoe'] } });
    const [started] = run(w, [startTeam('empty')]);
    expect(paged(started.effects)).toEqual(['zoe']);
    expect(started.state.outcome).toBe('escalating');
  });
});

describe('an assignment to an account user', () => {
  it('pages that user alone and drops the alert after 5 minutes without acknowledgement', () => {
    const w = world({});
    const [started] = run(w, [startUser('ann')]);
    expect(paged(started.effects)).toEqual(['ann']);
    expect(of(started.effects, 'open_workflow')[0]).toMatchObject({ teamId: null, layer: null });
    expect(nextDueAt(started.state)).toBe(T0 + 5 * MINUTE);
    const early = advance(started.state, { type: 'timeout', at: T0 + 5 * MINUTE - 1, token: 'a0/user' }, w.inputs);
    expect(early).toMatchObject({ changed: false, ignored: 'not_due', effects: [] });
    const dropped = advance(started.state, { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/user' }, w.inputs);
    expect(dropped.state.outcome).toBe('dropped');
    expect(of(dropped.effects, 'close_workflow')[0].status).toBe('timed_out');
    expect(of(dropped.effects, 'set_alert_status')[0].status).toBe('dropped');
    expect(of(dropped.effects, 'notify')).toEqual([]);
  });

  it('an account user who no longer exists is paged by nobody: dropped at once', () => {
    const w = world({}, { deletedUsers: ['ghost'] });
    const [started] = run(w, [startUser('ghost')]);
    expect(paged(started.effects)).toEqual([]);
    expect(started.state.outcome).toBe('dropped');
  });
});

describe('TIME_SCALE', () => {
  it('divides the layer timeouts, hours included, and the 5-minute user timeout', () => {
    const w = world(
      {
        ops: {
          layers: [
            { layer: 1, timeout: 5 },
            { layer: 2, timeout: 2, timeout_unit: 'hours' },
          ],
          oncall: { 1: ['ann'], 2: ['bob'] },
        },
      },
      { timeScale: 60 },
    );
    const [started] = run(w, [startTeam('ops'), startUser('zoe', T0, 'u')]);
    expect(nextDueAt(started.state)).toBe(T0 + 5_000);
    const second = advance(started.state, nextTimer(started.state)!, w.inputs);
    expect(of(second.effects, 'schedule_timer')[0].dueAt).toBe(T0 + 5_000 + 120_000);
    const [, user] = run(w, [startTeam('ops'), startUser('zoe', T0, 'u')]);
    expect(of(user.effects, 'schedule_timer')[0].dueAt).toBe(T0 + 5_000);
  });
});

describe('reject', () => {
  it('closes the rejecter’s workflow and moves to the next layer at once when nobody else of the step is open', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const annRejects = advance(started.state, { type: 'reject', at: T0 + MINUTE, accountUserId: 'ann' }, w.inputs);
    expect(of(annRejects.effects, 'close_workflow').map((e) => [e.accountUserId, e.status])).toEqual([['ann', 'rejected']]);
    expect(of(annRejects.effects, 'notify').map((e) => [e.accountUserId, e.template, e.actorAccountUserId])).toEqual([
      ['bob', 'alert_rejected', 'ann'],
    ]);
    expect(paged(annRejects.effects)).toEqual([]);
    expect(openWorkflowsOf(annRejects.state, 'ann')).toEqual([]);
    const bobRejects = advance(annRejects.state, { type: 'reject', at: T0 + 2 * MINUTE, accountUserId: 'bob' }, w.inputs);
    expect(of(bobRejects.effects, 'notify')).toEqual([]);
    expect(paged(bobRejects.effects)).toEqual(['cat']);
    expect(nextDueAt(bobRejects.state)).toBe(T0 + 2 * MINUTE + 10 * MINUTE);
    // The old step's timer is now stale.
    const stale = advance(bobRejects.state, { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/r0.l0' }, w.inputs);
    expect(stale).toMatchObject({ changed: false, ignored: 'stale_timer' });
  });

  it('a page’s workflow as the state holds it: open, closed in its step, then gone with the step (workflowOf)', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const [ann, bob] = ['ann', 'bob'].map((who) => openWorkflowsOf(started.state, who)[0].workflowId);
    expect(workflowOf(started.state, ann)).toEqual({ accountUserId: 'ann', status: 'open' });
    expect(workflowOf(started.state, 'nope')).toBeNull();
    const annRejects = advance(started.state, { type: 'reject', at: T0 + MINUTE, accountUserId: 'ann' }, w.inputs);
    expect(workflowOf(annRejects.state, ann)).toEqual({ accountUserId: 'ann', status: 'rejected' });
    expect(workflowOf(annRejects.state, bob)).toEqual({ accountUserId: 'bob', status: 'open' });
    // Layer 1 timed out: its step gave way to layer 2's, and its workflows with it.
    const timedOut = advance(annRejects.state, { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/r0.l0' }, w.inputs);
    expect(workflowOf(timedOut.state, bob)).toBeNull();
    const cat = openWorkflowsOf(timedOut.state, 'cat')[0].workflowId;
    expect(workflowOf(timedOut.state, cat)?.status).toBe('open');
    // An acknowledgement ends every step.
    const acknowledged = advance(timedOut.state, { type: 'acknowledge', at: T0 + 6 * MINUTE }, w.inputs);
    expect(workflowOf(acknowledged.state, cat)).toBeNull();
  });

  it('on the last layer with nothing left, the alert stays open until it is dropped at once', () => {
    const w = world({ ops: { oncall: { 1: ['ann'] } } });
    const [started] = run(w, [startTeam('ops')]);
    const rejected = advance(started.state, { type: 'reject', at: T0 + MINUTE, accountUserId: 'ann' }, w.inputs);
    expect(rejected.state.outcome).toBe('dropped');
    expect(of(rejected.effects, 'set_alert_status')[0].at).toBe(T0 + MINUTE);
  });

  it('a person without an open workflow changes nothing (the API answers 409)', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    expect(advance(started.state, { type: 'reject', at: T0, accountUserId: 'cat' }, w.inputs)).toMatchObject({
      changed: false,
      ignored: 'no_open_workflow',
    });
    expect(advance(started.state, { type: 'reject', at: T0, accountUserId: 'ann', workflowIds: ['nope'] }, w.inputs).changed).toBe(false);
  });

  it('a retried reject naming its workflows does not reject the person’s next workflow', () => {
    const w = world({
      ops: {
        layers: [
          { layer: 1, timeout: 5 },
          { layer: 2, timeout: 5 },
        ],
        oncall: { 1: ['ann'], 2: ['ann'] },
      },
    });
    const [started] = run(w, [startTeam('ops')]);
    const ids = openWorkflowsOf(started.state, 'ann').map((open) => open.workflowId);
    const event = { type: 'reject', at: T0 + MINUTE, accountUserId: 'ann', workflowIds: ids } as const;
    const rejected = advance(started.state, event, w.inputs);
    expect(paged(rejected.effects)).toEqual(['ann']); // layer 2 is Ann again
    expect(advance(rejected.state, event, w.inputs)).toMatchObject({ changed: false, ignored: 'no_open_workflow' });
    expect(advance(rejected.state, { ...event, workflowIds: undefined }, w.inputs).changed).toBe(true);
  });

  it('with several teams, moves on only the assignments whose step the rejecter was in', () => {
    const w = world({
      ops: {
        layers: [
          { layer: 1, timeout: 5 },
          { layer: 2, timeout: 5 },
        ],
        oncall: { 1: ['ann'], 2: ['bob'] },
      },
      web: {
        layers: [
          { layer: 1, timeout: 5 },
          { layer: 2, timeout: 5 },
        ],
        oncall: { 1: ['ann', 'wes'], 2: ['wil'] },
      },
    });
    const [started] = run(w, [
      {
        type: 'start',
        at: T0,
        key: 'r',
        targets: [
          { type: 'team', teamId: 'ops' },
          { type: 'team', teamId: 'web' },
        ],
      },
    ]);
    expect(paged(started.effects)).toEqual(['ann', 'ann', 'wes']);
    const rejected = advance(started.state, { type: 'reject', at: T0 + MINUTE, accountUserId: 'ann' }, w.inputs);
    expect(of(rejected.effects, 'close_workflow').map((e) => [e.assignmentId, e.status])).toEqual([
      ['a0', 'rejected'],
      ['a1', 'rejected'],
    ]);
    expect(paged(rejected.effects)).toEqual(['bob']);
    expect(of(rejected.effects, 'notify').map((e) => e.accountUserId)).toEqual(['wes']);
    expect(rejected.state.assignments.map((a) => a.step?.key)).toEqual(['r0.l1', 'r0.l0']);
  });
});

describe('acknowledge and resolve', () => {
  it('acknowledge stops every assignment: open workflows close acknowledged, timers and later events do nothing', () => {
    const w = world({ ops: threeLayers, web: { oncall: { 1: ['wes'] } } });
    const [started] = run(w, [
      {
        type: 'start',
        at: T0,
        key: 'r',
        targets: [
          { type: 'team', teamId: 'ops' },
          { type: 'team', teamId: 'web' },
        ],
      },
    ]);
    const acked = advance(started.state, { type: 'acknowledge', at: T0 + MINUTE }, w.inputs);
    expect(of(acked.effects, 'close_workflow').map((e) => [e.accountUserId, e.status])).toEqual([
      ['ann', 'acknowledged'],
      ['bob', 'acknowledged'],
      ['wes', 'acknowledged'],
    ]);
    expect(acked.state.outcome).toBe('acknowledged');
    expect(nextDueAt(acked.state)).toBeNull();
    expect(dueTimeouts(acked.state, T0 + 60 * MINUTE)).toEqual([]);
    for (const event of [
      { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/r0.l0' },
      { type: 'reject', at: T0 + 2 * MINUTE, accountUserId: 'ann' },
      { type: 'acknowledge', at: T0 + 2 * MINUTE },
      startTeam('web', T0 + 3 * MINUTE, 'late-route'),
    ] as const) {
      expect(advance(acked.state, event, w.inputs)).toMatchObject({ changed: false, effects: [] });
    }
    const resolved = advance(acked.state, { type: 'resolve', at: T0 + 9 * MINUTE }, w.inputs);
    expect(resolved).toMatchObject({ changed: true, effects: [] });
    expect(resolved.state.outcome).toBe('resolved');
  });

  it('resolve stops an escalating alert the same way and closes workflows acknowledged', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const resolved = advance(started.state, { type: 'resolve', at: T0 + MINUTE }, w.inputs);
    expect(of(resolved.effects, 'close_workflow').map((e) => e.status)).toEqual(['acknowledged', 'acknowledged']);
    expect(advance(resolved.state, { type: 'acknowledge', at: T0 + 2 * MINUTE }, w.inputs).changed).toBe(false);
    expect(advance(resolved.state, { ...startTeam('ops', T0 + 3 * MINUTE, 'h'), template: 'alert_handoff' }, w.inputs).changed).toBe(false);
  });

  it('consult no team: they apply with nothing loaded, and name no team to load', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const nothingLoaded = { ...w.inputs, team: () => undefined };
    for (const type of ['acknowledge', 'resolve'] as const) {
      const event = { type, at: T0 + MINUTE };
      expect(requiredTeamIds(started.state, event, nothingLoaded)).toEqual([]);
      const stopped = advance(started.state, event, nothingLoaded);
      expect(stopped).toEqual(advance(started.state, event, w.inputs));
      expect(of(stopped.effects, 'close_workflow')).toHaveLength(2);
    }
    // Anything else still names the teams it consults (here the timeout of layer 1).
    expect(() => advance(started.state, { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/r0.l0' }, nothingLoaded)).toThrow(
      MissingTeamInputs,
    );
  });

  it('acknowledging a dropped alert ends it without effects', () => {
    const w = world({ ops: { oncall: {} } });
    const [started] = run(w, [startTeam('ops')]);
    const acked = advance(started.state, { type: 'acknowledge', at: T0 + MINUTE }, w.inputs);
    expect(acked).toMatchObject({ changed: true, effects: [] });
    expect(acked.state.outcome).toBe('acknowledged');
  });
});

describe('several assignments', () => {
  it('escalate side by side; the alert is dropped only when every one is exhausted, with every team’s drop notifications once', () => {
    const w = world({
      ops: { layers: [{ layer: 1, timeout: 5 }], oncall: { 1: ['ann'] }, admins: ['adm', 'both'], drop: 'team_admins' },
      web: { layers: [{ layer: 1, timeout: 20 }], oncall: { 1: ['wes'] }, dropUsers: ['both', 'sue'], drop: 'specific_users' },
    });
    const [started] = run(w, [
      {
        type: 'start',
        at: T0,
        key: 'r',
        targets: [
          { type: 'team', teamId: 'ops' },
          { type: 'team', teamId: 'web' },
        ],
      },
    ]);
    const first = advance(started.state, nextTimer(started.state)!, w.inputs);
    expect(first.state.outcome).toBe('escalating');
    expect(first.state.assignments.map((a) => a.status)).toEqual(['exhausted', 'escalating']);
    const second = advance(first.state, nextTimer(first.state)!, w.inputs);
    expect(second.state.outcome).toBe('dropped');
    expect(of(second.effects, 'notify').map((n) => [n.accountUserId, n.teamId])).toEqual([
      ['adm', 'ops'],
      ['both', 'ops'],
      ['sue', 'web'],
    ]);
  });

  it('a target named twice, or already escalating, is not started twice', () => {
    const w = world({ ops: { oncall: { 1: ['ann'] } } });
    const [started, again] = run(w, [
      {
        type: 'start',
        at: T0,
        key: 'r1',
        targets: [
          { type: 'team', teamId: 'ops' },
          { type: 'team', teamId: 'ops' },
        ],
      },
      startTeam('ops', T0 + MINUTE, 'r2'),
    ]);
    expect(paged(started.effects)).toEqual(['ann']);
    expect(again.effects).toEqual([]);
  });

  it('a later assignment revives a dropped alert (status back to open)', () => {
    const w = world({ ops: { oncall: {} }, web: { oncall: { 1: ['wes'] } } });
    const [dropped, revived] = run(w, [startTeam('ops'), startTeam('web', T0 + MINUTE)]);
    expect(dropped.state.outcome).toBe('dropped');
    expect(of(revived.effects, 'set_alert_status')).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(paged(revived.effects)).toEqual(['wes']);
    expect(revived.state.outcome).toBe('escalating');
  });
});

describe('hand-off', () => {
  it('replaces every assignment, pages the new team with alert_handoff and later layers with alert_alert', () => {
    const w = world({
      ops: threeLayers,
      dba: {
        layers: [
          { layer: 1, timeout: 5 },
          { layer: 2, timeout: 5 },
        ],
        oncall: { 1: ['dee'], 2: ['dot'] },
      },
    });
    const [started, handedOff] = run(w, [startTeam('ops'), { ...startTeam('dba', T0 + MINUTE, 'handoff-1'), template: 'alert_handoff' }]);
    expect(of(handedOff.effects, 'close_workflow').map((e) => [e.accountUserId, e.status])).toEqual([
      ['ann', 'timed_out'],
      ['bob', 'timed_out'],
    ]);
    expect(of(handedOff.effects, 'page').map((e) => [e.accountUserId, e.template])).toEqual([['dee', 'alert_handoff']]);
    expect(advance(handedOff.state, nextTimer(started.state)!, w.inputs).ignored).toBe('stale_timer');
    const later = advance(handedOff.state, nextTimer(handedOff.state)!, w.inputs);
    expect(of(later.effects, 'page').map((e) => [e.accountUserId, e.template])).toEqual([['dot', 'alert_alert']]);
  });

  it('to an account user pages that user with alert_handoff, and re-opens an acknowledged alert', () => {
    const w = world({ ops: threeLayers });
    const results = run(w, [
      startTeam('ops'),
      { type: 'acknowledge', at: T0 + MINUTE },
      {
        type: 'start',
        at: T0 + 2 * MINUTE,
        key: 'handoff-1',
        template: 'alert_handoff',
        targets: [{ type: 'account_user', accountUserId: 'zed' }],
      },
    ]);
    const handedOff = results[2];
    expect(handedOff.state.outcome).toBe('escalating');
    expect(of(handedOff.effects, 'page').map((e) => [e.accountUserId, e.template])).toEqual([['zed', 'alert_handoff']]);
    const dropped = advance(handedOff.state, nextTimer(handedOff.state)!, w.inputs);
    expect(dropped.state.outcome).toBe('dropped');
  });
});

describe('timers', () => {
  it('a duplicate or stale timer, or one that arrives early, changes nothing', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const timer = nextTimer(started.state)!;
    const fired = advance(started.state, timer, w.inputs);
    expect(fired.changed).toBe(true);
    expect(advance(fired.state, timer, w.inputs)).toMatchObject({ changed: false, ignored: 'stale_timer', effects: [] });
    expect(advance(fired.state, { type: 'timeout', at: T0 + 99 * MINUTE, token: 'bogus' }, w.inputs).ignored).toBe('stale_timer');
    expect(advance(started.state, { ...timer, at: timer.at - 1 }, w.inputs).ignored).toBe('not_due');
  });

  it('dueTimeouts gives the sweeper what is due; applying them twice is one step', () => {
    const w = world({ ops: threeLayers, web: { layers: [{ layer: 1, timeout: 3 }], oncall: { 1: ['wes'] } } });
    const [started] = run(w, [
      {
        type: 'start',
        at: T0,
        key: 'r',
        targets: [
          { type: 'team', teamId: 'ops' },
          { type: 'team', teamId: 'web' },
        ],
      },
    ]);
    const sweepAt = T0 + 6 * MINUTE;
    const due = dueTimeouts(started.state, sweepAt);
    expect(due.map((e) => e.token)).toEqual(['a1/r0.l0', 'a0/r0.l0']);
    const swept = advanceAll(started.state, [...due, ...due], w.inputs);
    expect(paged(swept.effects)).toEqual(['cat']);
    expect(swept.state.version).toBe(started.state.version + 2);
    expect(dueTimeouts(swept.state, sweepAt)).toEqual([]);
  });

  it('a notification plan sends each delivery when due, cuts those past the layer timeout, and stops at acknowledge', () => {
    const w = world(
      { ops: { layers: [{ layer: 1, timeout: 10 }], oncall: { 1: ['ann'] } } },
      {
        plan: () => [
          { at_offset_ms: 0, channels: ['push'] },
          { at_offset_ms: 2 * MINUTE, channels: ['sms'] },
          { at_offset_ms: 4 * MINUTE, channels: ['voice'] },
          { at_offset_ms: 12 * MINUTE, channels: ['email'] },
        ],
      },
    );
    const [started] = run(w, [startTeam('ops')]);
    expect(of(started.effects, 'page').map((e) => [e.delivery, e.channels])).toEqual([[0, ['push']]]);
    expect(of(started.effects, 'schedule_timer').map((e) => e.dueAt - T0)).toEqual([2 * MINUTE, 10 * MINUTE]);
    const sms = advance(started.state, nextTimer(started.state)!, w.inputs);
    expect(of(sms.effects, 'page').map((e) => [e.delivery, e.channels])).toEqual([[1, ['sms']]]);
    const acked = advance(sms.state, { type: 'acknowledge', at: T0 + 3 * MINUTE }, w.inputs);
    expect(advance(acked.state, { type: 'timeout', at: T0 + 4 * MINUTE, token: 'a0/r0.l0/ann/d2' }, w.inputs).changed).toBe(false);
    const unacked = runTimers(w, sms.state);
    expect(paged(allEffects(unacked))).toEqual(['ann']); // the voice call; the e-mail at 12 min is past the 10-min layer
  });
});

describe('exactly-once and determinism', () => {
  it('a redelivered start is a no-op; every effect key is unique and stable across a retry', () => {
    const w1 = world({ ops: { ...threeLayers, reassignUsers: ['zoe'] } });
    const w2 = world({ ops: { ...threeLayers, reassignUsers: ['zoe'] } });
    const first = run(w1, [startTeam('ops'), startTeam('ops')]);
    expect(first[1]).toMatchObject({ changed: false, ignored: 'duplicate_start' });
    const a = [...first, ...runTimers(w1, last(first))];
    const b = [...run(w2, [startTeam('ops')]), ...runTimers(w2, run(w2, [startTeam('ops')])[0].state)];
    const keysA = allEffects(a).map((e) => e.key);
    expect(new Set(keysA).size).toBe(keysA.length);
    expect(keysA).toEqual(allEffects(b).map((e) => e.key));
    expect(keysA.slice(0, 3)).toEqual(['alt-1/a0/start', 'alt-1/a0/r0.l0/escalated', 'alt-1/a0/r0.l0/ann/workflow']);
  });

  it('works the same from a JSON round trip of the state (what the store keeps)', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const stored: EscalationState = JSON.parse(JSON.stringify(started.state));
    const timer = nextTimer(started.state)!;
    const direct = advance(started.state, timer, world({ ops: threeLayers }).inputs);
    const fromStore = advance(stored, timer, world({ ops: threeLayers }).inputs);
    expect(fromStore).toEqual(direct);
  });

  it('never mutates the state it is given', () => {
    const w = world({ ops: threeLayers });
    const [started] = run(w, [startTeam('ops')]);
    const snapshot = structuredClone(started.state);
    advance(started.state, nextTimer(started.state)!, w.inputs);
    advance(started.state, { type: 'acknowledge', at: T0 }, w.inputs);
    expect(started.state).toEqual(snapshot);
  });
});

describe('inputs', () => {
  it('names every team it needs at once, then reassign targets; advanceWithLoader loads them and retries', async () => {
    const full = world({ ops: { oncall: { 1: ['ann'] }, reassignTeams: ['dba'] }, dba: { oncall: { 1: ['dee'] } } });
    const loaded = new Map<string, TeamInput | null>();
    const inputs = { ...full.inputs, team: (id: string) => (loaded.has(id) ? loaded.get(id)! : undefined) };
    expect(() => advance(initialState('alt-1'), startTeam('ops'), inputs)).toThrow(MissingTeamInputs);
    const asked: string[][] = [];
    const result = await advanceWithLoader(initialState('alt-1'), startTeam('ops'), inputs, async (ids) => {
      asked.push([...ids]);
      for (const id of ids) loaded.set(id, full.teams.get(id) ?? null);
    });
    expect(asked).toEqual([['ops'], ['dba']]);
    expect(paged(result.effects)).toEqual(['ann']);
  });

  it('refuses malformed events and a bad TIME_SCALE', () => {
    const w = world({});
    const state = initialState('alt-1');
    expect(() => advance(state, { type: 'start', at: T0, key: 'k', targets: [] }, w.inputs)).toThrow(InvalidEscalation);
    expect(() => advance(state, { type: 'acknowledge', at: Number.NaN }, w.inputs)).toThrow(InvalidEscalation);
    expect(() => advance(state, { type: 'bogus', at: T0 } as never, w.inputs)).toThrow(InvalidEscalation);
    expect(() => advance(state, { type: 'acknowledge', at: T0 }, { ...w.inputs, timeScale: 0 })).toThrow(InvalidEscalation);
  });

  it('oncallFromSpans answers per layer and for any layer from on-call spans', () => {
    const span = (eventId: string, layer: number, start: number, end: number, ids: string[]) => ({
      eventId,
      layer,
      start,
      end,
      attendees: ids.map((attendeeId, position) => ({ attendeeId, attendeeType: 'AccountUser' as const, position })),
    });
    const oncall = oncallFromSpans(
      new Map([
        [
          'ops',
          [
            span('e1', 1, T0, T0 + 60 * MINUTE, ['ann']),
            span('e2', 2, T0, T0 + 30 * MINUTE, ['bob', 'ann']),
            span('e3', 1, T0 + 60 * MINUTE, T0 + 120 * MINUTE, ['cat']),
          ],
        ],
      ]),
    );
    expect(oncall.oncallAt('ops', 1, T0)).toEqual(['ann']);
    expect(oncall.oncallAt('ops', 1, T0 + 60 * MINUTE)).toEqual(['cat']);
    expect(oncall.oncallAnyLayerAt('ops', T0 + MINUTE)).toEqual(['ann', 'bob']);
    expect(oncall.oncallAt('web', 1, T0)).toEqual([]);
  });
});
