// Carries out an escalation step's effects (lib/escalation/engine SEMANTICS.md), each exactly once
// by its idempotency key: alert status changes are conditional (dropped only from open, open only
// from dropped), timeline entries and notifications have ids derived from the effect's key (a
// workflow is the escalation item's and has no item of its own), and a notification is
// moved queued → sending before its provider is called (lib/notify/send.ts). Pages and notifies go
// out only while the step's lease leaves time for it (mayStart); a step whose pages were superseded
// by an acknowledgement cancels what was still queued instead. Sending and cancelling are
// send-effects.ts's, handed in (`send`) by the workers only: a request path (reject, hand-off) hands
// its pages to the escalation worker instead (run-step.ts), so notification content and providers
// stay out of the HTTP functions' bundles.
import type { AlertRecord } from '../alerts/records';
import { getAlert, changeStatus, saveAlert } from '../alerts/store';
import { recordTimeline, recordTimelinePack, TIMELINE_ENTRY_COUNT, type TimelineAction, type TimelineEntry } from '../alerts/timeline';
import { derivedUlid, newId, sequencedUlid } from '../ids';
import { updateWithRetry, done } from '../store/retry';
import type { AssignmentStartedEffect, EscalationEffect, LogEffect, NotifyEffect, PageEffect } from './engine';
import type { StepInputs } from './inputs';
import { scheduleDue } from './timers';

export interface CarryOutOptions {
  accountId: string;
  alertId: string;
  inputs: StepInputs;
  /** False once no provider call may start (the lease is about to end). */
  mayStart: () => boolean;
  /** Pages and notifies of these effects are not sent: queued ones are cancelled (an acknowledgement came first). */
  superseded?: readonly EscalationEffect[];
  /** False: the alert was acknowledged or resolved meanwhile, nothing is sent (records still are). */
  sendsAllowed?: Promise<boolean>;
  /** The alert's first pages (routing started its escalation in this step): their time to page is measured (lib/metrics.ts). */
  firstPages?: boolean;
  /**
   * The step that committed this outbox just now carries it out (not a take-over of one left behind):
   * no earlier carrier can have written its timeline entries, so they are put without a condition,
   * sharing a grouped BatchWrite, and counted by this write (lib/alerts/timeline.ts `fresh`).
   */
  committedNow?: boolean;
}

/** Sends pages and notifies, and cancels superseded ones (send-effects.ts). */
export type SendEffects = (sends: readonly (PageEffect | NotifyEffect)[], options: CarryOutOptions) => Promise<void>;

export const isSendEffect = (effect: EscalationEffect): effect is PageEffect | NotifyEffect =>
  effect.type === 'page' || effect.type === 'notify';

/** Log kinds that become timeline entries (the others are written by the change they describe). */
const TIMELINE_OF: Partial<Record<LogEffect['kind'], TimelineAction>> = {
  escalated: 'escalated',
  layer_skipped: 'layer_skipped',
  repeated: 'repeated',
  reassigned: 'reassigned',
  exhausted: 'exhausted',
  superseded: 'superseded',
  unreachable: 'unreachable',
  // not an engine log kind: written from the step's timed-out workflows (timeouts below)
  ...({ timed_out: 'timed_out' } as Partial<Record<LogEffect['kind'], TimelineAction>>),
};

/**
 * An effect whose carrying out writes nothing (carryOutRecord below): a workflow opened or closed
 * (the escalation item holds it), unless closed `timed_out` (its step's timeline entry is derived
 * from those closes, timeouts below); a log with no timeline entry; an assignment other than a
 * reassignment. The step keeps them out of the outbox it stores (lib/escalation/run-step.ts), so a
 * stop that only closes workflows commits alone: no outbox, lease or release.
 */
export function writesNothing(effect: EscalationEffect): boolean {
  switch (effect.type) {
    case 'open_workflow':
      return true;
    case 'close_workflow':
      return effect.status !== 'timed_out';
    case 'log':
      return TIMELINE_OF[effect.kind] === undefined;
    case 'assignment_started':
      return effect.origin !== 'reassign';
    default:
      return false;
  }
}

const CONCURRENCY = 16;

export async function inParallel<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await run(item);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  if (errors.length) throw errors[0];
}

/** Carries out the effects; sends (and cancellations of superseded ones) only through `send`, which a caller without one leaves out. */
export async function carryOutEffects(effects: readonly EscalationEffect[], options: CarryOutOptions, send?: SendEffects): Promise<void> {
  const records = effects.filter((e) => !isSendEffect(e) && e.type !== 'schedule_timer');
  const sends = effects.filter(isSendEffect);
  const timers = effects.filter((e) => e.type === 'schedule_timer');

  // Records, pages and timers do not depend on each other: they go out side by side.
  const carryRecords = async () => {
    // The alert names its new assignee before the timeline says it was reassigned: the entry's
    // event (lib/alerts/alert-events.ts) then finds the alert as it is (Slack's team messages).
    await reassignAlert(
      effects.filter((e): e is AssignmentStartedEffect => e.type === 'assignment_started' && e.origin === 'reassign'),
      options,
    );
    // Entries of one step share its millisecond: their ids carry the effect's place in the step, so
    // the timeline reads in the engine's order (timed out → escalated …, exhausted → dropped).
    const order = new Map<EscalationEffect, number>(effects.map((effect, index) => [effect, index]));
    const timed = timeouts(effects);
    for (const entry of timed) order.set(entry.effect, entry.after);
    const all = [...records, ...timed.map((t) => t.effect)];
    const packs = timelinePacks(all, order);
    const packed = new Set<EscalationEffect>(packs.flat());
    await inParallel<EscalationEffect | LogEffect[]>([...all.filter((effect) => !packed.has(effect)), ...packs], (work) =>
      Array.isArray(work) ? carryOutLogPack(work, options, order) : carryOutRecord(work, options, order.get(work) ?? 0),
    );
  };
  const dueTimes = [...new Set(timers.map((e) => (e.type === 'schedule_timer' ? e.dueAt : 0)))];
  await Promise.all([
    carryRecords(),
    send && (sends.length || options.superseded?.length) ? send(sends, options) : undefined,
    ...dueTimes.map((dueAt) => scheduleDue(options.accountId, options.alertId, dueAt)),
  ]);
}

/**
 * A layer's (or a lone person's) timeout on the timeline, once per step: the workflows it closed
 * `timed_out` (outgoing webhooks publish it as alert.timeout). A hand-off closes workflows that way
 * too, and says so itself (superseded), as does a step whose people were all unreachable: no
 * timeout entry then.
 */
function timeouts(effects: readonly EscalationEffect[]): { effect: LogEffect; after: number }[] {
  if (effects.some((e) => e.type === 'log' && e.kind === 'superseded')) return [];
  const stepOf = (key: string) => key.split('/').slice(0, 3).join('/');
  // A step whose people were all unreachable says so itself (unreachable), not as a timeout.
  const unreachable = new Set(effects.filter((e) => e.type === 'log' && e.kind === 'unreachable').map((e) => stepOf(e.key)));
  const steps = new Map<string, { at: number; assignmentId: string; people: string[]; index: number }>();
  effects.forEach((effect, index) => {
    if (effect.type !== 'close_workflow' || effect.status !== 'timed_out') return;
    const step = stepOf(effect.key);
    if (unreachable.has(step)) return;
    const entry = steps.get(step) ?? { at: effect.at, assignmentId: effect.assignmentId, people: [], index };
    entry.people.push(effect.accountUserId);
    steps.set(step, entry);
  });
  return [...steps].map(([step, entry]) => ({
    effect: {
      type: 'log',
      kind: 'timed_out' as LogEffect['kind'],
      key: `${step}/timed_out`,
      at: entry.at,
      assignmentId: entry.assignmentId,
      detail: { account_user_ids: entry.people },
    },
    after: entry.index,
  }));
}

/**
 * The timeline entries a step writes that share one item (lib/logs/packed.ts: a layer's timed_out and
 * the next layer's escalated): runs of two or more `log` entries of the same millisecond, next to each
 * other in the step's order with no other entry between them (a status change's entry is written
 * with its change, alone).
 */
function timelinePacks(effects: readonly EscalationEffect[], order: ReadonlyMap<EscalationEffect, number>): LogEffect[][] {
  const entries = effects
    .filter((effect) => (effect.type === 'log' && TIMELINE_OF[effect.kind] !== undefined) || effect.type === 'set_alert_status')
    .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const packs: LogEffect[][] = [];
  let run: LogEffect[] = [];
  const close = () => {
    if (run.length >= 2) packs.push(run);
    run = [];
  };
  for (const effect of entries) {
    if (effect.type !== 'log' || (run.length > 0 && run[0].at !== effect.at)) close();
    if (effect.type === 'log') run.push(effect);
  }
  close();
  return packs;
}

async function carryOutLogPack(
  effects: readonly LogEffect[],
  options: CarryOutOptions,
  order: ReadonlyMap<EscalationEffect, number>,
): Promise<void> {
  await recordTimelinePack(
    effects.map((effect) => logEntry(effect, options, order.get(effect) ?? 0)),
    { fresh: options.committedNow === true },
  );
}

/** A `log` effect's timeline entry; its id is the one it has when written alone. */
function logEntry(effect: LogEffect, options: CarryOutOptions, sequence: number): TimelineEntry {
  return {
    alert: options.inputs.alert,
    action: TIMELINE_OF[effect.kind]!,
    oldStatus: null,
    newStatus: null,
    time: new Date(effect.at).toISOString(),
    id: sequencedUlid(effect.at, sequence, effect.key),
    details: { ...effect.detail, assignment_id: effect.assignmentId },
  };
}

async function carryOutRecord(effect: EscalationEffect, options: CarryOutOptions, sequence: number): Promise<void> {
  const { accountId, alertId } = options;
  const iso = new Date(effect.at).toISOString();
  switch (effect.type) {
    // A workflow lives in the escalation item, which the step has committed before carrying this out:
    // no item of its own (the timeout's timeline entry is derived from the closes, timeouts above).
    case 'open_workflow':
    case 'close_workflow':
      return;
    case 'set_alert_status': {
      const from = effect.status === 'dropped' ? (['open'] as const) : (['dropped'] as const);
      const action: TimelineAction = effect.status === 'dropped' ? 'dropped' : 'reopened';
      const id = sequencedUlid(effect.at, sequence, effect.key);
      // The effect's key is the change's idempotency key: an outbox carried out again (a crash, a lost
      // answer) finds its mark on the alert and changes nothing, even once the alert moved back.
      await changeStatus(accountId, alertId, {
        from,
        to: effect.status,
        now: iso,
        request: { key: effect.key, call: newId() },
        counts: TIMELINE_ENTRY_COUNT,
        alongside: (before, after) =>
          recordTimeline(
            {
              alert: after,
              action,
              oldStatus: before.status,
              newStatus: after.status,
              time: iso,
              id,
              details: { reason: effect.status === 'dropped' ? 'escalation exhausted: nobody acknowledged' : 'assigned again' },
            },
            { counted: true },
          ),
      });
      return;
    }
    case 'log': {
      if (!TIMELINE_OF[effect.kind]) return;
      await recordTimeline(logEntry(effect, options, sequence), { fresh: options.committedNow === true });
      return;
    }
    default:
      return;
  }
}

/** A policy's reassignment moves d_team_id / d_user_id to the first new target (docs/api.md#escalation-and-notifications "the alert is reassigned"). */
async function reassignAlert(started: AssignmentStartedEffect[], options: CarryOutOptions): Promise<void> {
  const first = started[0];
  if (!first) return;
  let userId: string | null = null;
  if (first.target.type === 'account_user') {
    await options.inputs.loadAccountUsers([first.target.accountUserId]);
    userId = options.inputs.accountUsers.get(first.target.accountUserId)?.user_id ?? null;
  }
  const teamId = first.target.type === 'team' ? first.target.teamId : null;
  await updateWithRetry<AlertRecord, void>({
    load: () => getAlert(options.accountId, options.alertId),
    edit: (alert) => {
      if (!alert) return done();
      const next = { assigned_team_id: teamId ?? alert.assigned_team_id, assigned_user_id: teamId ? null : userId };
      if (alert.assigned_team_id === next.assigned_team_id && alert.assigned_user_id === next.assigned_user_id) return done();
      return { ...alert, ...next, version: alert.version + 1, updated_at: new Date(first.at).toISOString() };
    },
    save: (next, alert) => saveAlert(alert, next),
    saved: () => undefined,
    exhausted: () => undefined,
  });
}

export function notificationIdOf(effect: Pick<EscalationEffect, 'at' | 'key'>, channel: string): string {
  return derivedUlid(effect.at, `${effect.key}#${channel}`);
}
