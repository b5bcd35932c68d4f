// One step of an alert's escalation (docs/api.md#escalation-and-notifications), however it was asked for: a start, a timer (or
// the sweeper finding one late), acknowledge, resolve, reject or a page's failed message (failover). Flow: read the state item
// consistently → wait while another step holds a live lease → carry out an outbox a crashed step
// left (or, when the alert is being stopped, keep only its records) → apply what the alert record
// already says (acknowledged, resolved, deleted) → advance the engine → write state, outbox, due
// time and a lease in ONE conditional put (item version, no live foreign lease) → carry the outbox
// out → release. A lost race reads again; a step that changes nothing writes nothing, so a step
// runs once however often its message arrives, and no page goes out after acknowledge's 200
// (the step reads the alert again before its first page; acknowledge, after its transition, waits
// for a lease it finds, which can no longer be extended then; and a sender starts no provider call
// after its lease's end).
import { now as clockNow, scaledMs, sleep, timeScale } from '../clock';
import { getAlert } from '../alerts/store';
import type { AlertRecord } from '../alerts/records';
import { newId } from '../ids';
import { logger } from '../log';
import { recordMetric } from '../metrics';
import { carryOutEffects, isSendEffect, writesNothing, type CarryOutOptions, type SendEffects } from './effects';
import { withCountsDeferred } from '../store/deferred-counts';
import {
  advanceWithLoader,
  dueTimeouts,
  initialState,
  nextDueAt,
  requiredTeamIds,
  type AssignmentTarget,
  type EscalationEffect,
  type EscalationEvent,
  type EscalationState,
  type IgnoredReason,
  type PageTemplate,
} from './engine';
import { StepInputs } from './inputs';
import {
  commitEscalation,
  extendLease,
  getEscalation,
  releaseEscalation,
  removeEscalation,
  takeOverEscalation,
  type DeferredStart,
  type StoredEscalation,
} from './store';
import { scheduleDue } from './timers';

/** How long a step may page before acknowledge may take over (a crashed holder's pages stop here). */
export const LEASE_MS = 5_000;
/** No provider call starts this close to the lease's end. */
const LEASE_MARGIN_MS = 1_000;
/** A leftover outbox is due for the sweeper this long after its lease ends. */
const LEFTOVER_GRACE_MS = 1_000;
const MAX_ATTEMPTS = 25;
/** The longest a step waits for another one's lease (a long fan-out extends it); an HTTP function has 10 s. */
const MAX_WAIT_MS = 8_000;

export type StepIntent =
  | {
      kind: 'event';
      event: DistributiveOmit<Exclude<EscalationEvent, { type: 'start' | 'timeout' }>, 'at'>;
      /** The request's idempotency key: kept with the state once the event applied; a step asked
       * for with a key the state keeps changes nothing (`repeated`). */
      requestKey?: string;
    }
  | { kind: 'start'; key: string; targets: StartTarget[]; template?: PageTemplate }
  /** Whatever is due now: timeouts, deliveries of notification plans, delayed starts, a leftover outbox. */
  | { kind: 'due' };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface StartTarget {
  type: 'team' | 'account_user';
  id: string;
  /** Unscaled: the start waits this long (÷ TIME_SCALE). */
  delay_ms?: number;
}

export interface StepResult {
  changed: boolean;
  /** Why the asked-for event changed nothing (reject: no_open_workflow). */
  ignored?: IgnoredReason;
  /** The request's key was applied before: nothing was done. */
  repeated?: boolean;
  state: EscalationState | null;
  alert: AlertRecord | null;
}

function targetOf(target: StartTarget): AssignmentTarget {
  return target.type === 'team' ? { type: 'team', teamId: target.id } : { type: 'account_user', accountUserId: target.id };
}

/** The stop the alert record already holds, for a state that has not applied it yet. */
function stopFromAlert(alert: AlertRecord | null, state: EscalationState): EscalationEvent['type'] | null {
  if (state.outcome === 'resolved') return null;
  if (!alert || alert.status === 'resolved' || alert.status === 'archived' || alert.status === 'suppressed') return 'resolve';
  if (alert.status === 'acknowledged' && state.outcome !== 'acknowledged') return 'acknowledge';
  return null;
}

function dueOf(state: EscalationState, deferred: DeferredStart[], leftoverUntil: number | null): number | null {
  const times = [nextDueAt(state), ...deferred.map((d) => d.due_at), leftoverUntil].filter((t): t is number => t !== null);
  return times.length ? Math.min(...times) : null;
}

/** An effect kept in the outbox only so a crash cannot leave its queued notifications behind. */
const markSuperseded = (effect: EscalationEffect): EscalationEffect => Object.assign({}, effect, { superseded: true });
const isSuperseded = (effect: EscalationEffect) => (effect as { superseded?: boolean }).superseded === true;

const isSend = (effect: EscalationEffect) => effect.type === 'page' || effect.type === 'notify' || effect.type === 'schedule_timer';

export interface StepOptions {
  /**
   * Sends pages and notifies (send-effects.ts): the workers pass it. Without it (the HTTP functions:
   * reject, hand-off) the step carries out its records and timers and hands its pages to the
   * escalation worker, in the item's outbox and by a `due` message, so those functions' bundles
   * hold no notification content or providers. A request path also leaves a leftover outbox to the
   * worker, and waits for it.
   */
  send?: SendEffects;
  /**
   * The step runs for a queue message that comes again if the step does not finish (the escalation
   * and routing workers): a commit that leaves an outbox may then leave the due index where it is,
   * since the message brings the outbox back (`dueWhileLeased`).
   */
  retriedByQueue?: boolean;
  /**
   * The alert as the caller has just written it (the routing's versioned save, an acknowledgement's
   * transition): the step's first attempt goes by it instead of reading it, unless escalation has
   * already gone by a newer version (a hand-off reopened it since: `alertVersion` of the item) or
   * the step waits for another one. Safe for the race with acknowledge and resolve: the read the
   * guarantee rests on is the second look after the commit, before the first page (carryOut), which
   * stays; a read before the commit is as old as this by the time the commit lands.
   */
  alert?: AlertRecord;
  /** The escalation item as the caller has just read it, strongly (stop-escalation.ts), or none where the caller has reason to think none is there (start-escalation.ts `presumeNone`): the first attempt goes by it, and its commit is conditional on its version. */
  stored?: StoredEscalation;
}

/**
 * The due time a commit that leaves an outbox writes. The outbox must be found if the step dies:
 * by the sweeper at `leftover` (the lease's end and a grace, or the next step if that is sooner).
 * A due time already there and no later is kept as it is (a timer's own step, a late step the
 * sweeper runs): the sweeper finds the outbox as soon. A step its queue message brings back keeps
 * any due time there is, else writes the one its release will, and writes the leftover time only
 * when it has neither: the due index then backs the message up at that time. Each move of the due
 * time is a delete and a put in the due index (2 write units); a commit that writes the time it
 * finds, or the one its release writes, saves them (docs/ARCHITECTURE.md, "Write budget per alert life").
 */
function dueWhileLeased(stored: number | null, after: number | null, leftover: number, retriedByQueue: boolean): number {
  const sweptBy = after === null ? leftover : Math.min(after, leftover);
  if (stored !== null && stored <= sweptBy) return stored;
  if (!retriedByQueue) return sweptBy;
  return stored ?? after ?? sweptBy;
}

export async function runStep(accountId: string, alertId: string, intent: StepIntent, options: StepOptions = {}): Promise<StepResult> {
  const owner = newId();
  const waitUntil = clockNow() + MAX_WAIT_MS;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const given = attempt === 0 ? options.alert : undefined;
    // The alert is read beside the state (it is needed in nearly every step): one round trip deep.
    const reading = given ? null : getAlert(accountId, alertId);
    reading?.catch(() => undefined); // awaited below, or replaced by a fresh read
    let stored = attempt === 0 && options.stored ? options.stored : await getEscalation(accountId, alertId);
    let waited = false;
    // Another step is paging: wait for it to finish (or for its lease to run out), then go on.
    while (stored.leaseUntil !== null && stored.leaseUntil >= clockNow() && stored.leaseOwner !== owner && clockNow() < waitUntil) {
      await sleep(Math.min(50, Math.max(1, stored.leaseUntil - clockNow() + 1)));
      stored = await getEscalation(accountId, alertId);
      waited = true;
    }
    if (intent.kind === 'event' && intent.requestKey !== undefined && stored.requests.includes(intent.requestKey))
      return { changed: false, repeated: true, state: stored.state, alert: null };
    const now = clockNow();
    const stopIntent = intent.kind === 'event' && (intent.event.type === 'acknowledge' || intent.event.type === 'resolve');
    if (!stored.state && intent.kind !== 'start' && !stopIntent) {
      // Nothing was ever started for this alert: nothing to time out or reject. (A stop goes on: it
      // writes a stopped state, so a start that read the alert before the stop cannot commit.)
      return {
        changed: false,
        ignored: intent.kind === 'event' && intent.event.type === 'reject' ? 'no_open_workflow' : undefined,
        state: null,
        alert: null,
      };
    }
    // After waiting for another step, the alert is read again: it may have been acknowledged meanwhile.
    const alert = waited || !(reading || newerThanSeen(given, stored)) ? await getAlert(accountId, alertId) : await (reading ?? given!);
    if (!alert && !stored.state) return { changed: false, state: null, alert: null };
    const state = stored.state ?? initialState(alertId);
    const stop = stopFromAlert(alert, state);
    const stopping = stop !== null || stopIntent;

    if (stored.outbox.length && !stopping) {
      // A step stopped before finishing its outbox (or handed its pages over): finish it first, then look again.
      if (options.send) await finishLeftover(stored, owner, alert, options.send);
      else if (!(await leaveToWorker(stored, waitUntil)))
        throw new Error(`escalation of alert ${alertId}: its outbox was not carried out within ${MAX_WAIT_MS} ms`);
      continue;
    }

    const events: EscalationEvent[] = [];
    if (stop) events.push({ type: stop, at: now } as EscalationEvent);
    let deferred = stored.deferred;
    let intentIndex = -1;
    if (intent.kind === 'event') {
      intentIndex = events.length;
      events.push({ ...intent.event, at: now });
    } else if (intent.kind === 'start') {
      const immediate = intent.targets.filter((t) => !(t.delay_ms && t.delay_ms > 0));
      const later = intent.targets
        .map((t, index) => ({ t, index }))
        .filter(({ t }) => t.delay_ms && t.delay_ms > 0)
        .map(({ t, index }): DeferredStart => ({
          key: `${intent.key}#d${index}`,
          targets: [targetOf(t)],
          template: intent.template,
          due_at: now + scaledMs(t.delay_ms!),
        }))
        .filter((d) => !state.appliedStarts.includes(d.key) && !deferred.some((known) => known.key === d.key));
      // A start delivered again defers nothing new: the item is then not rewritten (deferredChanged compares references).
      if (later.length) deferred = [...deferred, ...later];
      if (immediate.length) {
        intentIndex = events.length;
        events.push({ type: 'start', at: now, key: intent.key, targets: immediate.map(targetOf), template: intent.template });
      }
    } else {
      events.push(...dueTimeouts(state, now));
      const due = deferred.filter((d) => d.due_at <= now);
      deferred = deferred.filter((d) => d.due_at > now);
      for (const d of due) events.push({ type: 'start', at: now, key: d.key, targets: d.targets, template: d.template });
    }

    const inputs = new StepInputs(accountId, alert ?? placeholderAlert(accountId, alertId), now, timeScale());
    let current = state;
    const effects: EscalationEffect[] = [];
    let changed = false;
    let ignored: IgnoredReason | undefined;
    for (const [index, event] of events.entries()) {
      await inputs.loadTeams(requiredTeamIds(current, event, { team: () => undefined }));
      if (event.type === 'start')
        await inputs.loadAccountUsers(event.targets.flatMap((t) => (t.type === 'account_user' ? [t.accountUserId] : [])));
      // Failover reads the person's addresses (a person paged alone is no team's member).
      if (event.type === 'delivery_failed') await inputs.loadAccountUsers(workflowPeople(current, event.workflowId));
      const result = await advanceWithLoader(current, event, inputs.inputs(), (teamIds) => inputs.loadTeams(teamIds));
      if (result.changed) {
        current = result.state;
        effects.push(...result.effects);
        changed = true;
      } else if (index === intentIndex) ignored = result.ignored;
    }
    const deferredChanged = deferred !== stored.deferred;
    if (!changed && !deferredChanged && !stored.outbox.length) return { changed: false, ignored, state: stored.state, alert };

    // Stopping over a leftover outbox: its records stand, its pages are cancelled, its timers are moot.
    // Effects that write nothing (workflows the state holds, logs without a timeline entry) stay out
    // of the outbox: a stop that only closes workflows commits alone, with no lease or release.
    const superseded = stored.outbox.filter((e) => isSend(e) || isSuperseded(e));
    const outbox = [...stored.outbox.filter((e) => !isSend(e) && !isSuperseded(e)), ...effects.filter((e) => !writesNothing(e))];
    const lease = outbox.length || superseded.length ? { owner, until: now + LEASE_MS } : null;
    const applied = intent.kind === 'event' && intent.requestKey !== undefined && changed && ignored === undefined;
    const committed = await commitEscalation(
      accountId,
      alertId,
      stored.version,
      {
        state: current,
        deferred,
        outbox: [...outbox, ...superseded.map(markSuperseded)],
        lease,
        dueAt: lease
          ? dueWhileLeased(stored.dueAt, dueOf(current, deferred, null), lease.until + LEFTOVER_GRACE_MS, options.retriedByQueue === true)
          : dueOf(current, deferred, null),
        requests: applied ? [...stored.requests, intent.requestKey!] : stored.requests,
        alertVersion: alert?.version,
      },
      owner,
      now,
    );
    const version = committed ?? (await ownCommit(accountId, alertId, owner));
    if (version === null) continue;
    // Timer lateness: how long after its due time a step ran (its delayed message was late, or lost
    // and the sweeper ran it).
    if (intent.kind === 'due' && changed && stored.dueAt !== null && stored.dueAt <= now) recordMetric('timerLateness', now - stored.dueAt);

    for (const d of deferred) if (!stored.deferred.some((known) => known.key === d.key)) await scheduleDue(accountId, alertId, d.due_at);
    if (lease) {
      // Without a sender, pages (and cancellations of superseded ones) stay in the outbox for the worker.
      const handed = [...outbox.filter(isSendEffect), ...superseded.map(markSuperseded)];
      const carried = options.send
        ? await carryOut(stored, version, owner, lease.until, outbox, superseded, inputs, options.send, {
            firstPages: intent.kind === 'start' && intent.template === undefined,
            committedNow: true,
          })
        : await carryOut(
            stored,
            version,
            owner,
            lease.until,
            outbox.filter((e) => !isSendEffect(e)),
            [],
            inputs,
            undefined,
            { committedNow: true },
          );
      // A page the lease ran too short to start (./carry-out: another carrier could take the lease
      // over mid-call and send it twice) is handed over too, not released with the outbox: its
      // notification stays queued for the worker, which finds the pages already sent and sends the rest.
      const handOver = !options.send || carried.withheld ? handed : [];
      await release(accountId, alertId, version, owner, dueOf(current, deferred, null), handOver);
      // The alert was acknowledged or resolved after this step read it: nothing was paged, and the
      // stop is recorded now.
      if (!carried.allowed)
        await runStep(accountId, alertId, { kind: 'due' }, { send: options.send, retriedByQueue: options.retriedByQueue });
    }
    // A deleted alert's escalation is stopped (its workflows closed): nothing of it is needed any more.
    if (!alert) await removeEscalation(accountId, alertId);
    return { changed: changed || deferredChanged, ignored, state: current, alert };
  }
  throw new Error(`escalation of alert ${alertId} kept changing (or stayed leased) while a step was applied`);
}

/** An alert handed to the step is at least as new as any escalation went by (nothing committed yet, or an older version). */
function newerThanSeen(given: AlertRecord | undefined, stored: StoredEscalation): boolean {
  if (!given) return false;
  if (stored.version === 0) return true;
  return stored.alertVersion !== null && stored.alertVersion <= given.version;
}

function workflowPeople(state: EscalationState, workflowId: string): string[] {
  return state.assignments.flatMap((a) => a.step?.workflows ?? []).flatMap((w) => (w.id === workflowId ? [w.accountUserId] : []));
}

/**
 * A commit that failed its condition may be this step's own, applied by an attempt whose answer was
 * lost (the SDK retried it, and the retry found the version moved): the item then names this step
 * as its writer, and the step goes on from that version. Nobody else can have written it since: a
 * commit that leaves an outbox holds the lease. Null when another step's write is there.
 */
async function ownCommit(accountId: string, alertId: string, owner: string): Promise<number | null> {
  const stored = await getEscalation(accountId, alertId);
  return stored.committedBy === owner ? stored.version : null;
}

/** The alert may still be paged for: neither acknowledged nor resolved (nor archived, suppressed, deleted). */
function mayPage(alert: AlertRecord | null): boolean {
  return alert !== null && !['acknowledged', 'resolved', 'archived', 'suppressed'].includes(alert.status);
}

/**
 * Carries out an outbox under the lease, extending it while the fan-out lasts. Before the first
 * page the alert is read again (the lease is committed by then): acknowledge and resolve write the
 * alert first and then read the lease (stop-escalation.ts), so either this read sees them and
 * nothing is paged, or they see this lease and wait for it. `allowed` false when pages were
 * withheld so; `withheld` true when a page was not started because the lease was ending (or lost).
 */
async function carryOut(
  stored: Pick<StoredEscalation, 'accountId' | 'alertId'>,
  version: number,
  owner: string,
  leaseUntil: number,
  effects: EscalationEffect[],
  superseded: EscalationEffect[],
  inputs: StepInputs,
  send?: SendEffects,
  measure: Pick<CarryOutOptions, 'firstPages' | 'committedNow'> = {},
): Promise<{ allowed: boolean; withheld: boolean }> {
  const sends = send !== undefined && effects.some(isSendEffect);
  const sendsAllowed = sends ? getAlert(stored.accountId, stored.alertId).then(mayPage) : Promise.resolve(true);
  let until = leaseUntil;
  let lost = false;
  let extending: Promise<void> | null = null;
  let withheld = false;
  const mayStart = () => {
    const now = clockNow();
    if (lost || now >= until - LEASE_MARGIN_MS) {
      withheld = true;
      return false;
    }
    if (!extending && until - now < LEASE_MS / 2) {
      const next = now + LEASE_MS;
      extending = extendLease(stored.accountId, stored.alertId, version, owner, next)
        .then((ok) => {
          if (ok) until = next;
          else lost = true;
        })
        .catch(() => undefined)
        .finally(() => {
          extending = null;
        });
    }
    return true;
  };
  // The fan-out's counts (workflows, notifications and their owners, timeline entries) are written
  // summed once it is done, before the lease is released: one update per counter item and step. In
  // work that holds its counts already (routing, a queue message's step: process-message.ts), they
  // go with that work's, once it is done.
  await withCountsDeferred(() =>
    carryOutEffects(
      effects,
      { accountId: stored.accountId, alertId: stored.alertId, inputs, mayStart, superseded, sendsAllowed, ...measure },
      send,
    ),
  );
  return { allowed: await sendsAllowed, withheld };
}

/** The outbox a crashed (or timed-out) step left: carried out by whoever finds it, under a new lease. */
async function finishLeftover(stored: StoredEscalation, owner: string, alert: AlertRecord | null, send: SendEffects): Promise<void> {
  const now = clockNow();
  const until = now + LEASE_MS;
  const version = await takeOverEscalation(stored.accountId, stored.alertId, stored.version, owner, until, now);
  if (version === null) return;
  const superseded = stored.outbox.filter(isSuperseded);
  const effects = stored.outbox.filter((e) => !isSuperseded(e));
  logger.info('escalation: carrying out an outbox another step left (crashed, or handed over by a request)', {
    alertId: stored.alertId,
    effects: effects.length,
  });
  const inputs = new StepInputs(stored.accountId, alert ?? placeholderAlert(stored.accountId, stored.alertId), now, timeScale());
  // Pages withheld because the alert was answered meanwhile: the next look stops. Pages the lease ran
  // too short to start: the outbox stays for the next carrier, due at once.
  const { withheld } = await carryOut(stored, version, owner, until, effects, superseded, inputs, send);
  const nextDue = dueOf(stored.state ?? initialState(stored.alertId), stored.deferred, null);
  await release(stored.accountId, stored.alertId, version, owner, nextDue, withheld ? stored.outbox : []);
}

/**
 * Releases the lease once an outbox is carried out. The effects handed over stay in the outbox for
 * the escalation worker, due at once, with a `due` message (the due index re-drives it if that is
 * lost); with none, the due time is the next step's.
 */
async function release(
  accountId: string,
  alertId: string,
  version: number,
  owner: string,
  nextDue: number | null,
  handOver: readonly EscalationEffect[],
): Promise<void> {
  const handedAt = clockNow();
  await releaseEscalation(accountId, alertId, version, owner, handOver.length ? handedAt : nextDue, handOver);
  if (handOver.length) await scheduleDue(accountId, alertId, handedAt);
}

/**
 * A request path meets an outbox it does not carry out (pages handed over, or a crashed step's):
 * the escalation worker is asked for it, and this waits until it is done. False when it is not done in time.
 */
async function leaveToWorker(stored: StoredEscalation, waitUntil: number): Promise<boolean> {
  if (stored.leaseUntil === null || stored.leaseUntil < clockNow()) await scheduleDue(stored.accountId, stored.alertId, clockNow());
  let current = stored;
  while (current.outbox.length) {
    if (clockNow() >= waitUntil) return false;
    await sleep(50);
    current = await getEscalation(stored.accountId, stored.alertId);
  }
  return true;
}

/** An alert that is gone: its escalation only stops; nothing is paged for it. */
function placeholderAlert(accountId: string, alertId: string): AlertRecord {
  return { id: alertId, account_id: accountId, tiny_id: 0, title: '', urgency: 'low', status: 'resolved', description: '' } as AlertRecord;
}
