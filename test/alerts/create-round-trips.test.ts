// The round trips of an alert's creation (lib/alerts/create-alert.ts insertNewAlert), on the real
// SDK against the emulator: the word items share the unrouted entry's BatchWrite, beside the tiny
// id's reservation and before the alert's put; the counters, links, day buckets and the 'created'
// entry all go out once the put has answered, side by side; the routing message goes last, once
// every one of them is stored. Each call's start and end are taken where the SDK sends it, so the
// order holds however slow the machine.
import { describe, expect, it } from 'vitest';
import { onServiceClients, type AwsCall } from '../support/aws-calls';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { person, team } from '../escalation/support';

let service: TestService;
let accountId: string;

useService(async (started) => {
  service = started;
  accountId = (await service.admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

interface Timed {
  service: AwsCall['service'];
  operation: string;
  /** The partitions the call writes or reads (each item's pk). */
  partitions: string[];
  sk: string | undefined;
  start: number;
  end: number;
}

type Marshalled = { S?: string };
type Keyed = { pk?: Marshalled; sk?: Marshalled };

function partitionsOf(input: Record<string, unknown>): string[] {
  const single = (input.Key ?? input.Item) as Keyed | undefined;
  if (single?.pk?.S) return [single.pk.S];
  const requests = input.RequestItems as Record<string, { PutRequest?: { Item: Keyed }; DeleteRequest?: { Key: Keyed } }[]> | undefined;
  if (!requests || !Array.isArray(Object.values(requests)[0])) return [];
  return Object.values(requests)
    .flat()
    .map((r) => (r.PutRequest?.Item ?? r.DeleteRequest?.Key)?.pk?.S ?? '');
}

let sequence = 0;
const ANSWER_LATE_BY_TURNS = 3;

describe('creating an alert', () => {
  it('writes the word items with the unrouted entry, everything after the put side by side, and sends to routing last', async () => {
    const admin = service.admin;
    const a = await person(admin);
    const t = await team(admin, { layers: [[a.id]] });
    await settle(service);
    const calls: Timed[] = [];
    const stop = onServiceClients('createRoundTrips', (client) => (next, context) => async (args) => {
      const input = args.input;
      const single = (input.Key ?? input.Item) as Keyed | undefined;
      const call: Timed = {
        service: client,
        operation: (context.commandName ?? '').replace(/Command$/, ''),
        partitions: partitionsOf(input),
        sk: single?.sk?.S,
        start: ++sequence,
        end: Infinity,
      };
      calls.push(call);
      try {
        return await next(args);
      } finally {
        // An answer reaches its caller a few turns of the event loop late, as a socket's may: the
        // embedded DynamoDB's port can answer within the turn a group commit waits for (setImmediate),
        // and a write started then has still waited for no other.
        for (let turn = 0; turn < ANSWER_LATE_BY_TURNS; turn++) await new Promise((resolve) => setImmediate(resolve));
        call.end = ++sequence;
      }
    });
    let alertId: string;
    try {
      const res = await admin.post('/api/v4/alerts', {
        title: 'Disk full on kestrel-web-03',
        urgency: 'high',
        destination_team_ids: [t.id],
      });
      expect(res.status, res.text).toBe(201);
      alertId = (res.body as { id: string }).id;
      await settle(service);
    } finally {
      stop();
    }
    const internalId = alertId.replace(/^alt_/, '');
    const send = calls.find((c) => c.service === 'sqs' && c.operation.startsWith('SendMessage'));
    expect(send, 'the routing message').toBeDefined();
    // The request's own calls: every one started before the routing message (routing's come after it).
    const mine = calls.filter((c) => c.service === 'dynamodb' && c.start < send!.start);
    const prefix = `A#${accountId}#`;
    const put = mine.filter((c) => c.operation === 'PutItem' && c.partitions[0] === `${prefix}ALERT` && c.sk === internalId);
    expect(put, JSON.stringify(mine)).toHaveLength(1);

    // Before the put: one BatchWrite holds the unrouted entry and the word items, beside the tiny id's reservation.
    const before = mine.filter((c) => c.end < put[0].start && c.operation !== 'BatchGetItem');
    const batches = before.filter((c) => c.operation === 'BatchWriteItem');
    expect(batches, JSON.stringify(before)).toHaveLength(1);
    expect(batches[0].partitions.some((p) => p.startsWith('ROUTING#UNROUTED#'))).toBe(true);
    expect(batches[0].partitions.some((p) => p.startsWith(`${prefix}ALERT#W#`))).toBe(true);
    const tiny = before.find((c) => c.operation === 'UpdateItem' && c.partitions[0] === `${prefix}TINY`);
    expect(tiny, JSON.stringify(before)).toBeDefined();
    expect(tiny!.start).toBeLessThan(batches[0].end);
    expect(batches[0].start).toBeLessThan(tiny!.end);

    // After the put: the counters, the links, the day buckets and the 'created' entry, all sent before any answered.
    const after = mine.filter((c) => c.start > put[0].end);
    const wanted = [`${prefix}COUNT`, `${prefix}ALERT#L#`, `${prefix}ALERT#CD`, `${prefix}ALERT#RT`, `${prefix}LOG`];
    for (const partition of wanted)
      expect(
        after.some((c) => c.partitions.some((p) => p.startsWith(partition))),
        `${partition} in ${JSON.stringify(after)}`,
      ).toBe(true);
    const firstAnswer = Math.min(...after.map((c) => c.end));
    for (const call of after) expect(call.start, `${JSON.stringify(call)} waited for another write`).toBeLessThan(firstAnswer);
    // The routing message once every write of the request is stored.
    for (const call of mine) expect(call.end, JSON.stringify(call)).toBeLessThan(send!.start);
  });
});
