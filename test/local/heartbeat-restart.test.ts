// A heartbeat's deadline lives in the table, not in a process (docs/api.md#heartbeats): the service
// down at the deadline (the whole process gone, the embedded queue with it) opens the alert at the
// first sweep after it comes back, once; and a sweep that died between claiming a miss and storing
// its alert leaves the claim for the next sweep, which stores that one alert. Embedded emulators only
// (restart persistence is a property of DATA_DIR).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { missedAlertId } from '../../lib/integrations/sweep-heartbeats';
import { claimMiss, getHeartbeat } from '../../lib/integrations/heartbeat-store';
import type { ApiClient } from '../support/api-client';
import { testClock } from '../support/dependencies';
import { runDueSweeps } from '../support/quiescence';
import { startService } from '../support/runtime';
import { adminAccountUser } from '../integrations/support';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const dataDir = mkdtempSync(path.join(tmpdir(), 'oncall-heartbeat-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
afterEach(() => testClock.reset());

const WINDOW_MS = 600_000;

async function heartbeat(admin: ApiClient, name: string) {
  const res = await admin.post('/api/v4/integrations', {
    name,
    urgency: 'high',
    integration_type_id: 'heartbeat',
    account_user_ids: [(await adminAccountUser(admin)).id],
    options: { interval_seconds: WINDOW_MS / 1000 },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; prefix_id: string };
}

async function alertsOf(admin: ApiClient, integrationId: string): Promise<Array<{ id: string; title: string }>> {
  const res = await admin.get(`/api/v4/alerts?source_id=${integrationId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

describe.skipIf(external)('heartbeats across a crash', () => {
  it('opens the alert of a deadline that passed while the service was down, once, at the first sweep', async () => {
    const options = { dataDir, tableName: 'heartbeats', bootstrap: { apiKey: 'h'.repeat(40) } };
    testClock.freeze();
    const first = await startService(options);
    let integration: { id: string; prefix_id: string };
    try {
      integration = await heartbeat(first.admin, 'Backup job');
      expect((await fetch(`${first.url}/integration/${integration.prefix_id}`, { method: 'POST' })).status).toBe(202);
    } finally {
      await first.stop();
    }

    // Down past the deadline: no process held a timer for it.
    testClock.advance(WINDOW_MS + 60_000);
    const second = await startService(options);
    try {
      // The start-up re-drive is a sweep: it judged the deadline from the table.
      const alerts = await alertsOf(second.admin, integration!.id);
      expect(alerts.map((a) => a.title)).toEqual(['Heartbeat missed: Backup job']);
      await runDueSweeps(second);
      testClock.advance(WINDOW_MS);
      await runDueSweeps(second);
      expect(await alertsOf(second.admin, integration!.id)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('stores the alert of a miss whose sweep died after its claim, and only that one', async () => {
    testClock.freeze();
    const service = await startService();
    try {
      const integration = await heartbeat(service.admin, 'Claimed job');
      testClock.advance(WINDOW_MS);
      // What a sweep that died right after its claim leaves: the claim, no alert.
      const state = (await getHeartbeat(integration.id))!;
      const alertId = missedAlertId(integration.id, state.armed_at + WINDOW_MS);
      expect(await claimMiss(state, alertId, testClock.now())).toBe(true);
      expect(await alertsOf(service.admin, integration.id)).toEqual([]);

      await runDueSweeps(service);
      const alerts = await alertsOf(service.admin, integration.id);
      expect(alerts.map((a) => a.id)).toEqual([alertId]);
      expect((await getHeartbeat(integration.id))!.alert_stored).toBe(true);
      // The next beat resolves it.
      expect((await fetch(`${service.url}/integration/${integration.prefix_id}`, { method: 'POST' })).status).toBe(202);
      expect((await service.admin.get(`/api/v4/alerts/${alertId}`)).body.status).toBe('resolved');
    } finally {
      await service.stop();
    }
  });
});
