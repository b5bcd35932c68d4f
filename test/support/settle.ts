// Brings the running service to rest before a test asserts that something did NOT happen: every
// queue has nothing waiting and nothing being worked on, seen twice a moment apart. Work a worker
// starts sends its follow-up messages before its own message is deleted, so an empty, quiet
// escalation queue means no page is on its way (timers due later sit delayed and are not counted:
// the test moves its clock, or asserts before they are due).
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { TestService } from './runtime';

async function busy(sqs: SQSClient, service: TestService): Promise<number> {
  const depths = await Promise.all(
    Object.values(service.runtime.queues).map(async (queue) => {
      const out = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queue.url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
    }),
  );
  return depths.reduce((a, b) => a + b, 0);
}

/** Resolves once every queue has been empty and idle for `quietMs`; throws after `timeoutMs`. */
export async function settle(service: TestService, { quietMs = 200, timeoutMs = 20_000 } = {}): Promise<void> {
  const sqs = new SQSClient({ endpoint: service.runtime.emulators.sqsEndpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    const until = Date.now() + timeoutMs;
    let quietSince: number | null = null;
    for (;;) {
      const now = Date.now();
      if ((await busy(sqs, service)) === 0) {
        quietSince ??= now;
        if (now - quietSince >= quietMs) return;
      } else quietSince = null;
      if (now > until) throw new Error(`the service did not come to rest within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    sqs.destroy();
  }
}
