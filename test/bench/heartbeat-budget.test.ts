// What a heartbeat's beat costs in DynamoDB request units (docs/api.md#heartbeats: "a beat must stay
// cheap"), every call metered (bench/capacity-meter.ts): the beat itself is one conditional write of
// a small item that leaves the due index where it is; beside it, what every inbound request pays (its
// log, the log's counters, the token bucket). And what the sweeper pays per window to catch the due
// entry up with beats that came meanwhile.
import { describe, expect, it } from 'vitest';
import { meterCapacity, totalRead, totalWrite, type CapacityMeter } from '../../bench/capacity-meter';
import { adminAccountUser } from '../integrations/support';
import { testClock } from '../support/dependencies';
import { runDueSweeps, settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';

let service: TestService;
useService((started) => {
  service = started;
});

/** Units of a beat as measured (6 W, 0 R): the state 1, the log 2 (table + owner index gsi1), its
 * two counters 2, the token bucket 1; and a margin of one for a counter's group commit split in two. */
const BEAT_WRITE_BUDGET = 7;
const BEAT_READ_BUDGET = 1;

async function metered(run: () => Promise<void>): Promise<CapacityMeter['steps']> {
  const meter = meterCapacity(service.runtime.emulators.dynamodbEndpoint, () => 'all');
  try {
    await run();
    await settle(service);
  } finally {
    meter.stop();
  }
  return meter.steps;
}

describe('units per beat', () => {
  it('a beat is one conditional write of the state and the inbound log, with no read and no index move of the state', async () => {
    testClock.freeze();
    const created = await service.admin.post('/api/v4/integrations', {
      name: 'Metered heartbeat',
      urgency: 'high',
      integration_type_id: 'heartbeat',
      account_user_ids: [(await adminAccountUser(service.admin)).id],
      options: { interval_seconds: 300 },
    });
    expect(created.status, created.text).toBe(201);
    const url = `${service.url}/integration/${created.body.prefix_id}`;
    // The first beat warms the caches (the integration by id, the maintenance windows).
    expect((await fetch(url, { method: 'POST' })).status).toBe(202);
    testClock.advance(1_000);

    const steps = await metered(async () => {
      expect((await fetch(url, { method: 'POST' })).status).toBe(202);
    });
    const units = steps.get('all')!;
    const detail = JSON.stringify(units, null, 1);
    console.log(`one beat: ${totalWrite(units)} write units, ${totalRead(units)} read units\n${detail}`);
    expect(units.byItem['INT#HEARTBEAT / STATE'], detail).toBe(1);
    expect(units.indexWrite.gsi5 ?? 0, detail).toBe(0);
    expect(totalWrite(units), detail).toBeLessThanOrEqual(BEAT_WRITE_BUDGET);
    expect(totalRead(units), detail).toBeLessThanOrEqual(BEAT_READ_BUDGET);

    // Ten beats within one window, then the sweep at the old deadline: one move of the due entry.
    for (let i = 0; i < 10; i++) {
      testClock.advance(20_000);
      expect((await fetch(url, { method: 'POST' })).status).toBe(202);
    }
    testClock.advance(300_000 - 10 * 20_000);
    const sweep = (await metered(() => runDueSweeps(service))).get('all')!;
    const heartbeatWrites = sweep.byItem['INT#HEARTBEAT / STATE'];
    console.log(`the sweep that caught the due entry up: ${heartbeatWrites} write units on the state\n${JSON.stringify(sweep.byItem)}`);
    expect(heartbeatWrites).toBe(3);
  }, 120_000);
});
