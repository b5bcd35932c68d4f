// Packed timeline entries (lib/logs/packed.ts): consecutive ids, and a compact form that gives every
// entry back exactly as it was written.
import { describe, expect, it } from 'vitest';
import { entriesIn, isPacked, nextUlid, packEntries, packIds, packIdsEndingAt, previousUlid, unpackEntries } from '../../lib/logs/packed';
import type { LogRecord } from '../../lib/logs/records';
import { sequencedUlid } from '../../lib/ids';

const time = '2026-11-27T20:00:00.000Z';
const base = sequencedUlid(Date.parse(time), 3, 'esc:step/timed_out');

function entry(id: string, action: string, details: Record<string, unknown> = {}): LogRecord {
  return {
    id,
    account_id: 'ACC1',
    type: 'alert',
    subtype: null,
    content: `Alert #42 ${action} by system`,
    owner_id: 'alt_01ALERT',
    source_id: 'alt_01ALERT',
    level: 1,
    meta: {},
    data: { action, actor: { type: 'System', id: null }, old_status: null, new_status: null, time, ...details },
    created_at: time,
    updated_at: time,
    version: 1,
  };
}

const context = { accountId: 'ACC1', ownerId: 'alt_01ALERT', baseId: base };

describe('ids of a pack', () => {
  it('follow the first one by one, so nothing sorts between them, in its millisecond', () => {
    expect(nextUlid('01JD0000000000000000000000')).toBe('01JD0000000000000000000001');
    expect(nextUlid('01JD000000000000000000000Z')).toBe('01JD0000000000000000000010');
    expect(nextUlid('01JD00000000ZZZZZZZZZZZZZZ')).toBe('01JD0000000100000000000000');
    const ids = packIds(base, 3);
    expect(ids).toHaveLength(3);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => id.slice(0, 10) === base.slice(0, 10))).toBe(true);
    expect(() => nextUlid('01JD00000ZZZZZZZZZZZZZZZZZ')).toThrow();
  });

  it("end at a given last one (a routing's outcome): the ids right before it, the inverse of packIds", () => {
    expect(previousUlid('01JD0000000000000000000001')).toBe('01JD0000000000000000000000');
    expect(previousUlid('01JD0000000000000000000010')).toBe('01JD000000000000000000000Z');
    expect(previousUlid('01JD0000000100000000000000')).toBe('01JD00000000ZZZZZZZZZZZZZZ');
    expect(() => previousUlid('01JD000000' + '0'.repeat(16))).toThrow();
    const last = '01JD00000000ZY0000000000Z1';
    const ids = packIdsEndingAt(last, 4);
    expect(ids[3]).toBe(last);
    expect(packIds(ids[0], 4)).toEqual(ids);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('pack and unpack', () => {
  it('gives back every entry as written, from its data and the keys alone', () => {
    const [id1, id2] = packIds(base, 2);
    const logs = [
      entry(id1, 'timed_out', { account_user_ids: ['U1'], assignment_id: 'A1' }),
      entry(id2, 'escalated', { layer: 2, account_user_ids: ['U2'], assignment_id: 'A1' }),
    ];
    const packed = packEntries(logs)!;
    expect(packed).not.toBeNull();
    expect(isPacked(packed)).toBe(true);
    expect(entriesIn(packed)).toBe(2);
    expect(entriesIn({ id: 'x' })).toBe(1);
    // Compact: no id, account, owner, content, times or constant fields are stored.
    expect(JSON.stringify(packed)).not.toContain('ACC1');
    expect(JSON.stringify(packed)).not.toContain('alt_01ALERT');
    expect(JSON.stringify(packed)).not.toContain('content');
    expect(unpackEntries(packed, context)).toEqual(logs);
  });

  it('keeps what the derivation does not give: a person as actor, a status change, extra and missing fields', () => {
    const [id1, id2, id3] = packIds(base, 3);
    const byPerson = {
      ...entry(id1, 'handoff'),
      content: 'Alert #42 handoff by acu_P1 (open → acknowledged)',
      source_id: 'acu_P1',
      data: { action: 'handoff', actor: { type: 'AccountUser', id: 'acu_P1' }, old_status: 'open', new_status: 'acknowledged', time },
    };
    const odd = { ...entry(id2, 'escalated'), content: 'something else', level: 3, tiny_id: 7, updated_at: '2026-11-27T20:00:01.000Z' };
    const { meta: _meta, ...withoutMeta } = entry(id3, 'repeated');
    const logs = [byPerson, odd, withoutMeta as LogRecord];
    const packed = packEntries(logs)!;
    expect(packed).not.toBeNull();
    expect(unpackEntries(packed, context)).toEqual(logs);
  });

  it('refuses entries that cannot share an item', () => {
    const [id1, id2] = packIds(base, 2);
    expect(packEntries([entry(id1, 'timed_out')])).toBeNull();
    // Not consecutive: another log could sort between them.
    expect(packEntries([entry(id1, 'timed_out'), entry(nextUlid(id2), 'escalated')])).toBeNull();
    expect(packEntries([entry(id1, 'timed_out'), { ...entry(id2, 'escalated'), owner_id: 'alt_OTHER' }])).toBeNull();
    expect(packEntries([entry(id1, 'timed_out'), { ...entry(id2, 'escalated'), account_id: 'ACC2' }])).toBeNull();
  });

  it('stays well under 1 KB for a step’s timed_out and escalated entries', () => {
    const [id1, id2] = packIds(base, 2);
    const packed = packEntries([
      entry(id1, 'timed_out', { account_user_ids: ['01JD0000000000000000000001'], assignment_id: '01JD0000000000000000000002' }),
      entry(id2, 'escalated', {
        layer: 2,
        round: 1,
        team_id: '01JD0000000000000000000003',
        account_user_ids: ['01JD0000000000000000000004'],
        assignment_id: '01JD0000000000000000000002',
      }),
    ])!;
    expect(JSON.stringify(packed).length).toBeLessThan(700);
  });
});
