// A broadcast's step, run by its queue message or by the sweeper (docs/api.md#broadcasts), idempotent:
//   queued → claim the delivery (a lease, by a versioned save) → deliver → open (something was sent)
//            or errored (nothing could be sent); a delivery cut short by its lease stays queued, and
//            its due time (the lease's end) brings the next run, which sends only what is missing;
//   open   → closed once response_requested_by has passed.
// Anything else has nothing due: its due time is cleared.
import { now as clockNow, sleep } from '../clock';
import { IN_PROCESS_WAIT_MS } from '../queues/delayed';
import { deliverBroadcast } from './deliver-broadcast';
import { closedRecord, type BroadcastRecord } from './records';
import { getBroadcast, saveBroadcast } from './store';
import { chainBroadcastMessage, scheduleBroadcast, type BroadcastMessage } from './timers';

/**
 * How long one run may deliver before another may take over (a crashed run's sends resume then):
 * inside the escalation worker's 30 s timeout, so a run the platform stops is never overlapped.
 */
export const DELIVERY_LEASE_MS = 25_000;
/** No provider call starts this close to the lease's end; the rest goes on in the next run. */
const LEASE_MARGIN_MS = 5_000;
const ATTEMPTS = 8;

export function deadlinePassed(record: BroadcastRecord, now: number): boolean {
  return record.response_requested_by !== null && Date.parse(record.response_requested_by) <= now;
}

export async function processBroadcastMessage(message: BroadcastMessage): Promise<void> {
  const early = message.due_at - clockNow();
  if (early > IN_PROCESS_WAIT_MS) {
    await chainBroadcastMessage(message);
    return;
  }
  if (early > 0) await sleep(early);
  await runBroadcastStep(message.account_id, message.broadcast_id);
}

export async function runBroadcastStep(accountId: string, broadcastId: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await getBroadcast(accountId, broadcastId);
    if (!current) return;
    const now = clockNow();
    if (current.status === 'queued') {
      // Another run is delivering: its lease's end is the due time that brings a run back if it crashed.
      if (current.lease_until !== null && current.lease_until > now) return;
      const leaseUntil = now + DELIVERY_LEASE_MS;
      const claimed: BroadcastRecord = { ...current, lease_until: leaseUntil, due_at: leaseUntil + 1_000, version: current.version + 1 };
      if (!(await saveBroadcast(claimed))) continue;
      const outcome = await deliverBroadcast(claimed, () => clockNow() < leaseUntil - LEASE_MARGIN_MS);
      if (!outcome.complete) {
        await scheduleBroadcast(accountId, broadcastId, leaseUntil + 1_000);
        return;
      }
      await finishDelivery(claimed, outcome.sent > 0 ? 'open' : 'errored', outcome.recipients);
      return;
    }
    if (current.status === 'open' && deadlinePassed(current, now)) {
      if (await saveBroadcast(closedRecord(current, now))) return;
      continue;
    }
    if (current.status === 'open' && current.due_at !== null && current.due_at > now) {
      // Early (a re-armed or chained timer): the deadline's own message is on its way.
      return;
    }
    if (current.due_at === null && current.lease_until === null) return;
    const cleared: BroadcastRecord = { ...current, due_at: null, lease_until: null, version: current.version + 1 };
    if (await saveBroadcast(cleared)) return;
  }
}

/** queued → open or errored, the lease released, the deadline's timer set (unless it was closed meanwhile). */
async function finishDelivery(claimed: BroadcastRecord, status: 'open' | 'errored', recipients: number): Promise<void> {
  let current: BroadcastRecord | null = claimed;
  for (let attempt = 0; attempt < ATTEMPTS && current; attempt++) {
    const now = clockNow();
    const iso = new Date(now).toISOString();
    const deadline = status === 'open' && current.response_requested_by ? Date.parse(current.response_requested_by) : null;
    const next: BroadcastRecord =
      current.status === 'queued'
        ? {
            ...current,
            status,
            recipients_count: recipients,
            sent_at: iso,
            lease_until: null,
            due_at: deadline,
            updated_at: iso,
            version: current.version + 1,
          }
        : // closed while it was being delivered: it stays closed, and keeps no timer
          {
            ...current,
            recipients_count: recipients,
            sent_at: current.sent_at ?? iso,
            lease_until: null,
            due_at: null,
            version: current.version + 1,
          };
    if (await saveBroadcast(next)) {
      if (next.due_at !== null) await scheduleBroadcast(next.account_id, next.id, next.due_at);
      return;
    }
    current = await getBroadcast(claimed.account_id, claimed.id);
  }
}
