// Failover in the escalation engine (docs/api.md#failover): a failed message of a page sends the same
// page on the person's next channel not yet tried (the rule's channels in order, then sms, voice,
// push, slack, email, among those they can receive); a step whose open people have all failed on
// every channel moves on at once (unreachable) instead of waiting out its timeout.
import { describe, expect, it } from 'vitest';
import { advance, type DeliveryFailedEvent, type EscalationState, type PageEffect } from '../../lib/escalation/engine';
import { MINUTE, of, run, startTeam, startUser, T0, world } from './engine-support';

const everything = () => ['push', 'email', 'sms', 'voice', 'slack'];

/** The page effects' channels, in order. */
const channelsOf = (pages: PageEffect[]) => pages.map((p) => p.channels);

function workflowOf(state: EscalationState, person: string) {
  const workflow = state.assignments.flatMap((a) => a.step?.workflows ?? []).find((w) => w.accountUserId === person);
  if (!workflow) throw new Error(`no open step pages ${person}`);
  return workflow;
}

function failed(state: EscalationState, person: string, messageId: string, channel: string, at = T0 + 1_000): DeliveryFailedEvent {
  return { type: 'delivery_failed', at, workflowId: workflowOf(state, person).id, messageId, channel };
}

const twoLayers = {
  layers: [
    { layer: 1, timeout: 30 },
    { layer: 2, timeout: 30 },
  ],
  oncall: { 1: ['ann'], 2: ['bob'] },
};

describe('failover to the next channel', () => {
  it('after the default channels, tries sms, voice, push, slack, email among those the person can receive', () => {
    const w = world(
      { ops: twoLayers },
      { plan: () => [{ at_offset_ms: 0, channels: ['push', 'email'] }], receivable: () => ['push', 'email', 'sms', 'voice'] },
    );
    const [started] = run(w, [startTeam('ops')]);
    expect(channelsOf(of(started.effects, 'page'))).toEqual([['push', 'email']]);

    const afterPush = advance(started.state, failed(started.state, 'ann', 'n-push', 'push'), w.inputs);
    const first = of(afterPush.effects, 'page');
    expect(channelsOf(first)).toEqual([['sms']]);
    expect(first[0]).toMatchObject({ accountUserId: 'ann', workflowId: workflowOf(started.state, 'ann').id, failover: 1 });
    expect(first[0].key).toBe('alt-1/a0/r0.l0/ann/alert_alert/f1');

    const afterSms = advance(afterPush.state, failed(afterPush.state, 'ann', 'n-sms', 'sms'), w.inputs);
    expect(channelsOf(of(afterSms.effects, 'page'))).toEqual([['voice']]);
    // Slack is no channel this person can receive, and push and e-mail went out already: nothing is left.
    const afterVoice = advance(afterSms.state, failed(afterSms.state, 'ann', 'n-voice', 'voice'), w.inputs);
    expect(afterVoice.changed).toBe(true);
    expect(of(afterVoice.effects, 'page')).toEqual([]);
    // The e-mail has not failed: the person may still read it, so the layer waits.
    expect(of(afterVoice.effects, 'log').map((e) => e.kind)).not.toContain('unreachable');
    expect(afterVoice.state.assignments[0].step?.key).toBe('r0.l0');
  });

  it("follows the rule's channels first, in the rule's order, later steps' channels included", () => {
    const w = world(
      { ops: twoLayers },
      {
        plan: () => [
          { at_offset_ms: 0, channels: ['email'] },
          { at_offset_ms: 10 * MINUTE, channels: ['voice', 'push'] },
        ],
        receivable: everything,
      },
    );
    const [started] = run(w, [startTeam('ops')]);
    let state = started.state;
    const sent: (readonly string[] | null)[] = [];
    for (const [id, channel] of [
      ['n1', 'email'],
      ['n2', 'voice'],
      ['n3', 'push'],
      ['n4', 'sms'],
    ]) {
      const result = advance(state, failed(state, 'ann', id, channel), w.inputs);
      sent.push(...channelsOf(of(result.effects, 'page')));
      state = result.state;
    }
    expect(sent).toEqual([['voice'], ['push'], ['sms'], ['slack']]);
  });

  it('counts a failed message once: the same failure delivered again changes nothing', () => {
    const w = world({ ops: twoLayers }, { receivable: everything, plan: () => [{ at_offset_ms: 0, channels: ['push'] }] });
    const [started] = run(w, [startTeam('ops')]);
    const event = failed(started.state, 'ann', 'n-push', 'push');
    const once = advance(started.state, event, w.inputs);
    expect(of(once.effects, 'page')).toHaveLength(1);
    const twice = advance(once.state, { ...event, at: event.at + 5 }, w.inputs);
    expect(twice).toMatchObject({ changed: false, ignored: 'duplicate_failure', effects: [] });
  });

  it('ignores a failure of a page that is over: acknowledged, or its layer moved on', () => {
    const w = world({ ops: twoLayers }, { receivable: everything, plan: () => [{ at_offset_ms: 0, channels: ['push'] }] });
    const [started] = run(w, [startTeam('ops')]);
    const event = failed(started.state, 'ann', 'n-push', 'push');
    const acknowledged = advance(started.state, { type: 'acknowledge', at: T0 + 500 }, w.inputs);
    expect(advance(acknowledged.state, event, w.inputs)).toMatchObject({ changed: false, ignored: 'alert_stopped' });
    const timedOut = advance(started.state, { type: 'timeout', at: T0 + 30 * MINUTE, token: 'a0/r0.l0' }, w.inputs);
    expect(advance(timedOut.state, { ...event, at: T0 + 31 * MINUTE }, w.inputs)).toMatchObject({
      changed: false,
      ignored: 'page_answered',
    });
  });
});

describe('unreachable', () => {
  it('every message of everyone in the step failed and nothing is left: the next layer is paged at once', () => {
    const w = world(
      { ops: twoLayers },
      { receivable: () => ['push', 'email'], plan: () => [{ at_offset_ms: 0, channels: ['push', 'email'] }] },
    );
    const [started] = run(w, [startTeam('ops')]);
    const push = advance(started.state, failed(started.state, 'ann', 'n-push', 'push'), w.inputs);
    expect(of(push.effects, 'page')).toEqual([]);
    expect(push.state.assignments[0].step?.key).toBe('r0.l0');
    const email = advance(push.state, failed(push.state, 'ann', 'n-email', 'email', T0 + 2_000), w.inputs);
    const logs = of(email.effects, 'log');
    expect(logs.find((e) => e.kind === 'unreachable')).toMatchObject({
      key: 'alt-1/a0/r0.l0/unreachable',
      detail: { round: 0, layer: 1, account_user_ids: ['ann'] },
    });
    expect(of(email.effects, 'close_workflow')).toEqual([expect.objectContaining({ accountUserId: 'ann', status: 'timed_out' })]);
    // Layer 2 now, at the failure's time, with its own full timeout.
    expect(of(email.effects, 'page').map((p) => p.accountUserId)).toEqual(['bob']);
    expect(email.state.assignments[0].step).toMatchObject({ key: 'r0.l1', pagedAt: T0 + 2_000, dueAt: T0 + 2_000 + 30 * MINUTE });
  });

  it('waits while someone else in the step may still be reached, then moves on when they cannot be either', () => {
    const w = world(
      { ops: { ...twoLayers, oncall: { 1: ['ann', 'cid'], 2: ['bob'] } } },
      { receivable: () => ['sms'], plan: () => [{ at_offset_ms: 0, channels: ['sms'] }] },
    );
    const [started] = run(w, [startTeam('ops')]);
    const ann = advance(started.state, failed(started.state, 'ann', 'n-ann', 'sms'), w.inputs);
    expect(of(ann.effects, 'log').map((e) => e.kind)).not.toContain('unreachable');
    expect(of(ann.effects, 'page')).toEqual([]);
    const cid = advance(ann.state, failed(ann.state, 'cid', 'n-cid', 'sms'), w.inputs);
    expect(of(cid.effects, 'log').find((e) => e.kind === 'unreachable')?.detail.account_user_ids).toEqual(['ann', 'cid']);
    expect(of(cid.effects, 'page').map((p) => p.accountUserId)).toEqual(['bob']);
  });

  it('a rejection leaving only unreachable people open moves on at once too', () => {
    const w = world(
      { ops: { ...twoLayers, oncall: { 1: ['ann', 'cid'], 2: ['bob'] } } },
      { receivable: () => ['sms'], plan: () => [{ at_offset_ms: 0, channels: ['sms'] }] },
    );
    const [started] = run(w, [startTeam('ops')]);
    const ann = advance(started.state, failed(started.state, 'ann', 'n-ann', 'sms'), w.inputs);
    const rejected = advance(ann.state, { type: 'reject', at: T0 + 3_000, accountUserId: 'cid' }, w.inputs);
    expect(of(rejected.effects, 'log').map((e) => e.kind)).toEqual(expect.arrayContaining(['rejected', 'unreachable', 'escalated']));
    expect(of(rejected.effects, 'page').map((p) => p.accountUserId)).toEqual(['bob']);
  });

  it('is not decided while a delivery of the rule is still to come within the step', () => {
    const w = world(
      { ops: twoLayers },
      {
        receivable: () => ['sms'],
        plan: () => [
          { at_offset_ms: 0, channels: ['sms'] },
          { at_offset_ms: 5 * MINUTE, channels: ['sms'] },
        ],
      },
    );
    const [started] = run(w, [startTeam('ops')]);
    const first = advance(started.state, failed(started.state, 'ann', 'n-1', 'sms'), w.inputs);
    expect(of(first.effects, 'log').map((e) => e.kind)).not.toContain('unreachable');
    // The reminder goes out at its time; when it fails too, nobody is left.
    const reminder = advance(first.state, { type: 'timeout', at: T0 + 5 * MINUTE, token: 'a0/r0.l0/ann/d1' }, w.inputs);
    expect(channelsOf(of(reminder.effects, 'page'))).toEqual([['sms']]);
    const second = advance(reminder.state, failed(reminder.state, 'ann', 'n-2', 'sms', T0 + 5 * MINUTE + 1), w.inputs);
    expect(of(second.effects, 'log').map((e) => e.kind)).toContain('unreachable');
  });

  it('a person paged alone who cannot be reached exhausts the assignment: the alert drops at once', () => {
    const w = world({}, { receivable: () => ['email'], plan: () => [{ at_offset_ms: 0, channels: ['email'] }] });
    const [started] = run(w, [startUser('ann')]);
    const result = advance(started.state, failed(started.state, 'ann', 'n-1', 'email'), w.inputs);
    expect(of(result.effects, 'log').map((e) => e.kind)).toEqual(['unreachable', 'exhausted', 'dropped']);
    expect(of(result.effects, 'log').find((e) => e.kind === 'exhausted')?.detail).toEqual({ reason: 'unreachable' });
    expect(result.state.outcome).toBe('dropped');
  });

  it('a workflow stored before failover (what it sent is unknown) fails over to nothing and is never taken as unreachable', () => {
    const w = world({ ops: twoLayers }, { receivable: () => ['sms'], plan: () => [{ at_offset_ms: 0, channels: ['sms'] }] });
    const [started] = run(w, [startTeam('ops')]);
    const old = structuredClone(started.state);
    for (const workflow of old.assignments[0].step!.workflows) {
      delete workflow.tried;
      delete workflow.messages;
      delete workflow.failed;
      delete workflow.failovers;
    }
    const result = advance(old, failed(old, 'ann', 'n-1', 'sms'), w.inputs);
    expect(result.changed).toBe(true);
    expect(result.effects).toEqual([]);
    expect(result.state.assignments[0].step?.key).toBe('r0.l0');
  });
});
