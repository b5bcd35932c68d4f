// The service's clients of the table and of the queues resolve each command's middleware stack once
// (lib/sdk.ts resolveStackOnce), and again after a middleware is added or removed: the tests' and
// benchmarks' meters (test/support/aws-calls.ts onServiceClients) see every call made while they
// are on, and none after.
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { newId } from '../lib/ids';
import { sqs } from '../lib/queues/client';
import { db, tableName } from '../lib/store/client';
import { GetCommand } from '../lib/store/commands';
import { onServiceClients } from './support/aws-calls';
import { useService } from './support/runtime';

useService(() => Promise.resolve());

const callBoth = async () => {
  await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `TESTSTACK#${newId()}`, sk: 'none' } }));
  await sqs().send(new ListQueuesCommand({}));
};

describe('the service clients', () => {
  it('see a middleware added after their first call, and none once it is removed', async () => {
    await callBoth();
    const seen: string[] = [];
    const remove = onServiceClients('testCallsSeen', (service) => (next, context) => (args) => {
      seen.push(`${service} ${context.commandName}`);
      return next(args);
    });
    try {
      await callBoth();
      await callBoth();
    } finally {
      remove();
    }
    await callBoth();
    expect(seen).toEqual(['dynamodb GetItemCommand', 'sqs ListQueuesCommand', 'dynamodb GetItemCommand', 'sqs ListQueuesCommand']);
    expect([db().config.cacheMiddleware, sqs().config.cacheMiddleware]).toEqual([true, true]);
  });
});
