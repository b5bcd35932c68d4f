// Escalation's close of a workflow by id (lib/alerts/workflow-store.ts closeWorkflowById): one
// conditional UpdateItem without a read, on the real SDK against the emulator, with its counts moved
// exactly once whether the answer arrives, is lost and retried, or the workflow was closed already.
import { describe, expect, it } from 'vitest';
import { closeWorkflowById, getWorkflow } from '../../lib/alerts/workflow-store';
import { typeOf } from '../../lib/entities';
import { newId } from '../../lib/ids';
import { adjustCounts, readRawCounts } from '../../lib/store/counters';
import { recountCounter, typesToRecount } from '../../lib/store/recount';
import { countItems, getItem, putItem } from '../../lib/store/items';
import { dynamoCallsDuring, type AwsCall } from '../support/aws-calls';
import { injectAwsFaults } from '../support/aws-faults';
import { useService } from '../support/runtime';
import { openWorkflow } from './support';

useService();

const type = typeOf('workflow');

/** The DynamoDB calls the service's client makes while `run` runs. */
const callsDuring = async (run: () => Promise<unknown>): Promise<AwsCall[]> => (await dynamoCallsDuring(run)).calls;

const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));

/** The workflow counters: fields `workflow:…` of the notifications' counter item. */
async function workflowCounts(accountId: string): Promise<Record<string, number>> {
  const fields = await readRawCounts(accountId, typeOf('notification'));
  return nonZero(
    Object.fromEntries(Object.entries(fields).flatMap(([field, n]) => (field.startsWith('workflow:') ? [[field.slice(9), n]] : []))),
  );
}

describe('closing a workflow by id', () => {
  it('writes once without reading it and moves its status count', async () => {
    const accountId = newId();
    const alertId = newId();
    const workflow = await openWorkflow(accountId, alertId, newId());
    const calls = await callsDuring(() => closeWorkflowById(accountId, workflow.id, 'timed_out', new Date().toISOString()));
    const onWorkflow = calls.filter((call) => JSON.stringify(call.input).includes(workflow.id));
    expect(onWorkflow.map((call) => call.operation)).toEqual(['UpdateItem']);
    const stored = await getWorkflow(accountId, workflow.id);
    expect(stored).toMatchObject({ status: 'timed_out', version: 2 });
    expect(await workflowCounts(accountId)).toEqual({ total: 1, 'status:timed_out': 1 });
  });

  it('counts in the counter item of notifications, which the recount agrees with; the former one of its own is left alone', async () => {
    const accountId = newId();
    const alertId = newId();
    // As counted before: a counter item of the workflows' own, read by nothing now.
    await adjustCounts(accountId, type, { total: 5, 'status:open': 5 });
    const [first] = await Promise.all([openWorkflow(accountId, alertId, newId()), openWorkflow(accountId, alertId, newId())]);
    await closeWorkflowById(accountId, first.id, 'acknowledged', new Date().toISOString());
    expect(await workflowCounts(accountId)).toEqual({ total: 2, 'status:open': 1, 'status:acknowledged': 1 });
    expect(nonZero(await readRawCounts(accountId, type))).toEqual({ total: 5, 'status:open': 5 });
    expect(await typesToRecount(accountId)).not.toContain(type);
    expect(await recountCounter(accountId, typeOf('notification'), { settleMs: 20 })).toMatchObject({ status: 'exact' });
  });

  it('puts a new workflow in no index', async () => {
    const accountId = newId();
    const workflow = await openWorkflow(accountId, newId(), newId());
    const item = await getItem({ pk: `A#${accountId}#${type}`, sk: workflow.id });
    expect(Object.keys(item ?? {}).filter((name) => name.startsWith('gsi'))).toEqual([]);
  });

  it('removes the open index entry a workflow stored before still has', async () => {
    const accountId = newId();
    const alertId = newId();
    const workflow = await openWorkflow(accountId, alertId, newId());
    // As a workflow was stored before it left the open index: with its entry there while open.
    const key = { pk: `A#${accountId}#${type}`, sk: workflow.id };
    const openPartition = `A#${accountId}#WKF#OPEN#${alertId}`;
    await putItem({ ...(await getItem(key)), gsi1pk: openPartition, gsi1sk: `${workflow.account_user_id}#${workflow.id}` });
    expect(await countItems(openPartition, { index: 'gsi1' })).toBe(1);
    expect(await closeWorkflowById(accountId, workflow.id, 'acknowledged', new Date().toISOString())).toBe(true);
    expect(await countItems(openPartition, { index: 'gsi1' })).toBe(0);
    expect(await getWorkflow(accountId, workflow.id)).toMatchObject({ status: 'acknowledged', version: 2 });
  });

  it('changes nothing on a workflow closed already, or absent', async () => {
    const accountId = newId();
    const workflow = await openWorkflow(accountId, newId(), newId());
    expect(await closeWorkflowById(accountId, workflow.id, 'acknowledged', new Date().toISOString())).toBe(true);
    expect(await closeWorkflowById(accountId, workflow.id, 'timed_out', new Date().toISOString())).toBe(false);
    expect(await closeWorkflowById(accountId, newId(), 'timed_out', new Date().toISOString())).toBe(false);
    expect(await getWorkflow(accountId, workflow.id)).toMatchObject({ status: 'acknowledged', version: 2 });
    expect(await workflowCounts(accountId)).toEqual({ total: 1, 'status:acknowledged': 1 });
  });

  it('finds its own close when the answer was lost and the SDK retried it: closed and counted once', async () => {
    const accountId = newId();
    const workflow = await openWorkflow(accountId, newId(), newId());
    const faults = injectAwsFaults({
      rate: 1,
      kinds: ['lost'],
      only: (call) => call.operation === 'UpdateItem' && JSON.stringify(call.input.Key).includes(workflow.id),
    });
    let closed: boolean;
    try {
      closed = await closeWorkflowById(accountId, workflow.id, 'timed_out', new Date().toISOString());
    } finally {
      faults.stop();
    }
    expect(faults.injected).toHaveLength(1);
    expect(closed).toBe(true);
    expect(await getWorkflow(accountId, workflow.id)).toMatchObject({ status: 'timed_out', version: 2 });
    expect(await workflowCounts(accountId)).toEqual({ total: 1, 'status:timed_out': 1 });
  });
});
