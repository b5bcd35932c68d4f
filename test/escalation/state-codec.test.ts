// The escalation item's packed JSON (lib/escalation/state-codec.ts): what is packed comes back
// unchanged, items written before packing (plain JSON strings) still read, and a format this code
// does not know is an error rather than a wrong state.
import { describe, expect, it } from 'vitest';
import { packJson, unpackJson } from '../../lib/escalation/state-codec';

const alertId = '01M8DFGQW5TV4TF4244ZPB2DJE';
const person = '01M8DFFFYED2SH9DEP5BBSEVHN';
const outbox = [
  {
    type: 'log',
    key: `${alertId}/a0/r0.l1/escalated`,
    at: 1795749730635,
    kind: 'escalated',
    assignmentId: 'a0',
    detail: { round: 0, layer: 2, account_user_ids: [person] },
  },
  {
    type: 'page',
    key: `${alertId}/a0/r0.l1/${person}/alert_alert/d0`,
    at: 1795749730635,
    workflowId: '01M8DFH26X99TJXJ5C3S2DF3KK',
    assignmentId: 'a0',
    accountUserId: person,
    template: 'alert_alert',
    delivery: 0,
    channels: ['push', 'email'],
  },
  {
    type: 'schedule_timer',
    key: `${alertId}/a0/r0.l1/timer`,
    at: 1795749730635,
    assignmentId: 'a0',
    token: 'a0/r0.l1',
    dueAt: 1795750030635,
  },
];

describe('escalation state codec', () => {
  it('gives back what it packed, in a fraction of the JSON', () => {
    const packed = packJson(outbox);
    expect(unpackJson(packed)).toEqual(outbox);
    expect(packed.length).toBeLessThan(JSON.stringify(outbox).length / 2);
  });

  it('keeps text that is not ASCII and values that are not objects', () => {
    for (const value of [{ title: 'Ünïcödé — 警报 🚨' }, [], 'text', 0, null]) expect(unpackJson(packJson(value))).toEqual(value);
  });

  it('reads the plain JSON string of an item written before packing, and nothing from an absent attribute', () => {
    expect(unpackJson(JSON.stringify(outbox))).toEqual(outbox);
    expect(unpackJson(undefined)).toBeUndefined();
  });

  it('refuses a stored format it does not know', () => {
    const unknown = Uint8Array.from(packJson(outbox));
    unknown[0] = 9;
    expect(() => unpackJson(unknown)).toThrow(/unknown stored format 9/);
  });
});
