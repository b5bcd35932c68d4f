// The interface between routing and escalation (docs/api.md#escalation-and-notifications): an alert's assignments start
// escalating. Every team target runs that team's policy over its schedule, every account user
// target is paged alone; a target with `delay_ms` starts after that delay (÷ TIME_SCALE, through
// the escalation timers, kept in the table so a crash cannot lose it). Idempotent by `key`: the same
// routing message delivered twice starts nothing twice. For the routing worker: it sends the pages
// itself (a hand-off, on the request path, leaves them to the escalation worker: page-handoff.ts).
import type { AlertRecord } from '../alerts/records';
import { runStep, type StartTarget, type StepResult } from './run-step';
import type { PageTemplate } from './engine';
import { sendEffects } from './send-effects';
import { noEscalation } from './store';

export interface StartEscalation {
  accountId: string;
  alertId: string;
  /** A business id of this assignment (a routing message, a hand-off): the same key twice is one start. */
  key: string;
  targets: StartTarget[];
  /** alert_handoff makes it a hand-off: it replaces the alert's assignments and pages with that template. */
  template?: PageTemplate;
  /** The alert as the caller has just written (or read) it: the start goes by it instead of reading it again (run-step.ts `StepOptions.alert`). */
  alert?: AlertRecord;
  /**
   * The caller has just stored the decision this start carries out, for an alert it found open and
   * never handed off: most likely no escalation item exists, so the first attempt goes by none
   * instead of reading it. Its commit then writes only where none is (attribute_not_exists): where an
   * item is after all (an acknowledgement's stop since, an earlier decision's start), the commit
   * fails and the step reads it and goes on as always.
   */
  presumeNone?: boolean;
}

export async function startEscalation(start: StartEscalation): Promise<StepResult | null> {
  if (start.targets.length === 0) return null;
  return runStep(
    start.accountId,
    start.alertId,
    { kind: 'start', key: start.key, targets: start.targets, template: start.template },
    // The routing message comes again if this start does not finish: it finishes a leftover outbox.
    {
      send: sendEffects,
      retriedByQueue: true,
      alert: start.alert,
      stored: start.presumeNone ? noEscalation(start.accountId, start.alertId) : undefined,
    },
  );
}
