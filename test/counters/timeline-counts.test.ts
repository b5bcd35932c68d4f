// An alert's timeline entries are counted in the counter item their step moves anyway
// (lib/store/spread-fields.ts; docs/ARCHITECTURE.md, "Write budget per alert life"): a transition's
// in the alert counter item with its status counts (and a create's that stored the routing decision,
// its routing's), routing's and an escalation step's in the notifications' one with their pages. The log total adds both, and the recount keeps their sum
// exact (lib/store/recount.ts).
import { describe, expect, it } from 'vitest';
import { SWEEP_GRACE_MS } from '../../lib/escalation/sweep';
import { adjustCounts, readRawCounts } from '../../lib/store/counters';
import { recountCounter } from '../../lib/store/recount';
import { dynamoCallsDuring, itemKeyOf } from '../support/aws-calls';
import { passTime, settle } from '../support/quiescence';
import { useServiceAccount } from '../support/runtime';
import { alertTo, person, sentFor, team } from '../escalation/support';

const the = useServiceAccount({ env: { TIME_SCALE: '600' } });

const counterUpdates = (calls: Awaited<ReturnType<typeof dynamoCallsDuring>>['calls'], type: string) =>
  calls.filter(
    (call) => call.operation === 'UpdateItem' && itemKeyOf(call)?.pk === `A#${the.accountId}#COUNT` && itemKeyOf(call)?.sk === type,
  );

/** The timeline entries of an alert, by action (each entry once, packed or not). */
async function actionsOf(alertId: string): Promise<string[]> {
  const res = await the.admin.get(`/log?owner_id=alt_${alertId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Array<{ data: { action: string } }>).map((log) => log.data.action);
}

const logTotal = async () => (await the.admin.get('/log?limit=1')).body.total_count as number;

describe("an alert's timeline counts", () => {
  it('routing and an escalation step count theirs with their pages, a transition with its status: no counter update of their own', async () => {
    await settle(the.service);
    const a = await person(the.admin);
    const b = await person(the.admin);
    const t = await team(the.admin, { layers: [[a.id], [b.id]], timeouts: [60, 60] });
    const before = {
      alert: await readRawCounts(the.accountId, 'ALERT'),
      pages: await readRawCounts(the.accountId, 'NTF'),
      logs: await logTotal(),
    };

    let alertId = '';
    const routed = await dynamoCallsDuring(async () => {
      alertId = (await alertTo(the.admin, { teams: [t.id] })).id;
      await sentFor(the.admin, alertId, (sent) => sent.length === 2 && sent.every((n) => n.status === 'sent'));
      await settle(the.service);
    });
    // The create's one update of the alert counters (its status, its `created` entry and, the decision
    // stored with it, its `routed` entry); routing and the first step move only the notifications'
    // counters, once, with their timeline entries.
    expect(counterUpdates(routed.calls, 'ALERT')).toHaveLength(1);
    expect(counterUpdates(routed.calls, 'NTF')).toHaveLength(1);

    // Layer 1's hour (six seconds at TIME_SCALE 600) and the sweeper's grace.
    const timedOut = await dynamoCallsDuring(() => passTime(the.service, (60 * 60_000) / 600 + SWEEP_GRACE_MS));
    await sentFor(the.admin, alertId, (sent) => sent.length === 4);
    expect(counterUpdates(timedOut.calls, 'ALERT')).toHaveLength(0);
    expect(counterUpdates(timedOut.calls, 'NTF')).toHaveLength(1);

    expect((await the.admin.post(`/api/v4/alerts/${alertId}/acknowledge`)).status).toBe(200);
    await settle(the.service);

    const actions = await actionsOf(alertId);
    // Straight to a team, the alert's routing was decided by its create (lib/alerts/direct-routing.ts):
    // its `routed` entry is counted with the create's, in the alert counters.
    const withPages = actions.filter((action) => ['escalated', 'timed_out'].includes(action));
    expect(actions).toEqual(expect.arrayContaining(['created', 'routed', 'escalated', 'timed_out', 'acknowledged']));
    const after = {
      alert: await readRawCounts(the.accountId, 'ALERT'),
      pages: await readRawCounts(the.accountId, 'NTF'),
      logs: await logTotal(),
    };
    expect((after.pages.timeline_logs ?? 0) - (before.pages.timeline_logs ?? 0)).toBe(withPages.length);
    expect((after.alert.timeline_logs ?? 0) - (before.alert.timeline_logs ?? 0)).toBe(actions.length - withPages.length);
    // The log total counts every entry once.
    expect(after.logs - before.logs).toBe(actions.length);
    for (const type of ['ALERT', 'NTF', 'LOG']) {
      expect(await recountCounter(the.accountId, type as 'ALERT', { settleMs: 50 })).toEqual({ type, status: 'exact', corrections: {} });
    }
  });

  it("a count a crash lost is repaired in the alert counter item by what the sum is off; counts stored before (all in the alert's) stay exact", async () => {
    const a = await person(the.admin);
    const t = await team(the.admin, { layers: [[a.id]], timeouts: [60] });
    const alertId = (await alertTo(the.admin, { teams: [t.id] })).id;
    await sentFor(the.admin, alertId, (sent) => sent.length === 2);
    await settle(the.service);
    const total = await logTotal();
    const stored = async () => ({
      alert: (await readRawCounts(the.accountId, 'ALERT')).timeline_logs,
      pages: (await readRawCounts(the.accountId, 'NTF')).timeline_logs,
    });
    const exact = await stored();
    expect(exact.pages).toBeGreaterThan(0);

    // A step's ADD lost to a crash: the sum is one short; the notifications' recount leaves the field
    // alone (it is a part), the alerts' puts the one back in its own field.
    await adjustCounts(the.accountId, 'NTF', { timeline_logs: -1 });
    expect(await logTotal()).toBe(total - 1);
    expect(await recountCounter(the.accountId, 'NTF', { settleMs: 50 })).toEqual({ type: 'NTF', status: 'exact', corrections: {} });
    expect(await recountCounter(the.accountId, 'ALERT', { settleMs: 50 })).toEqual({
      type: 'ALERT',
      status: 'repaired',
      corrections: { timeline_logs: { was: exact.alert + exact.pages - 1, now: exact.alert + exact.pages } },
    });
    expect(await stored()).toEqual({ alert: exact.alert + 1, pages: exact.pages - 1 });
    expect(await logTotal()).toBe(total);

    // Counted before the change, every entry was the alert counter item's: the same sum, nothing to repair.
    const pages = (await stored()).pages;
    await adjustCounts(the.accountId, 'NTF', { timeline_logs: -pages });
    await adjustCounts(the.accountId, 'ALERT', { timeline_logs: pages });
    expect(await logTotal()).toBe(total);
    for (const type of ['ALERT', 'NTF']) {
      expect(await recountCounter(the.accountId, type as 'ALERT', { settleMs: 50 })).toEqual({ type, status: 'exact', corrections: {} });
    }
  });
});
