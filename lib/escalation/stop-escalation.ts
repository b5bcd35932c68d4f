// Acknowledge and resolve stop every escalation of the alert (docs/api.md#escalation-and-notifications):
// no page after their 200. The alert's transition (one conditional write on its status) is what
// stops it: every step reads the alert again after committing and before its first page, and pages
// nothing once it is acknowledged, resolved or gone (run-step.ts). What is left is a step that read
// the alert before the transition and is paging now: the state item is read here (after the
// transition), its lease holder may no longer extend it (requestStop), and the answer waits until it
// is released or has run out (a sender starts no provider call after its lease's end). The stop is
// then recorded in the escalation's state (workflows closed `acknowledged`, timers moot) here, by a
// step that goes by the item just read and the alert as the transition left it: no read of its own
// (a step that must page nothing needs no second look). Should that step fail, the escalation
// worker records it (a `due` message now, and the due index should that message be lost).
import type { AlertRecord } from '../alerts/records';
import { now as clockNow, sleep } from '../clock';
import { logger } from '../log';
import { runStep } from './run-step';
import { getEscalationForStop, requestStop } from './store';
import { scheduleDue } from './timers';

/** The longest an acknowledgement waits for a step that is paging (a lease lasts 5 s and cannot be extended after requestStop). */
const MAX_WAIT_MS = 8_000;
const POLL_MS = 50;

/**
 * Outcomes that already hold the stop: nothing to record. A resolve after the acknowledgement has
 * nothing to stop either: an acknowledged state escalates nothing (its stop stopped every assignment,
 * and only a hand-off starts again, which makes it `escalating`), and what `resolved` would add, that
 * a later hand-off start is ignored, every step applies from the alert record first (run-step.ts
 * `stopFromAlert`: a resolved alert's state is stopped as resolved before any start): a hand-off that
 * read the alert before this resolve commits, looks at the alert again before its first page, pages
 * nothing and records the stop then. One write of the escalation item fewer in an alert's life.
 */
const HOLDS: Record<'acknowledge' | 'resolve', readonly string[]> = {
  acknowledge: ['acknowledged', 'resolved'],
  resolve: ['acknowledged', 'resolved'],
};

/**
 * Called after the alert's transition to acknowledged or resolved has been written. `alert`: the
 * alert as that write left it (absent for a repeated request, whose alert may have moved on since).
 */
export async function stopEscalation(
  accountId: string,
  alertId: string,
  action: 'acknowledge' | 'resolve',
  alert?: AlertRecord,
): Promise<void> {
  let stored = await getEscalationForStop(accountId, alertId);
  if (!stored) return; // nothing was ever started: a start that comes now reads the alert first
  const paging = stored.leaseOwner;
  if (paging !== null && stored.leaseUntil !== null && stored.leaseUntil >= clockNow()) {
    await requestStop(accountId, alertId, paging);
    const waitUntil = clockNow() + MAX_WAIT_MS;
    while (stored && stored.leaseOwner === paging && stored.leaseUntil !== null && stored.leaseUntil >= clockNow()) {
      if (clockNow() >= waitUntil) throw new Error(`escalation of alert ${alertId} stayed leased while it was being stopped`);
      await sleep(Math.min(POLL_MS, Math.max(1, stored.leaseUntil - clockNow() + 1)));
      stored = await getEscalationForStop(accountId, alertId);
    }
  }
  if (!stored || (stored.state && HOLDS[action].includes(stored.state.outcome))) return;
  try {
    await runStep(accountId, alertId, { kind: 'due' }, { stored, alert });
  } catch (error) {
    logger.warn('escalation: the stop was not recorded on the request path; the escalation worker records it', {
      alertId,
      error: error as Error,
    });
    await scheduleDue(accountId, alertId, clockNow());
  }
}
