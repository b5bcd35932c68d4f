// The shapes of the escalation engine (docs/api.md#escalation-and-notifications): a pure step function over one alert's
// escalation state. State is plain JSON (stored as one item per alert); events come from the API
// (acknowledge, resolve, reject, hand-off), the routing pipeline (start) and timers (timeout);
// effects are data that the caller carries out, each with a deterministic idempotency key.

export type PageTemplate = 'alert_alert' | 'alert_handoff';
export type NotifyTemplate = 'alert_dropped' | 'alert_rejected';
export type WorkflowStatus = 'open' | 'acknowledged' | 'rejected' | 'timed_out';
export type ClosedWorkflowStatus = Exclude<WorkflowStatus, 'open'>;

/** The alert-level outcome of escalation. */
export type Outcome = 'escalating' | 'acknowledged' | 'resolved' | 'dropped';

export type AssignmentTarget = { type: 'team'; teamId: string } | { type: 'account_user'; accountUserId: string };

/** How an assignment came to be: the routing pipeline, a hand-off, or a policy's reassignment. */
export type AssignmentOrigin = 'route' | 'handoff' | 'reassign';

/**
 * escalating: a step is waiting (its people are paged, its timer runs);
 * exhausted: its policy ran out (or it never had anyone to page);
 * stopped: the alert was acknowledged or resolved while it escalated;
 * superseded: a hand-off replaced it.
 */
export type AssignmentStatus = 'escalating' | 'exhausted' | 'stopped' | 'superseded';

/** One step of a person's notification plan (the routing issue's notification-rule engine). */
export interface DeliveryStep {
  /** Unscaled offset after the page; the engine divides it by TIME_SCALE. */
  at_offset_ms: number;
  /** Channels to use; null = the person's default channels (decided when the page is sent). */
  channels: readonly string[] | null;
}

export interface WorkflowState {
  id: string;
  accountUserId: string;
  status: WorkflowStatus;
  template: PageTemplate;
  /** The person's notification plan, offsets already divided by TIME_SCALE. */
  plan: DeliveryStep[];
  /** How many entries of `plan` have been sent. */
  delivered: number;
  // Failover (SEMANTICS.md "Failover"). Absent on workflows stored before failover existed: their
  // messages were not counted, so they are never taken as unreachable.
  /** Every channel a message of this page went out on (plan deliveries and failovers), in order. */
  tried?: string[];
  /** How many messages went out (a channel two deliveries name counts twice); null: a delivery's channels were not known. */
  messages?: number | null;
  /** The ids of its messages that failed (each counted once). */
  failed?: string[];
  /** How many failover pages went out. */
  failovers?: number;
  /** Every message failed and no channel is left to try. */
  unreachable?: boolean;
}

/** The step an assignment waits on: who was paged, and when it times out. */
export interface StepState {
  /** `r<round>.l<layer index>` for a team's layer, `user` for an account user paged alone. */
  key: string;
  round: number;
  layerIndex: number;
  /** The policy layer's number (the schedule layer that was asked), null for a user paged alone. */
  layer: number | null;
  pagedAt: number;
  dueAt: number;
  /** Carried by the step's timer: a timer whose token is not the current one is stale. */
  token: string;
  workflows: WorkflowState[];
}

export interface AssignmentState {
  /** `a0`, `a1`, … in the order assignments were made (stable across retries). */
  id: string;
  /** Hand-offs start a new epoch; older epochs are history. */
  epoch: number;
  target: AssignmentTarget;
  origin: AssignmentOrigin;
  /** The assignment whose policy reassigned to this one. */
  parentId: string | null;
  startedAt: number;
  status: AssignmentStatus;
  /** The step now waiting; null unless escalating. */
  step: StepState | null;
  /** The last round and layer index reached (kept after the step ends, for logs and tests). */
  round: number;
  layerIndex: number;
  /** Whether this assignment's policy already reassigned the alert (it does so once). */
  reassigned: boolean;
}

export interface EscalationState {
  schema: 1;
  alertId: string;
  /** +1 on every change: the stored item is written on condition that it still holds the old one. */
  version: number;
  outcome: Outcome;
  epoch: number;
  /** How often the alert became dropped (keys of the drop's effects). */
  drops: number;
  /** Keys of the start events applied, so a redelivered start is a no-op. */
  appliedStarts: string[];
  assignments: AssignmentState[];
}

// ── Events ──────────────────────────────────────────────────────────────────────────────────────

export interface StartEvent {
  type: 'start';
  at: number;
  /** A business id of this assignment (a routing message, a hand-off): the same key twice is one start. */
  key: string;
  targets: AssignmentTarget[];
  /** `alert_handoff` makes it a hand-off: it replaces every assignment and pages with that template. */
  template?: PageTemplate;
}

export interface TimeoutEvent {
  type: 'timeout';
  at: number;
  token: string;
}

export interface AcknowledgeEvent {
  type: 'acknowledge';
  at: number;
}

export interface ResolveEvent {
  type: 'resolve';
  at: number;
}

export interface RejectEvent {
  type: 'reject';
  at: number;
  accountUserId: string;
  /**
   * Only these workflows (a one-click link names one; the API passes the caller's open ones, see
   * openWorkflowsOf), so a retried reject cannot reject the person's next workflow. Absent: every
   * open workflow of the person.
   */
  workflowIds?: readonly string[];
}

/** One message of a page failed (at sending, by a receipt, or its outcome is unknown): fail over. */
export interface DeliveryFailedEvent {
  type: 'delivery_failed';
  at: number;
  workflowId: string;
  /** The failed message (a notification id): the same failure twice counts once. */
  messageId: string;
  channel: string;
}

export type EscalationEvent = StartEvent | TimeoutEvent | AcknowledgeEvent | ResolveEvent | RejectEvent | DeliveryFailedEvent;

// ── Inputs ──────────────────────────────────────────────────────────────────────────────────────

export interface EscalationLayerInput {
  layer: number;
  timeout: number;
  timeout_unit: 'minutes' | 'hours';
}

/** The fields of an escalation policy record the engine reads. */
export interface PolicyInput {
  escalation_layers: readonly EscalationLayerInput[];
  repeat: number;
  reassign_team_ids: readonly string[];
  reassign_account_user_ids: readonly string[];
}

export type DropNotifications = 'none' | 'team_all' | 'team_admins' | 'oncall_rotation' | 'specific_users';

/** The fields of a team record the engine reads, with its policy (null: the team has none). */
export interface TeamInput {
  policy: PolicyInput | null;
  member_account_user_ids: readonly string[];
  admin_account_user_ids: readonly string[];
  drop_notifications: DropNotifications;
  drop_notification_account_user_ids: readonly string[];
}

export interface EngineInputs {
  /**
   * The team and its policy. `null`: the team does not exist (deleted); `undefined`: not loaded,
   * and the engine throws MissingTeamInputs naming every team it needs (see advanceWithLoader).
   */
  team(teamId: string): TeamInput | null | undefined;
  /** Account users on call on that schedule layer of the team's schedule at `at`. */
  oncallAt(teamId: string, layer: number, at: number): readonly string[];
  /** Everyone on call on any layer of the team's schedule at `at` (drop_notifications oncall_rotation). */
  oncallAnyLayerAt(teamId: string, at: number): readonly string[];
  /** TIME_SCALE: divides every relative timer. */
  timeScale: number;
  newWorkflowId(): string;
  /** The person's notification plan for a page; default: one immediate delivery on default channels. */
  deliveryPlan?(accountUserId: string, template: PageTemplate): readonly DeliveryStep[];
  /** False for an account user who no longer exists: a reassignment or assignment to them pages nobody. */
  accountUserExists?(accountUserId: string): boolean;
  /** The channels the person has an address for (failover picks among them); default: every channel. */
  receivableChannels?(accountUserId: string): readonly string[];
}

// ── Effects ─────────────────────────────────────────────────────────────────────────────────────

interface EffectBase {
  /** Deterministic: the same logical effect always has the same key (exactly-once by conditional put). */
  key: string;
  at: number;
}

export interface AssignmentStartedEffect extends EffectBase {
  type: 'assignment_started';
  assignmentId: string;
  target: AssignmentTarget;
  origin: AssignmentOrigin;
  parentAssignmentId: string | null;
}

export interface OpenWorkflowEffect extends EffectBase {
  type: 'open_workflow';
  workflowId: string;
  assignmentId: string;
  /** The team whose policy paged, null for an account user paged alone. */
  teamId: string | null;
  accountUserId: string;
  round: number;
  layer: number | null;
  template: PageTemplate;
}

export interface PageEffect extends EffectBase {
  type: 'page';
  workflowId: string;
  assignmentId: string;
  accountUserId: string;
  template: PageTemplate;
  /** Index in the person's notification plan (0 = the first notification of this page). */
  delivery: number;
  channels: readonly string[] | null;
  /** The nth failover of the page (its message on the next channel after a failure); absent for the plan's deliveries. */
  failover?: number;
}

export interface CloseWorkflowEffect extends EffectBase {
  type: 'close_workflow';
  workflowId: string;
  assignmentId: string;
  accountUserId: string;
  status: ClosedWorkflowStatus;
}

export interface NotifyEffect extends EffectBase {
  type: 'notify';
  template: NotifyTemplate;
  accountUserId: string;
  /** alert_rejected: who rejected; alert_dropped: null. */
  actorAccountUserId: string | null;
  /** The team whose drop_notifications named this person (alert_dropped), else null. */
  teamId: string | null;
}

export interface SetAlertStatusEffect extends EffectBase {
  type: 'set_alert_status';
  /** dropped: only from open; open: only from dropped (a new assignment revives a dropped alert). */
  status: 'dropped' | 'open';
}

export interface ScheduleTimerEffect extends EffectBase {
  type: 'schedule_timer';
  assignmentId: string;
  token: string;
  dueAt: number;
}

export type LogKind =
  | 'escalated'
  | 'layer_skipped'
  | 'repeated'
  | 'reassigned'
  | 'exhausted'
  | 'dropped'
  | 'reopened'
  | 'stopped'
  | 'superseded'
  | 'rejected'
  | 'unreachable';

export interface LogEffect extends EffectBase {
  type: 'log';
  kind: LogKind;
  assignmentId: string | null;
  detail: Record<string, string | number | boolean | null | readonly string[]>;
}

export type EscalationEffect =
  | AssignmentStartedEffect
  | OpenWorkflowEffect
  | PageEffect
  | CloseWorkflowEffect
  | NotifyEffect
  | SetAlertStatusEffect
  | ScheduleTimerEffect
  | LogEffect;

/** Why an event changed nothing. */
export type IgnoredReason =
  | 'duplicate_start'
  | 'alert_stopped'
  | 'stale_timer'
  | 'not_due'
  | 'no_open_workflow'
  | 'already_stopped'
  /** delivery_failed: that failure was counted already. */
  | 'duplicate_failure'
  /** delivery_failed: the page is over (its workflow closed, or its step moved on). */
  | 'page_answered';

export interface AdvanceResult {
  state: EscalationState;
  effects: EscalationEffect[];
  /** False: nothing to write, nothing to do. */
  changed: boolean;
  ignored?: IgnoredReason;
}
