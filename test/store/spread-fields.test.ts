// Where held-back counts put a field spread over several counter items (lib/store/spread-fields.ts):
// in the item of its group that the work writes anyway, the primary first; the primary when none is.
import { describe, expect, it } from 'vitest';
import '../../lib/logs/store'; // registers the alert timeline's `timeline_logs` (ALERT, spread into NTF)
import { placeSpreadFields } from '../../lib/store/spread-fields';
import type { CountDelta } from '../../lib/store/count-delta';

type Sums = Record<string, Record<string, CountDelta>>;
const item = (account: string, type: string) => `A#${account}#COUNT\u0000${type}`;
const place = (sums: Sums) => {
  const held = new Map(Object.entries(sums).map(([id, fields]) => [id, { ...fields }]));
  placeSpreadFields(held);
  return Object.fromEntries([...held].filter(([, fields]) => Object.keys(fields).length > 0));
};

describe('a spread field in held-back counts', () => {
  it("goes with the notifications' counts when the work moves no alert count (a routing, a step that pages)", () => {
    expect(place({ [item('a', 'ALERT')]: { timeline_logs: 2 }, [item('a', 'NTF')]: { total: 2, 'channel:push': 1 } })).toEqual({
      [item('a', 'NTF')]: { total: 2, 'channel:push': 1, timeline_logs: 2 },
    });
  });

  it('stays in the alert counter item when the work moves an alert count too (a drop), or writes nothing else', () => {
    const drop: Sums = {
      [item('a', 'ALERT')]: { timeline_logs: 2, 'status:open': -1, 'status:dropped': 1 },
      [item('a', 'NTF')]: { total: 1 },
    };
    expect(place(drop)).toEqual(drop);
    expect(place({ [item('a', 'ALERT')]: { timeline_logs: 1 } })).toEqual({ [item('a', 'ALERT')]: { timeline_logs: 1 } });
    // A field summed to zero moves nothing: the alert item's is written only with a count that moves.
    expect(place({ [item('a', 'ALERT')]: { timeline_logs: 1, 'status:open': 0 }, [item('a', 'NTF')]: { total: 1 } })).toEqual({
      [item('a', 'ALERT')]: { 'status:open': 0 },
      [item('a', 'NTF')]: { total: 1, timeline_logs: 1 },
    });
  });

  it("keeps each account's counts to its own items, and leaves other counter items and fields alone", () => {
    const sums: Sums = {
      [item('a', 'ALERT')]: { timeline_logs: 1 },
      [item('b', 'ALERT')]: { timeline_logs: 3 },
      [item('b', 'NTF')]: { total: 1 },
      [item('a', 'LOG')]: { total: 1 },
      [`A#a#OCOUNT#NTF\u0000ACU#x`]: { n: 1 },
    };
    expect(place(sums)).toEqual({
      [item('a', 'ALERT')]: { timeline_logs: 1 },
      [item('b', 'NTF')]: { total: 1, timeline_logs: 3 },
      [item('a', 'LOG')]: { total: 1 },
      [`A#a#OCOUNT#NTF\u0000ACU#x`]: { n: 1 },
    });
  });
});
