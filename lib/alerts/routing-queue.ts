// The hand-off of a new alert to the routing pipeline (contract §6): a message {account_id,
// alert_id} on the routing queue. One SQS client per process, like the DynamoDB client; the
// endpoint comes from the SDK's AWS_ENDPOINT_URL(_SQS) variables.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';

export interface RoutingMessage {
  account_id: string;
  alert_id: string;
}

let client: SQSClient | undefined;
let clientEndpoint: string | undefined;

function sqs(): SQSClient {
  // The local runtime and the tests may point the process at another emulator between runs.
  const endpoint = process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL;
  if (!client || clientEndpoint !== endpoint) {
    client?.destroy();
    // The endpoint is the configured one, never the queue URL's host: an emulator's queue URLs may
    // name a host that is not a valid URL origin.
    client = new SQSClient({ maxAttempts: 4, useQueueUrlAsEndpoint: false });
    clientEndpoint = endpoint;
  }
  return client;
}

export async function sendToRouting(message: RoutingMessage): Promise<void> {
  const queueUrl = config().ROUTING_QUEUE_URL;
  if (!queueUrl) throw new Error('ROUTING_QUEUE_URL is not configured: alerts cannot be routed');
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
}

/** Reads a routing message; null when the body is not one (it can never succeed). */
export function parseRoutingMessage(body: string): RoutingMessage | null {
  try {
    const parsed = JSON.parse(body) as Partial<RoutingMessage>;
    if (typeof parsed?.account_id === 'string' && typeof parsed.alert_id === 'string') {
      return { account_id: parsed.account_id, alert_id: parsed.alert_id };
    }
  } catch {
    // fall through
  }
  return null;
}
