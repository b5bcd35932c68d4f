// The local runtime's queue workers write their summed counts unhurried (lib/group-commit.ts
// setUnhurriedLinger: they wait for other work's to share one UpdateItem per counter item). A read
// through the API writes what waits first, so it counts all the work done before it; stopping the
// runtime writes it too. Here the linger is an hour, so nothing is written by its timer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupCommitsIdle } from '../../lib/group-commit';
import { listNotificationsOfAlert } from '../../lib/notify/store';
import { readCounts } from '../../lib/store/counters';
import { typeOf } from '../../lib/entities';
import { adminAccountUser } from '../integrations/support';
import { startService, type TestService } from '../support/runtime';

const HOUR = 3_600_000;
let service: TestService;

beforeAll(async () => {
  service = await startService({ unhurriedLingerMs: HOUR });
});
afterAll(() => service?.stop());

/** Until `check` holds, polling (the workers run beside the test). */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the workers' unhurried counts", () => {
  it('wait for company, and an API read writes them first: its total counts every page sent', async () => {
    const me = await adminAccountUser(service.admin);
    const created = await service.admin.post('/api/v4/alerts', {
      title: 'Counted later',
      urgency: 'high',
      destination_account_user_ids: [me.id],
    });
    expect(created.status, created.text).toBe(201);
    const accountId = service.runtime.created!.account.id;
    // Routing pages the person (the routing worker, in the background): its notifications are stored...
    await until(async () => (await listNotificationsOfAlert(accountId, created.body.id)).length > 0, 'the page');
    await until(() => service.runtime.pollers.every((p) => p.busy === 0), 'the workers to finish');
    const paged = (await listNotificationsOfAlert(accountId, created.body.id)).length;
    // ...and their counts wait (an hour, here): not in the counter item, and not yet answered.
    expect((await readCounts(accountId, typeOf('notification'))).total ?? 0).toBe(0);
    expect(groupCommitsIdle()).toBe(false);

    const listed = await service.admin.get(`/api/v4/notifications?alert_id=${created.body.id}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toHaveLength(paged);
    const all = await service.admin.get('/api/v4/notifications');
    expect(all.body.total_count).toBe(paged);
    expect((await readCounts(accountId, typeOf('notification'))).total).toBe(paged);
    expect(groupCommitsIdle()).toBe(true);
  });
});
