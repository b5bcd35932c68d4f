// The ingest queue: one message per stored inbound request, `{account_id, log_id}`; the log holds
// the request itself. A small log also travels in its message as it was stored (`log`), so that the
// message's first delivery reads none: a redelivery, and a re-send by the sweeper (which sends the ids
// alone), read the log as it is now.
import { config } from '../../config';
import { sendBatch } from '../../queues/client';
import { GroupCommit } from '../../group-commit';
import type { IncomingLog } from './incoming-log';

export interface IngestMessage {
  account_id: string;
  log_id: string;
  /** The log as it was stored when the request was accepted (pending), when it is small. */
  log?: IncomingLog;
}

/**
 * The largest log (its JSON's UTF-8 bytes) a message carries: ten of them in a SendMessageBatch stay
 * far below its 256 KiB, and a webhook's request is ~1–2 KiB. A larger one is read by its worker.
 */
export const CARRIED_LOG_MAX_BYTES = 8 * 1024;

/** The message for a log just stored pending: with the log itself when it is small. */
export function ingestMessageOf(log: IncomingLog): IngestMessage {
  const message: IngestMessage = { account_id: log.account_id, log_id: log.id };
  if (Buffer.byteLength(JSON.stringify(log), 'utf8') <= CARRIED_LOG_MAX_BYTES) message.log = log;
  return message;
}

/** A carried log that is the message's own, pending, with its request: anything else is not used. */
function carriedLog(value: unknown, message: { account_id: string; log_id: string }): IncomingLog | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const log = value as Partial<IncomingLog>;
  const own = log.id === message.log_id && log.account_id === message.account_id && log.status === 'pending';
  return own && typeof log.data?.body === 'string' && typeof log.version === 'number' ? (log as IncomingLog) : undefined;
}

/** The message body, or null when it is not one of ours (a poison message: nothing to retry). */
export function parseIngestMessage(body: string): IngestMessage | null {
  try {
    const value = JSON.parse(body) as Partial<IngestMessage>;
    if (typeof value.account_id === 'string' && typeof value.log_id === 'string') {
      const message: IngestMessage = { account_id: value.account_id, log_id: value.log_id };
      const log = carriedLog(value.log, message);
      if (log) message.log = log;
      return message;
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
