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
import { dynamoCallsDuring } from '../support/aws-calls';
import { settle } from '../support/quiescence';
import { useServiceAccount } from '../support/runtime';
import { alertTo, person } from './support';

const the = useServiceAccount();

describe('concurrent calls of one instance', () => {
  it('steps asking for people at once read them in one BatchGetItem, each answered with its own', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => person(the.admin)));
    const alert = (await getAlert(the.accountId, (await alertTo(the.admin, { users: [people[0].id] })).id))!;
    const gone = newId();
    const asks = [...people.map((p) => [p.id]), [people[0].id, gone]];
    const steps = asks.map(() => new StepInputs(the.accountId, alert, Date.now(), 1));
    // At rest first: the alert's own routing and step read people too.
    await settle(the.service);
    const { calls } = await dynamoCallsDuring(() => Promise.all(steps.map((step, i) => step.loadAccountUsers(asks[i]))));
    const peopleReads = calls.filter(
      (call) => call.operation === 'BatchGetItem' && JSON.stringify(call.input).includes(`A#${the.accountId}#${typeOf('accountUser')}`),
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
    for (const id of alerts) await markUnrouted(the.accountId, id, 0);
    const due = async () => (await listDueUnrouted(Date.now() + 60_000, Date.now(), 1_000)).filter((e) => alerts.includes(e.alert_id));
    expect(await due()).toHaveLength(alerts.length);
    await settle(the.service);
    const { calls } = await dynamoCallsDuring(() => Promise.all(alerts.map((id) => clearUnrouted(the.accountId, id))));
    // The service's own timers (the sweeper) may call meanwhile: the calls on these entries are counted.
    const onEntries = calls.filter((call) => JSON.stringify(call.input).includes('ROUTING#UNROUTED#'));
    expect(onEntries.map((call) => call.operation)).toEqual(['BatchWriteItem']);
    expect(await due()).toEqual([]);
  });
});
