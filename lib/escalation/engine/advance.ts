// The escalation step function (docs/api.md#escalation-and-notifications): advance(state, event, inputs) → { state, effects }.
// Pure and deterministic: time is the event's `at`, new workflow ids come from inputs, and the
// same state + event + inputs always give the same effects with the same idempotency keys.
// SEMANTICS.md beside this file states every rule, including the ones docs/api.md#escalation-and-notifications leaves open.
import { InvalidEscalation, MissingTeamInputs } from './errors';
import { layerTimeoutMs, scaled, USER_TIMEOUT_MS } from './timing';
import type {
  AcknowledgeEvent,
  AdvanceResult,
  DeliveryFailedEvent,
  AssignmentOrigin,
  AssignmentState,
  AssignmentTarget,
  ClosedWorkflowStatus,
  DeliveryStep,
  EngineInputs,
  EscalationEffect,
  EscalationEvent,
  EscalationLayerInput,
  EscalationState,
  IgnoredReason,
  LogEffect,
  PageTemplate,
  RejectEvent,
  ResolveEvent,
  StartEvent,
  StepState,
  TeamInput,
  TimeoutEvent,
  WorkflowState,
} from './types';

/** Start keys remembered for dedupe; older ones are long past any redelivery. */
const APPLIED_STARTS_KEPT = 100;

const DEFAULT_PLAN: readonly DeliveryStep[] = [{ at_offset_ms: 0, channels: null }];

/** After the rule's channels, failover tries these, in this order (docs/api.md#failover). */
export const FAILOVER_ORDER: readonly string[] = ['sms', 'voice', 'push', 'slack', 'email'];

export function initialState(alertId: string): EscalationState {
  if (typeof alertId !== 'string' || alertId === '') throw new InvalidEscalation('alertId must be a non-empty string');
  return { schema: 1, alertId, version: 0, outcome: 'escalating', epoch: 0, drops: 0, appliedStarts: [], assignments: [] };
}

export function advance(state: EscalationState, event: EscalationEvent, inputs: EngineInputs): AdvanceResult {
  checkEvent(event);
  checkInputs(inputs);
  requireTeams(state, event, inputs);
  const step = new Step(structuredClone(state), inputs, event.at);
  const ignored = step.apply(event);
  if (ignored) return { state, effects: [], changed: false, ignored };
  step.settleOutcome();
  step.state.version = state.version + 1;
  return { state: step.state, effects: step.effects, changed: true };
}

/** Applies events in order (a sweeper's batch of due timers): one write for all of them. */
export function advanceAll(state: EscalationState, events: readonly EscalationEvent[], inputs: EngineInputs): AdvanceResult {
  let current = state;
  const effects: EscalationEffect[] = [];
  let changed = false;
  let ignored: IgnoredReason | undefined;
  for (const event of events) {
    const result = advance(current, event, inputs);
    current = result.state;
    effects.push(...result.effects);
    changed ||= result.changed;
    ignored ??= result.ignored;
  }
  return changed ? { state: current, effects, changed } : { state, effects: [], changed: false, ...(ignored ? { ignored } : {}) };
}

function targetKey(target: AssignmentTarget): string {
  return target.type === 'team' ? `team:${target.teamId}` : `account_user:${target.accountUserId}`;
}

function sortedLayers(layers: readonly EscalationLayerInput[]): EscalationLayerInput[] {
  return [...layers].sort((a, b) => a.layer - b.layer);
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

class Step {
  readonly effects: EscalationEffect[] = [];

  constructor(
    readonly state: EscalationState,
    private readonly inputs: EngineInputs,
    private readonly at: number,
  ) {}

  apply(event: EscalationEvent): IgnoredReason | undefined {
    switch (event.type) {
      case 'start':
        return this.start(event);
      case 'timeout':
        return this.timeout(event);
      case 'acknowledge':
      case 'resolve':
        return this.stop(event);
      case 'reject':
        return this.reject(event);
      case 'delivery_failed':
        return this.deliveryFailed(event);
    }
  }

  // ── keys and small helpers ──────────────────────────────────────────────────────────────────

  private key(...parts: (string | number)[]): string {
    return [this.state.alertId, ...parts].join('/');
  }

  /** A key unique to this state transition, for alert-level effects that can recur. */
  private transitionKey(...parts: string[]): string {
    return this.key(`v${this.state.version + 1}`, ...parts);
  }

  private log(kind: LogEffect['kind'], key: string, assignmentId: string | null, detail: LogEffect['detail']): void {
    this.effects.push({ type: 'log', key, at: this.at, kind, assignmentId, detail });
  }

  private team(teamId: string): TeamInput | null {
    const team = this.inputs.team(teamId);
    if (team === undefined) throw new MissingTeamInputs([teamId]);
    return team;
  }

  private exists(accountUserId: string): boolean {
    return this.inputs.accountUserExists ? this.inputs.accountUserExists(accountUserId) : true;
  }

  private epochAssignments(): AssignmentState[] {
    return this.state.assignments.filter((assignment) => assignment.epoch === this.state.epoch);
  }

  private escalating(): AssignmentState[] {
    return this.state.assignments.filter((assignment) => assignment.status === 'escalating' && assignment.step);
  }

  // ── events ──────────────────────────────────────────────────────────────────────────────────

  private start(event: StartEvent): IgnoredReason | undefined {
    if (this.state.appliedStarts.includes(event.key)) return 'duplicate_start';
    const handoff = event.template === 'alert_handoff';
    if (this.state.outcome === 'resolved') return 'alert_stopped';
    if (!handoff && this.state.outcome === 'acknowledged') return 'alert_stopped';
    this.state.appliedStarts = [...this.state.appliedStarts, event.key].slice(-APPLIED_STARTS_KEPT);

    if (handoff) {
      const superseded = this.escalating();
      for (const assignment of superseded) {
        this.closeOpenWorkflows(assignment, 'timed_out');
        assignment.status = 'superseded';
        assignment.step = null;
      }
      if (superseded.length) {
        this.log('superseded', this.transitionKey('superseded'), null, { assignment_ids: superseded.map((a) => a.id) });
      }
      this.state.epoch += 1;
    }
    if (this.state.outcome === 'dropped') {
      this.effects.push({ type: 'set_alert_status', key: this.transitionKey('reopen'), at: this.at, status: 'open' });
      this.log('reopened', this.transitionKey('reopened'), null, { start: event.key });
    }
    this.state.outcome = 'escalating';

    const template: PageTemplate = event.template ?? 'alert_alert';
    const origin: AssignmentOrigin = handoff ? 'handoff' : 'route';
    for (const target of event.targets) {
      // A routing message that names a target twice, or a target already escalating, adds nothing.
      const live = this.epochAssignments().some((a) => a.status === 'escalating' && targetKey(a.target) === targetKey(target));
      if (live) continue;
      this.startAssignment(target, origin, null, template);
    }
    return undefined;
  }

  private timeout(event: TimeoutEvent): IgnoredReason | undefined {
    if (this.state.outcome !== 'escalating') return 'alert_stopped';
    for (const assignment of this.escalating()) {
      const step = assignment.step!;
      if (step.token === event.token) {
        if (this.at < step.dueAt) return 'not_due';
        this.closeOpenWorkflows(assignment, 'timed_out');
        this.moveOn(assignment, 'timed_out');
        return undefined;
      }
      for (const workflow of step.workflows) {
        if (workflow.status !== 'open' || workflow.delivered >= workflow.plan.length) continue;
        if (deliveryToken(assignment, step, workflow) !== event.token) continue;
        if (this.at < step.pagedAt + workflow.plan[workflow.delivered].at_offset_ms) return 'not_due';
        this.deliverDue(assignment, step, workflow);
        return undefined;
      }
    }
    return 'stale_timer';
  }

  private stop(event: AcknowledgeEvent | ResolveEvent): IgnoredReason | undefined {
    const outcome = event.type === 'acknowledge' ? 'acknowledged' : 'resolved';
    if (this.state.outcome === 'resolved') return 'already_stopped';
    if (this.state.outcome === 'acknowledged' && outcome === 'acknowledged') return 'already_stopped';
    const stopped = this.escalating();
    for (const assignment of stopped) {
      this.closeOpenWorkflows(assignment, 'acknowledged');
      assignment.status = 'stopped';
      assignment.step = null;
    }
    if (stopped.length) {
      this.log('stopped', this.transitionKey('stopped'), null, { by: outcome, assignment_ids: stopped.map((a) => a.id) });
    }
    this.state.outcome = outcome;
    return undefined;
  }

  private reject(event: RejectEvent): IgnoredReason | undefined {
    if (this.state.outcome !== 'escalating') return 'alert_stopped';
    let matched = false;
    const told = new Set<string>();
    for (const assignment of this.escalating()) {
      const step = assignment.step!;
      const rejected = step.workflows.filter(
        (w) =>
          w.status === 'open' &&
          w.accountUserId === event.accountUserId &&
          (event.workflowIds === undefined || event.workflowIds.includes(w.id)),
      );
      if (rejected.length === 0) continue;
      matched = true;
      for (const workflow of rejected) this.closeWorkflow(assignment, step, workflow, 'rejected');
      this.log('rejected', this.key(assignment.id, step.key, 'rejected', event.accountUserId), assignment.id, {
        account_user_id: event.accountUserId,
        round: step.round,
        layer: step.layer,
      });
      const stillOpen = step.workflows.filter((w) => w.status === 'open');
      for (const other of stillOpen) {
        if (told.has(other.accountUserId) || other.accountUserId === event.accountUserId) continue;
        told.add(other.accountUserId);
        this.effects.push({
          type: 'notify',
          key: this.key(assignment.id, step.key, 'rejected', event.accountUserId, 'notify', other.accountUserId),
          at: this.at,
          template: 'alert_rejected',
          accountUserId: other.accountUserId,
          actorAccountUserId: event.accountUserId,
          teamId: assignment.target.type === 'team' ? assignment.target.teamId : null,
        });
      }
      if (stillOpen.length === 0) this.moveOn(assignment, 'rejected');
      else this.moveOnIfUnreachable(assignment);
    }
    return matched ? undefined : 'no_open_workflow';
  }

  /**
   * One message of a page failed: the page goes out at once on the person's next channel not yet
   * tried; with none left and every message failed the person is unreachable, and once everyone
   * still open in the step is, the step moves on without waiting out its timeout.
   */
  private deliveryFailed(event: DeliveryFailedEvent): IgnoredReason | undefined {
    if (this.state.outcome !== 'escalating') return 'alert_stopped';
    for (const assignment of this.escalating()) {
      const step = assignment.step!;
      const workflow = step.workflows.find((w) => w.id === event.workflowId);
      if (!workflow) continue;
      if (workflow.status !== 'open') return 'page_answered';
      const failed = workflow.failed ?? [];
      if (failed.includes(event.messageId)) return 'duplicate_failure';
      workflow.failed = [...failed, event.messageId];
      const next = this.nextChannel(workflow);
      if (next !== null) {
        this.failOver(assignment, step, workflow, next);
        return undefined;
      }
      if (unreachable(step, workflow)) {
        workflow.unreachable = true;
        this.moveOnIfUnreachable(assignment);
      }
      return undefined;
    }
    return 'page_answered';
  }

  /** The rule's channels in their order, then FAILOVER_ORDER, among those the person can receive and this page has not tried. */
  private nextChannel(workflow: WorkflowState): string | null {
    // Stored before failover existed: what went out is not known, so nothing is tried again.
    if (workflow.tried === undefined) return null;
    const tried = new Set(workflow.tried);
    const receivable = this.inputs.receivableChannels?.(workflow.accountUserId);
    const order = unique([...workflow.plan.flatMap((entry) => entry.channels ?? []), ...FAILOVER_ORDER]);
    return order.find((channel) => !tried.has(channel) && (!receivable || receivable.includes(channel))) ?? null;
  }

  private failOver(assignment: AssignmentState, step: StepState, workflow: WorkflowState, channel: string): void {
    const failover = (workflow.failovers ?? 0) + 1;
    workflow.failovers = failover;
    countMessages(workflow, [channel]);
    this.effects.push({
      type: 'page',
      key: this.key(assignment.id, step.key, workflow.accountUserId, workflow.template, `f${failover}`),
      at: this.at,
      workflowId: workflow.id,
      assignmentId: assignment.id,
      accountUserId: workflow.accountUserId,
      template: workflow.template,
      delivery: Math.max(0, workflow.delivered - 1),
      channels: [channel],
      failover,
    });
  }

  /** Everyone still open in the step is unreachable: their workflows close and the step moves on now. */
  private moveOnIfUnreachable(assignment: AssignmentState): void {
    const step = assignment.step;
    if (!step) return;
    const open = step.workflows.filter((w) => w.status === 'open');
    if (open.length === 0 || !open.every((w) => w.unreachable)) return;
    this.log('unreachable', this.key(assignment.id, step.key, 'unreachable'), assignment.id, {
      round: step.round,
      layer: step.layer,
      account_user_ids: open.map((w) => w.accountUserId),
    });
    for (const workflow of open) this.closeWorkflow(assignment, step, workflow, 'timed_out');
    this.moveOn(assignment, 'unreachable');
  }

  // ── assignments and steps ───────────────────────────────────────────────────────────────────

  private startAssignment(target: AssignmentTarget, origin: AssignmentOrigin, parentId: string | null, template: PageTemplate): void {
    const assignment: AssignmentState = {
      id: `a${this.state.assignments.length}`,
      epoch: this.state.epoch,
      target,
      origin,
      parentId,
      startedAt: this.at,
      status: 'escalating',
      step: null,
      round: 0,
      layerIndex: 0,
      reassigned: false,
    };
    this.state.assignments.push(assignment);
    this.effects.push({
      type: 'assignment_started',
      key: this.key(assignment.id, 'start'),
      at: this.at,
      assignmentId: assignment.id,
      target,
      origin,
      parentAssignmentId: parentId,
    });
    if (target.type === 'account_user') {
      if (!this.exists(target.accountUserId)) return this.exhaust(assignment, 'unknown_account_user');
      this.pageStep(assignment, { key: 'user', round: 0, layerIndex: 0, layer: null }, [target.accountUserId], USER_TIMEOUT_MS, template);
      return;
    }
    this.runTeam(assignment, 0, 0, template);
  }

  /** Pages the first layer at or after (round, layerIndex) with someone on call; exhausts past the last round. */
  private runTeam(assignment: AssignmentState, round: number, layerIndex: number, template: PageTemplate): void {
    if (assignment.target.type !== 'team') throw new InvalidEscalation('runTeam needs a team assignment');
    const teamId = assignment.target.teamId;
    const team = this.team(teamId);
    if (!team) return this.exhaust(assignment, 'no_team');
    if (!team.policy) return this.exhaust(assignment, 'no_policy');
    const layers = sortedLayers(team.policy.escalation_layers);
    if (layers.length === 0) return this.exhaust(assignment, 'no_layers');
    const repeat = Math.max(0, Math.floor(team.policy.repeat));
    for (;;) {
      if (layerIndex >= layers.length) {
        round += 1;
        layerIndex = 0;
        if (round > repeat) return this.exhaust(assignment, 'layers_exhausted');
        this.log('repeated', this.key(assignment.id, `r${round}`, 'repeated'), assignment.id, { round, repeat });
      }
      const layer = layers[layerIndex];
      const people = unique(this.inputs.oncallAt(teamId, layer.layer, this.at)).filter((id) => this.exists(id));
      const key = `r${round}.l${layerIndex}`;
      if (people.length === 0) {
        this.log('layer_skipped', this.key(assignment.id, key, 'skipped'), assignment.id, { round, layer: layer.layer });
        assignment.round = round;
        assignment.layerIndex = layerIndex;
        layerIndex += 1;
        continue;
      }
      this.pageStep(assignment, { key, round, layerIndex, layer: layer.layer }, people, layerTimeoutMs(layer), template);
      return;
    }
  }

  private pageStep(
    assignment: AssignmentState,
    position: Pick<StepState, 'key' | 'round' | 'layerIndex' | 'layer'>,
    people: string[],
    timeoutMs: number,
    template: PageTemplate,
  ): void {
    const step: StepState = {
      ...position,
      pagedAt: this.at,
      dueAt: this.at + scaled(timeoutMs, this.inputs.timeScale),
      token: `${assignment.id}/${position.key}`,
      workflows: people.map((accountUserId) => ({
        id: this.inputs.newWorkflowId(),
        accountUserId,
        status: 'open',
        template,
        plan: this.plan(accountUserId, template),
        delivered: 0,
        tried: [],
        messages: 0,
        failed: [],
        failovers: 0,
      })),
    };
    assignment.step = step;
    assignment.round = position.round;
    assignment.layerIndex = position.layerIndex;
    const teamId = assignment.target.type === 'team' ? assignment.target.teamId : null;
    this.log('escalated', this.key(assignment.id, step.key, 'escalated'), assignment.id, {
      round: step.round,
      layer: step.layer,
      account_user_ids: people,
    });
    for (const workflow of step.workflows) {
      this.effects.push({
        type: 'open_workflow',
        key: this.key(assignment.id, step.key, workflow.accountUserId, 'workflow'),
        at: this.at,
        workflowId: workflow.id,
        assignmentId: assignment.id,
        teamId,
        accountUserId: workflow.accountUserId,
        round: step.round,
        layer: step.layer,
        template,
      });
      this.deliverDue(assignment, step, workflow);
    }
    this.effects.push({
      type: 'schedule_timer',
      key: this.key(assignment.id, step.key, 'timer'),
      at: this.at,
      assignmentId: assignment.id,
      token: step.token,
      dueAt: step.dueAt,
    });
  }

  private plan(accountUserId: string, template: PageTemplate): DeliveryStep[] {
    const plan = this.inputs.deliveryPlan ? this.inputs.deliveryPlan(accountUserId, template) : DEFAULT_PLAN;
    return [...plan]
      .map((entry) => ({
        at_offset_ms: scaled(entry.at_offset_ms, this.inputs.timeScale),
        channels: entry.channels ? [...entry.channels] : null,
      }))
      .sort((a, b) => a.at_offset_ms - b.at_offset_ms);
  }

  /** Sends every delivery of the plan that is due, and arms a timer for the next one inside the step. */
  private deliverDue(assignment: AssignmentState, step: StepState, workflow: WorkflowState): void {
    while (workflow.delivered < workflow.plan.length && step.pagedAt + workflow.plan[workflow.delivered].at_offset_ms <= this.at) {
      const delivery = workflow.delivered;
      this.effects.push({
        type: 'page',
        key: this.key(assignment.id, step.key, workflow.accountUserId, workflow.template, `d${delivery}`),
        at: this.at,
        workflowId: workflow.id,
        assignmentId: assignment.id,
        accountUserId: workflow.accountUserId,
        template: workflow.template,
        delivery,
        channels: workflow.plan[delivery].channels,
      });
      countMessages(workflow, workflow.plan[delivery].channels);
      workflow.delivered += 1;
    }
    if (workflow.delivered >= workflow.plan.length) return;
    const dueAt = step.pagedAt + workflow.plan[workflow.delivered].at_offset_ms;
    // A delivery at or after the step's timeout never happens: the workflow closes first.
    if (dueAt >= step.dueAt) return;
    this.effects.push({
      type: 'schedule_timer',
      key: this.key(assignment.id, step.key, workflow.accountUserId, `d${workflow.delivered}`, 'timer'),
      at: this.at,
      assignmentId: assignment.id,
      token: deliveryToken(assignment, step, workflow),
      dueAt,
    });
  }

  private closeWorkflow(assignment: AssignmentState, step: StepState, workflow: WorkflowState, status: ClosedWorkflowStatus): void {
    workflow.status = status;
    this.effects.push({
      type: 'close_workflow',
      key: this.key(assignment.id, step.key, workflow.accountUserId, 'close'),
      at: this.at,
      workflowId: workflow.id,
      assignmentId: assignment.id,
      accountUserId: workflow.accountUserId,
      status,
    });
  }

  private closeOpenWorkflows(assignment: AssignmentState, status: ClosedWorkflowStatus): void {
    const step = assignment.step;
    if (!step) return;
    for (const workflow of step.workflows) if (workflow.status === 'open') this.closeWorkflow(assignment, step, workflow, status);
  }

  /** The step ended without an acknowledgement: the next layer, round, reassignment or exhaustion. */
  private moveOn(assignment: AssignmentState, reason: 'timed_out' | 'rejected' | 'unreachable'): void {
    const step = assignment.step!;
    assignment.step = null;
    if (assignment.target.type === 'account_user') return this.exhaust(assignment, reason);
    this.runTeam(assignment, step.round, step.layerIndex + 1, 'alert_alert');
  }

  private exhaust(assignment: AssignmentState, reason: string): void {
    assignment.status = 'exhausted';
    assignment.step = null;
    this.log('exhausted', this.key(assignment.id, 'exhausted'), assignment.id, { reason });
    this.reassign(assignment);
  }

  /** Once per assignment that the routing pipeline or a hand-off made: the policy's reassign targets. */
  private reassign(assignment: AssignmentState): void {
    if (assignment.origin === 'reassign' || assignment.reassigned || assignment.target.type !== 'team') return;
    const policy = this.team(assignment.target.teamId)?.policy;
    if (!policy) return;
    assignment.reassigned = true;
    const known = new Set(this.epochAssignments().map((a) => targetKey(a.target)));
    const targets: AssignmentTarget[] = [
      ...unique(policy.reassign_team_ids).map((teamId): AssignmentTarget => ({ type: 'team', teamId })),
      ...unique(policy.reassign_account_user_ids).map((accountUserId): AssignmentTarget => ({ type: 'account_user', accountUserId })),
    ].filter((target) => !known.has(targetKey(target)));
    if (targets.length === 0) return;
    this.log('reassigned', this.key(assignment.id, 'reassigned'), assignment.id, {
      team_ids: targets.flatMap((t) => (t.type === 'team' ? [t.teamId] : [])),
      account_user_ids: targets.flatMap((t) => (t.type === 'account_user' ? [t.accountUserId] : [])),
    });
    for (const target of targets) this.startAssignment(target, 'reassign', assignment.id, 'alert_alert');
  }

  /** Dropped once every assignment of the current epoch is exhausted (docs/api.md#escalation-and-notifications): status and drop_notifications. */
  settleOutcome(): void {
    if (this.state.outcome !== 'escalating') return;
    const assignments = this.epochAssignments();
    if (assignments.length === 0 || assignments.some((a) => a.status !== 'exhausted')) return;
    this.state.outcome = 'dropped';
    this.state.drops += 1;
    const drop = `drop${this.state.drops}`;
    this.effects.push({ type: 'set_alert_status', key: this.key(drop, 'status'), at: this.at, status: 'dropped' });
    this.log('dropped', this.key(drop, 'log'), null, { assignment_ids: assignments.map((a) => a.id) });
    const told = new Set<string>();
    for (const assignment of assignments) {
      if (assignment.target.type !== 'team') continue;
      const teamId = assignment.target.teamId;
      for (const accountUserId of this.dropRecipients(teamId)) {
        if (told.has(accountUserId)) continue;
        told.add(accountUserId);
        this.effects.push({
          type: 'notify',
          key: this.key(drop, 'notify', accountUserId),
          at: this.at,
          template: 'alert_dropped',
          accountUserId,
          actorAccountUserId: null,
          teamId,
        });
      }
    }
  }

  private dropRecipients(teamId: string): string[] {
    const team = this.team(teamId);
    if (!team) return [];
    let ids: readonly string[];
    switch (team.drop_notifications) {
      case 'team_all':
        ids = [...team.member_account_user_ids, ...team.admin_account_user_ids];
        break;
      case 'team_admins':
        ids = team.admin_account_user_ids;
        break;
      case 'oncall_rotation':
        ids = this.inputs.oncallAnyLayerAt(teamId, this.at);
        break;
      case 'specific_users':
        ids = team.drop_notification_account_user_ids;
        break;
      default:
        ids = [];
    }
    return unique(ids).filter((id) => this.exists(id));
  }
}

/** A page's messages on `channels` went out (null: channels decided later, so its messages cannot be counted). */
function countMessages(workflow: WorkflowState, channels: readonly string[] | null): void {
  if (workflow.messages === undefined) return; // stored before failover: never counted
  if (channels === null) {
    workflow.messages = null;
    return;
  }
  const sent = unique(channels);
  workflow.tried = unique([...(workflow.tried ?? []), ...sent]);
  if (workflow.messages !== null) workflow.messages += sent.length;
}

/** Every message of the page failed, no plan delivery is still to come in the step, and no channel is left (the caller checked). */
function unreachable(step: StepState, workflow: WorkflowState): boolean {
  if (workflow.messages === undefined || workflow.messages === null) return false;
  if ((workflow.failed ?? []).length < workflow.messages) return false;
  const next = workflow.plan[workflow.delivered];
  return !next || step.pagedAt + next.at_offset_ms >= step.dueAt;
}

export function deliveryToken(assignment: Pick<AssignmentState, 'id'>, step: Pick<StepState, 'key'>, workflow: WorkflowState): string {
  return `${assignment.id}/${step.key}/${workflow.accountUserId}/d${workflow.delivered}`;
}

// ── validation and inputs ─────────────────────────────────────────────────────────────────────

function checkEvent(event: EscalationEvent): void {
  if (!event || typeof event !== 'object') throw new InvalidEscalation('event must be an object');
  if (typeof event.at !== 'number' || !Number.isFinite(event.at)) throw new InvalidEscalation('event.at must be a finite number');
  switch (event.type) {
    case 'start':
      if (typeof event.key !== 'string' || event.key === '') throw new InvalidEscalation('start.key must be a non-empty string');
      if (!Array.isArray(event.targets) || event.targets.length === 0)
        throw new InvalidEscalation('start.targets must name at least one target');
      for (const target of event.targets) {
        const ok =
          (target?.type === 'team' && typeof target.teamId === 'string' && target.teamId !== '') ||
          (target?.type === 'account_user' && typeof target.accountUserId === 'string' && target.accountUserId !== '');
        if (!ok) throw new InvalidEscalation('start.targets[] must be {type: team, teamId} or {type: account_user, accountUserId}');
      }
      if (event.template !== undefined && event.template !== 'alert_alert' && event.template !== 'alert_handoff') {
        throw new InvalidEscalation('start.template must be alert_alert or alert_handoff');
      }
      return;
    case 'timeout':
      if (typeof event.token !== 'string') throw new InvalidEscalation('timeout.token must be a string');
      return;
    case 'reject':
      if (typeof event.accountUserId !== 'string' || event.accountUserId === '')
        throw new InvalidEscalation('reject.accountUserId must be a non-empty string');
      if (
        event.workflowIds !== undefined &&
        !(Array.isArray(event.workflowIds) && event.workflowIds.every((id) => typeof id === 'string'))
      ) {
        throw new InvalidEscalation('reject.workflowIds must be an array of strings');
      }
      return;
    case 'delivery_failed':
      if (typeof event.workflowId !== 'string' || event.workflowId === '')
        throw new InvalidEscalation('delivery_failed.workflowId must be a non-empty string');
      if (typeof event.messageId !== 'string' || event.messageId === '')
        throw new InvalidEscalation('delivery_failed.messageId must be a non-empty string');
      if (typeof event.channel !== 'string') throw new InvalidEscalation('delivery_failed.channel must be a string');
      return;
    case 'acknowledge':
    case 'resolve':
      return;
    default: {
      // The types say every event is handled above; a caller's data may still carry another.
      const { type }: { type: unknown } = event;
      throw new InvalidEscalation(`unknown event type ${JSON.stringify(type)}`);
    }
  }
}

function checkInputs(inputs: EngineInputs): void {
  if (!(typeof inputs.timeScale === 'number' && Number.isFinite(inputs.timeScale) && inputs.timeScale > 0)) {
    throw new InvalidEscalation('timeScale must be a positive number');
  }
}

/**
 * Every team the event may consult, named at once so the caller loads them in one round: the
 * start's targets, the teams of the current assignments, and the reassign targets of those that
 * may still reassign (a second round when their policies were not loaded yet).
 */
export function requiredTeamIds(state: EscalationState, event: EscalationEvent, inputs: Pick<EngineInputs, 'team'>): string[] {
  // Stopping closes what is open and consults nothing: a step that only stops loads no team, policy,
  // schedule or person (docs/ARCHITECTURE.md, "Write budget per alert life").
  if (event.type === 'acknowledge' || event.type === 'resolve') return [];
  const direct = new Set<string>();
  const mayReassign = new Set<string>();
  if (event.type === 'start') {
    for (const target of event.targets) if (target.type === 'team') mayReassign.add(target.teamId);
  }
  for (const assignment of state.assignments) {
    if (assignment.epoch !== state.epoch || assignment.target.type !== 'team') continue;
    if (assignment.origin === 'reassign' || assignment.reassigned) direct.add(assignment.target.teamId);
    else mayReassign.add(assignment.target.teamId);
  }
  const needed = new Set([...direct, ...mayReassign]);
  for (const teamId of mayReassign) {
    for (const target of inputs.team(teamId)?.policy?.reassign_team_ids ?? []) needed.add(target);
  }
  return [...needed];
}

function requireTeams(state: EscalationState, event: EscalationEvent, inputs: EngineInputs): void {
  const missing = requiredTeamIds(state, event, inputs).filter((teamId) => inputs.team(teamId) === undefined);
  if (missing.length) throw new MissingTeamInputs(missing);
}
