// One SQS client per process, like the DynamoDB client. The endpoint comes from the SDK's
// AWS_ENDPOINT_URL(_SQS) variables, never from a queue URL's host: an emulator's queue URLs may
// name a host (sqs.<region>.localhost) that is not a usable endpoint.
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { clientPerEndpoint, resolveStackOnce, serviceClientConfig, trimServiceClient } from '../sdk';

export const sqs: () => SQSClient = clientPerEndpoint('AWS_ENDPOINT_URL_SQS', () => {
  const client = new SQSClient({ ...serviceClientConfig(), useQueueUrlAsEndpoint: false });
  trimServiceClient(client);
  resolveStackOnce(client);
  return client;
});

/** Sends up to 10 bodies in one SendMessageBatch; one error (or undefined) per body. */
export async function sendBatch(queueUrl: string, bodies: string[]): Promise<Array<Error | undefined>> {
  const out = await sqs().send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, i) => ({ Id: String(i), MessageBody: body })),
    }),
  );
  const failed = new Map((out.Failed ?? []).map((f) => [f.Id, new Error(f.Message ?? f.Code ?? 'send failed')]));
  return bodies.map((_, i) => failed.get(String(i)));
}

/** Sends one body that becomes visible after `delaySeconds` (0..900, SQS's bound for a message delay). */
export async function sendDelayed(queueUrl: string, body: string, delaySeconds: number): Promise<void> {
  await sqs().send(
    new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body, DelaySeconds: Math.max(0, Math.min(900, Math.ceil(delaySeconds))) }),
  );
}
