// The service's SQS client resolves each command's middleware stack once (lib/sdk.ts
// resolveStackOnce), and again after a middleware is added or removed: the tests' and benchmarks'
// meters see every call made while they are on, and none after.
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { sqs } from '../../lib/queues/client';
import { useService } from '../support/runtime';

useService(() => Promise.resolve());

describe('the queues client', () => {
  it('sees a middleware added after its first call, and forgets it once removed', async () => {
    await sqs().send(new ListQueuesCommand({}));
    const seen: string[] = [];
    sqs().middlewareStack.add(
      (next, context) => (args) => {
        seen.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'testQueueCallsSeen' },
    );
    try {
      await sqs().send(new ListQueuesCommand({}));
      await sqs().send(new ListQueuesCommand({}));
    } finally {
      sqs().middlewareStack.remove('testQueueCallsSeen');
    }
    await sqs().send(new ListQueuesCommand({}));
    expect(seen).toEqual(['ListQueuesCommand', 'ListQueuesCommand']);
    expect(sqs().config.cacheMiddleware).toBe(true);
  });
});
