// What waits longest (GET /health): the oldest inbound webhook accepted but not yet processed, and
// the entry of the due index whose time passed longest ago (an escalation step or a storm flush that
// its delayed message did not run, a heartbeat's deadline, a broadcast's or Slack message's retry:
// `kind` says which; a heartbeat's entry may trail its deadline by one sweep by design). Both from the indexes the sweeper reads, each shard's first
// entries only: a few bounded queries, remembered for 5 seconds like the queue depths.
import { now as clockNow } from '../clock';
import { oldestPendingLogAt } from '../integrations/ingest/incoming-log';
import { listDue } from '../store/due-index';

export interface Backlog {
  /** The oldest webhook still pending (stored and answered 202, not yet turned into alert actions). */
  oldest_pending_webhook: { received_at: string; age_seconds: number } | null;
  /** The earliest due time in the due index that has passed. */
  oldest_overdue_step: { due_at: string; overdue_seconds: number; kind: DueKind } | null;
}

type DueKind = 'escalation' | 'notification_flush' | 'heartbeat' | 'broadcast' | 'slack_message' | 'audit_event';

/** What a due entry is, by the prefix its store gives it (lib/store/due-index.ts). */
const KIND_BY_PREFIX: [string, DueKind][] = [
  ['RATE#', 'notification_flush'],
  ['HB#', 'heartbeat'],
  ['AUDIT#', 'audit_event'],
  ['BRD#', 'broadcast'],
  ['SLACK#', 'slack_message'],
];

const REMEMBER_MS = 5_000;
let remembered: { at: number; backlog: Promise<Backlog> } | null = null;

const seconds = (ms: number) => Math.max(0, Math.round(ms / 100) / 10);

async function readBacklog(now: number): Promise<Backlog> {
  const [receivedAt, due] = await Promise.all([oldestPendingLogAt(), listDue(now, 1)]);
  const earliest = due.reduce<(typeof due)[number] | null>((first, entry) => (!first || entry.dueAt < first.dueAt ? entry : first), null);
  return {
    oldest_pending_webhook:
      receivedAt === null ? null : { received_at: new Date(receivedAt).toISOString(), age_seconds: seconds(now - receivedAt) },
    oldest_overdue_step: earliest
      ? {
          due_at: new Date(earliest.dueAt).toISOString(),
          overdue_seconds: seconds(now - earliest.dueAt),
          kind: KIND_BY_PREFIX.find(([prefix]) => earliest.what.startsWith(prefix))?.[1] ?? 'escalation',
        }
      : null,
  };
}

/** The backlog, read at most every 5 seconds; throws when the table cannot be read. */
export async function backlog(now = clockNow()): Promise<Backlog> {
  if (!remembered || now < remembered.at || now - remembered.at >= REMEMBER_MS) {
    const reading = readBacklog(now);
    remembered = { at: now, backlog: reading };
    reading.catch(() => {
      if (remembered?.backlog === reading) remembered = null;
    });
  }
  return remembered.backlog;
}
