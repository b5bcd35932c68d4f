// A crash of the whole process mid-escalation (docs/api.md#escalation-and-notifications): the embedded queue and its delayed
// timer messages are gone with it, the table is not (DATA_DIR). After the restart the sweeper runs
// every due step once: the next layer is paged exactly once, nobody twice. Embedded emulators only
// (restart persistence is a property of DATA_DIR).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startService } from '../support/runtime';
import { alertTo, notificationsOf, pagedPeople, person, sentFor, team } from '../escalation/support';
import { testClock } from '../support/dependencies';
import { runDueSweeps } from '../support/quiescence';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const dataDir = mkdtempSync(path.join(tmpdir(), 'oncall-escalation-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
afterEach(() => testClock.reset());

describe.skipIf(external)('a crash of the process mid-escalation', () => {
  it('runs every due step once after a restart on the same DATA_DIR: no page lost, none twice', async () => {
    const options = { dataDir, tableName: 'oncall', bootstrap: { apiKey: 'r'.repeat(40) } };
    const first = await startService(options);
    let alertId: string;
    let ids: { a: string; b: string; c: string };
    try {
      const [a, b, c] = [await person(first.admin), await person(first.admin), await person(first.admin)];
      ids = { a: a.id, b: b.id, c: c.id };
      const t = await team(first.admin, { layers: [[a.id], [b.id], [c.id]], timeouts: [10, 10, 10] });
      const alert = await alertTo(first.admin, { teams: [t.id] });
      alertId = alert.id;
      await sentFor(first.admin, alert.id, (s) => pagedPeople(s).length === 1 && s.length === 2 && s.every((n) => n.status === 'sent'));
    } finally {
      await first.stop();
    }

    // Down for 25 minutes: layer 1 timed out during the outage, layer 2 too.
    testClock.advance(25 * 60_000);
    const second = await startService(options);
    try {
      await second.runtime.runScheduled('sweeper');
      const sent = await sentFor(second.admin, alertId!, (s) => pagedPeople(s).length >= 2);
      // Everything due at once runs in one step: layer 2 times out at the moment it is paged, so layer 3
      // comes 10 minutes after the restart, not now.
      expect(pagedPeople(sent)).toEqual([ids!.a, ids!.b]);
      await runDueSweeps(second);
      expect(await notificationsOf(second.admin, alertId!)).toHaveLength(sent.length);
      testClock.advance(10 * 60_000 + 5_000);
      await second.runtime.runScheduled('sweeper');
      const all = await sentFor(second.admin, alertId!, (s) => pagedPeople(s).length === 3);
      expect(pagedPeople(all)).toEqual([ids!.a, ids!.b, ids!.c]);
      for (const id of [ids!.a, ids!.b, ids!.c]) {
        expect(all.filter((n) => n.account_user_id === id && n.template === 'alert_alert')).toHaveLength(2);
      }
    } finally {
      await second.stop();
    }
  });
});
