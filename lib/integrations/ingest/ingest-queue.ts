// The ingest queue: one message per stored inbound request, `{account_id, log_id}`; the log holds
// the request itself.
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../config';
import { GroupCommit } from './group-commit';

export interface IngestMessage {
  account_id: string;
  log_id: string;
}

/** The message body, or null when it is not one of ours (a poison message: nothing to retry). */
export function parseIngestMessage(body: string): IngestMessage | null {
  try {
    const value = JSON.parse(body) as Partial<IngestMessage>;
    if (typeof value.account_id === 'string' && typeof value.log_id === 'string') {
      return { account_id: value.account_id, log_id: value.log_id };
    }
  } catch {
    // fall through
  }
  return null;
}

let client: SQSClient | undefined;
let clientEndpoint: string | undefined;

/** One client per process; rebuilt when the endpoint changes (the local runtime and tests move it). */
function sqs(): SQSClient {
  const endpoint = process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL;
  if (!client || endpoint !== clientEndpoint) {
    client?.destroy();
    // The endpoint comes from the environment; the queue URL's host (fauxqs names it sqs.<region>.127.0.0.1)
    // is not a usable endpoint, so it must not override it.
    client = new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false });
    clientEndpoint = endpoint;
  }
  return client;
}

async function sendGroup(messages: IngestMessage[]): Promise<Array<Error | undefined>> {
  const url = config().INGEST_QUEUE_URL;
  if (!url) throw new Error('INGEST_QUEUE_URL is not configured');
  const out = await sqs().send(
    new SendMessageBatchCommand({
      QueueUrl: url,
      Entries: messages.map((message, i) => ({ Id: String(i), MessageBody: JSON.stringify(message) })),
    }),
  );
  const failed = new Map((out.Failed ?? []).map((f) => [f.Id, new Error(f.Message ?? f.Code ?? 'send failed')]));
  return messages.map((_, i) => failed.get(String(i)));
}

// Sends are group-committed (./group-commit): SendMessageBatch takes up to 10 messages.
const sends = new GroupCommit<IngestMessage>(sendGroup, 10, 4);

/** Queues one stored request for the ingest worker; rejects when the queue did not take it. */
export function sendToIngestQueue(message: IngestMessage): Promise<void> {
  return sends.add(message);
}
