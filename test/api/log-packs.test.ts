// Packed timeline entries (lib/logs/packed.ts): an escalation step's entries (a layer's timed_out and
// the next layer's escalated; the last layer's timed_out and exhausted) share one item, and every
// reader shows them as before: an alert's timeline on both its paths, paged by offset across a pack's
// boundary in both directions, /log of the whole account in id order, GET /log/:id of each entry, the
// counts; entries stored one item each before (and written alone now) read beside them.
import { describe, expect, it } from 'vitest';
import { getAlert } from '../../lib/alerts/store';
import { recordTimelinePack, timelineLog } from '../../lib/alerts/timeline';
import { prefixId, sequencedUlid } from '../../lib/ids';
import { nextUlid } from '../../lib/logs/packed';
import { importLogs } from '../../lib/logs/store';
import { getItem, queryItems } from '../../lib/store/items';
import { recountCounter } from '../../lib/store/recount';
import type { ApiClient } from '../support/api-client';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { alertTo, person, team, waitFor } from '../escalation/support';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(
  async (started) => {
    service = started;
    admin = service.admin;
    accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
  },
  { env: { TIME_SCALE: '600' } },
);

interface Shown {
  id: string;
  data: { action: string };
  [field: string]: unknown;
}

/** Every page of a list, `limit` at a time by offset; each page's has_more and total checked on the way. */
async function allPages(path: string, limit: number): Promise<Shown[]> {
  const out: Shown[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let offset = 0; ; offset += limit) {
    const res = await admin.get(`${path}${join}limit=${limit}&offset=${offset}`);
    expect(res.status, res.text).toBe(200);
    const page = res.body.data as Shown[];
    expect(page.length).toBeLessThanOrEqual(limit);
    out.push(...page);
    expect(res.body.has_more).toBe(offset + page.length < res.body.total_count);
    if (!res.body.has_more) return out;
  }
}

const ascending = (ids: string[]) => ids.every((id, i) => i === 0 || ids[i - 1] < id);

describe('packed timeline entries', () => {
  it('read as the entries they hold, in id order, on every path, beside entries stored one item each', async () => {
    const [a, b] = [await person(admin), await person(admin)];
    const t = await team(admin, { layers: [[a.id], [b.id]], members: [a.id, b.id] });
    const alert = await alertTo(admin, { teams: [t.id] });
    const owner = alert.prefix_id;
    // Layer 1 times out, layer 2 is paged, then times out: the alert is dropped.
    await waitFor(
      async () => (await admin.get(`/log?owner_id=${owner}&limit=100`)).body.data as Shown[],
      (logs) => logs.some((log) => log.data.action === 'dropped'),
      // Two layers' timeouts (half a second each here): slow only on a loaded machine.
      45_000,
    );
    await settle(service);

    // Entries stored one item each, as before packing: a step's pair written alone, and another
    // entry later; and logs of other owners written in between.
    const stored = (await getAlert(accountId, alert.id))!;
    const now = Date.now();
    const legacy = [
      timelineLog({
        alert: stored,
        action: 'timed_out',
        oldStatus: null,
        newStatus: null,
        time: new Date(now).toISOString(),
        id: sequencedUlid(now, 3, 'old:1'),
      }),
      timelineLog({
        alert: stored,
        action: 'escalated',
        oldStatus: null,
        newStatus: null,
        time: new Date(now).toISOString(),
        id: sequencedUlid(now, 5, 'old:2'),
      }),
      timelineLog({
        alert: stored,
        action: 'reopened',
        oldStatus: 'dropped',
        newStatus: 'open',
        time: new Date(now + 1).toISOString(),
        id: sequencedUlid(now + 1, 0, 'old:3'),
      }),
    ];
    await importLogs(accountId, legacy);
    for (const content of ['in between 1', 'in between 2']) {
      expect((await admin.post('/log', { content, owner_id: prefixId('team', t.id), source_id: owner })).status).toBeLessThan(300);
    }

    // The table holds packed the create's `created` and `routed` (the alert, straight to a team, had
    // its routing decided at create: lib/alerts/direct-routing.ts) and the escalation steps' pairs:
    // three items of two entries.
    const items = await queryItems(`A#${accountId}#LOG#O#${owner}`, { index: 'gsi1' });
    const packs = items.filter((item) => Array.isArray(item.pack));
    expect(packs.map((item) => (item.pack as unknown[]).length)).toEqual([2, 2, 2]);

    const res = await admin.get(`/log?owner_id=${owner}&limit=100`);
    const whole = res.body.data as Shown[];
    expect(whole.map((log) => log.data.action)).toEqual([
      'created',
      'routed',
      'escalated',
      'timed_out',
      'escalated',
      'timed_out',
      'exhausted',
      'dropped',
      'timed_out',
      'escalated',
      'reopened',
    ]);
    expect(ascending(whole.map((log) => log.id))).toBe(true);
    // Counted in entries: the list's total, and the items are fewer.
    expect(res.body.total_count).toBe(whole.length);
    expect(items.length).toBe(whole.length - 3);
    // The packed entries show what a single entry shows.
    for (const log of whole) {
      expect(log).toMatchObject({ type: 'alert', owner_id: owner, level: 1, meta: {}, sid: `acc_${accountId}` });
      const changesStatus = ['created', 'routed', 'dropped', 'reopened'].includes(log.data.action);
      if (!changesStatus) expect(log.content).toBe(`Alert #${alert.tiny_id} ${log.data.action} by system`);
    }

    // Paged by offset: every limit, so a page ends inside each pack at some point; newest first too.
    for (const limit of [1, 2, 3, 4]) {
      expect(await allPages(`/log?owner_id=${owner}`, limit), `limit ${limit}`).toEqual(whole);
      expect(await allPages(`/incident/${owner}/logs`, limit), `incident, limit ${limit}`).toEqual(whole);
      expect(await allPages(`/log?owner_id=${owner}&sort=-id`, limit), `newest first, limit ${limit}`).toEqual([...whole].reverse());
    }

    // The whole account's logs, newest first, paged across the packs: the alert's entries in their
    // order among the others, every id once.
    const everything = await allPages('/log', 5);
    const ids = everything.map((log) => log.id);
    expect(ascending([...ids].reverse())).toBe(true);
    expect(everything.filter((log) => log.owner_id === owner)).toEqual([...whole].reverse());
    const between = everything.filter((log) => typeof log.content === 'string' && log.content.startsWith('in between'));
    expect(between).toHaveLength(2);

    // One by id, the second entry of a pack included; the id right after a pack's last is no entry.
    for (const log of whole) expect((await admin.get(`/log/${log.id}`)).body).toEqual(log);
    const lastPacked = whole[6];
    expect(lastPacked.data.action).toBe('exhausted');
    expect((await admin.get(`/log/log_${nextUlid(lastPacked.id.replace(/^log_/, ''))}`)).status).toBe(404);

    // The recount counts entries, not items: the alert counters it finds are exact.
    expect(await recountCounter(accountId, 'ALERT', { settleMs: 50 })).toMatchObject({ status: 'exact' });
  }, 120_000);

  it('too large together (a routing of long hops), each is written alone under its id, fresh or not', async () => {
    const alert = (await getAlert(accountId, (await alertTo(admin, { users: [(await person(admin)).id] })).id))!;
    for (const fresh of [true, false]) {
      const base = sequencedUlid(Date.now(), 1020, `large:${fresh}`);
      const long = 'x'.repeat(150_000);
      const entries = [0, 1, 2].map((i) => ({
        alert,
        action: 'router' as const,
        oldStatus: alert.status,
        newStatus: alert.status,
        time: new Date().toISOString(),
        details: { hop: i, note: long },
      }));
      const ids = [base, nextUlid(base), nextUlid(nextUlid(base))];
      await recordTimelinePack(
        entries.map((entry, i) => ({ ...entry, id: ids[i] })),
        fresh ? { counted: true, fresh: true } : {},
      );
      await settle(service);
      for (const [i, id] of ids.entries()) {
        const item = (await getItem({ pk: `A#${accountId}#LOG`, sk: id }))!;
        expect(item.pack, `${fresh} ${i}`).toBeUndefined();
        expect((item.data as { hop: number }).hop).toBe(i);
      }
    }
  }, 60_000);
});
