// A resolve that finds no alert for the sender's id is remembered on the id's dedup item
// (lib/alerts/dedup-store.ts rememberResolve), on the real SDK against the emulator: once, never
// going back to an older resolve, and not over a generation a create started; when it is not
// remembered, the item as the failed condition found it comes back, read once.
import { describe, expect, it } from 'vitest';
import { dedupKey, getDedupItem, rememberResolve, startGeneration } from '../../lib/alerts/dedup-store';
import { newId } from '../../lib/ids';
import { dynamoCallsDuring } from '../support/aws-calls';
import { useService } from '../support/runtime';

useService();

/** The DynamoDB operations the service's client sends while `run` runs. */
async function operationsDuring<T>(run: () => Promise<T>): Promise<{ result: T; operations: string[] }> {
  const { result, calls } = await dynamoCallsDuring(run);
  return { result, operations: calls.map((call) => call.operation) };
}

describe('remembering a resolve that found no alert', () => {
  it('is written once, and a later resolve moves it on while an older one does not', async () => {
    const key = dedupKey(newId(), newId(), `disk-${newId()}`);
    const first = await operationsDuring(() => rememberResolve(key, '0002', { thirdparty_id: 'disk' }));
    expect(first.result).toEqual({ remembered: true });
    expect(first.operations).toEqual(['UpdateItem']);
    expect((await getDedupItem(key))?.resolved_by_log).toBe('0002');

    const older = await operationsDuring(() => rememberResolve(key, '0001', { thirdparty_id: 'disk' }));
    expect(older.result.remembered).toBe(false);
    expect(older.result).toMatchObject({ current: { resolved_by_log: '0002' } });
    expect(older.operations).toEqual(['UpdateItem', 'GetItem']);

    expect(await rememberResolve(key, '0003', { thirdparty_id: 'disk' })).toEqual({ remembered: true });
    expect((await getDedupItem(key))?.resolved_by_log).toBe('0003');
  });

  it('is not written over a generation a create started, and gives back that generation', async () => {
    const key = dedupKey(newId(), newId(), `cpu-${newId()}`);
    const alertId = newId();
    expect(await startGeneration(key, 'token-1', alertId, Date.now(), null, { thirdparty_id: 'cpu' })).toBeTruthy();
    const { result, operations } = await operationsDuring(() => rememberResolve(key, '0009', { thirdparty_id: 'cpu' }));
    expect(result.remembered).toBe(false);
    if (result.remembered) return;
    expect(result.current?.alert_id).toBe(alertId);
    expect(result.current?.resolved_by_log).toBeUndefined();
    expect(operations).toEqual(['UpdateItem', 'GetItem']);
  });
});
