// What concurrent work of one instance shares (lib/group-commit.ts): escalation steps asking for people
// in the same turn read them in one BatchGetItem, each answered with its own (lib/escalation/inputs.ts);
// routings finishing at once remove their alerts' unrouted entries in one BatchWriteItem
// (lib/alerts/unrouted-store.ts). What each caller gets is what it would get alone.
import { describe, expect, it } from 'vitest';
import { getAlert } from '../../lib/alerts/store';
import { clearUnrouted, listDueUnrouted, markUnrouted } from '../../lib/alerts/unrouted-store';
import { StepInputs } from '../../lib/escalation/inputs';
import { newId } from '../../lib/ids';
import { typeOf } from '../../lib/entities';
import type { ApiClient } from '../support/api-client';
import { dynamoCallsDuring } from '../support/aws-calls';
import { settle } from '../support/quiescence';
import { useService, type TestService } from '../support/runtime';
import { alertTo, person } from './support';

let service: TestService;
let admin: ApiClient;
let accountId: string;

useService(async (started) => {
  service = started;
  admin = service.admin;
  accountId = (await admin.get('/api/v4/account_users?limit=1')).body.data[0].account_id;
});

describe('concurrent calls of one instance', () => {
  it('steps asking for people at once read them in one BatchGetItem, each answered with its own', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => person(admin)));
    const alert = (await getAlert(accountId, (await alertTo(admin, { users: [people[0].id] })).id))!;
    const gone = newId();
    const asks = [...people.map((p) => [p.id]), [people[0].id, gone]];
    const steps = asks.map(() => new StepInputs(accountId, alert, Date.now(), 1));
    // At rest first: the alert's own routing and step read people too.
    await settle(service);
    const { calls } = await dynamoCallsDuring(() => Promise.all(steps.map((step, i) => step.loadAccountUsers(asks[i]))));
    const peopleReads = calls.filter(
      (call) => call.operation === 'BatchGetItem' && JSON.stringify(call.input).includes(`A#${accountId}#${typeOf('accountUser')}`),
    );
    expect(peopleReads).toHaveLength(1);
    steps.forEach((step, i) => {
      for (const id of asks[i]) expect(step.accountUsers.get(id)?.id ?? null, `ask ${i}`).toBe(id === gone ? null : id);
      // Nobody is given a person they did not ask for.
      expect([...step.accountUsers.keys()].sort()).toEqual([...asks[i]].sort());
    });
  });

  it('routings finishing at once remove their unrouted entries in one BatchWriteItem', async () => {
    const alerts = Array.from({ length: 10 }, () => newId());
    // Due long ago, so the listing below would show any entry left.
    for (const id of alerts) await markUnrouted(accountId, id, 0);
    const due = async () => (await listDueUnrouted(Date.now() + 60_000, Date.now(), 1_000)).filter((e) => alerts.includes(e.alert_id));
    expect(await due()).toHaveLength(alerts.length);
    await settle(service);
    const { calls } = await dynamoCallsDuring(() => Promise.all(alerts.map((id) => clearUnrouted(accountId, id))));
    // The service's own timers (the sweeper) may call meanwhile: the calls on these entries are counted.
    const onEntries = calls.filter((call) => JSON.stringify(call.input).includes('ROUTING#UNROUTED#'));
    expect(onEntries.map((call) => call.operation)).toEqual(['BatchWriteItem']);
    expect(await due()).toEqual([]);
  });
});
