// The ingest queue: one message per stored inbound request, `{account_id, log_id}`; the log holds
// the request itself.
import { config } from '../../config';
import { sendBatch } from '../../queues/client';
import { GroupCommit } from '../../group-commit';

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

async function sendGroup(messages: IngestMessage[]): Promise<Array<Error | undefined>> {
  const url = config().INGEST_QUEUE_URL;
  if (!url) throw new Error('INGEST_QUEUE_URL is not configured');
  return sendBatch(
    url,
    messages.map((message) => JSON.stringify(message)),
  );
}

// Sends are group-committed (./group-commit): SendMessageBatch takes up to 10 messages.
const sends = new GroupCommit<IngestMessage>(sendGroup, 10, 4);

/** Queues one stored request for the ingest worker; rejects when the queue did not take it. */
export function sendToIngestQueue(message: IngestMessage): Promise<void> {
  return sends.add(message);
}
