// Acknowledge and resolve stop every escalation of the alert (docs/api.md#escalation-and-notifications):
// no page after their 200. The alert's transition (one conditional write on its status) is what
// stops it: every step reads the alert again after committing and before its first page, and pages
// nothing once it is acknowledged, resolved or gone (run-step.ts). What is left is a step that read
// the alert before the transition and is paging now: its lease is read here (after the transition),
// its holder may no longer extend it (requestStop), and the answer waits until it is released or
// has run out (a sender starts no provider call after its lease's end). Recording the stop in the
// escalation's state (workflows closed `acknowledged`, timers moot) is the escalation worker's: a
// `due` message now, and the due index should that message be lost.
import { now as clockNow, sleep } from '../clock';
import { getEscalationLease, requestStop } from './store';
import { scheduleDue } from './timers';

/** The longest an acknowledgement waits for a step that is paging (a lease lasts 5 s and cannot be extended after requestStop). */
const MAX_WAIT_MS = 8_000;
const POLL_MS = 50;

/** Outcomes that already hold the stop: nothing to record. */
const HOLDS: Record<'acknowledge' | 'resolve', readonly string[]> = {
  acknowledge: ['acknowledged', 'resolved'],
  resolve: ['resolved'],
};

/** Called after the alert's transition to acknowledged or resolved has been written. */
export async function stopEscalation(accountId: string, alertId: string, action: 'acknowledge' | 'resolve'): Promise<void> {
  let lease = await getEscalationLease(accountId, alertId);
  if (!lease) return; // nothing was ever started: a start that comes now reads the alert first
  const paging = lease.leaseOwner;
  if (paging !== null && lease.leaseUntil !== null && lease.leaseUntil >= clockNow()) {
    await requestStop(accountId, alertId, paging);
    const waitUntil = clockNow() + MAX_WAIT_MS;
    while (lease && lease.leaseOwner === paging && lease.leaseUntil !== null && lease.leaseUntil >= clockNow()) {
      if (clockNow() >= waitUntil) throw new Error(`escalation of alert ${alertId} stayed leased while it was being stopped`);
      await sleep(Math.min(POLL_MS, Math.max(1, lease.leaseUntil - clockNow() + 1)));
      lease = await getEscalationLease(accountId, alertId);
    }
  }
  if (lease && lease.outcome !== null && HOLDS[action].includes(lease.outcome)) return;
  await scheduleDue(accountId, alertId, clockNow());
}
