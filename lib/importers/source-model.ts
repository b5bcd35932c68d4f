// The source-neutral snapshot an importer reads from another on-call service (Opsgenie, PagerDuty,
// Grafana OnCall) and the interface each source implements. The apply step and the proof read
// only this shape, so a source's quirks stay in its reader: a reader translates what it can into
// these terms and lists the rest in `unsupported` with its reason, never dropping it silently.
//
// Conventions (every source):
// - Instants are ISO 8601 strings with `Z` or an offset (`2026-03-01T09:00:00Z`); compare them
//   with Date.parse, never as strings.
// - Times of day are `HH:MM` (24 h) on the wall clock of the time zone named next to them.
// - Time zones are IANA names (`Europe/Berlin`); a reader converts a source's own names.
// - Weekdays are ISO numbers: 1 = Monday … 7 = Sunday.
// - Every `sourceId` is the source's own identifier, stable across runs: the apply step keeps the
//   mapping (source, kind, sourceId) → our id with it, so a second run updates instead of
//   duplicating. A reference to another object uses that object's `sourceId`.
//
// Changes after the first commit are additive only (new optional fields, new union members), and
// each is named in its commit message: another source's reader is written against this file.

export type SourceName = 'opsgenie' | 'pagerduty' | 'grafana-oncall';

/** An ISO 8601 instant with `Z` or an offset. */
export type Instant = string;

/** A time of day, `HH:MM`, on a wall clock named next to it. */
export type TimeOfDay = string;

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

// ---------------------------------------------------------------------------------------------
// People and teams

export interface SourcePhone {
  /** E.164 when the source gives it so (`+4915112345678`); otherwise as the source holds it. */
  number: string;
  /** What the source uses the number for; `both` when it does not say. */
  use: 'sms' | 'voice' | 'both';
}

/**
 * Roles normalized across sources: `owner` and `admin` administer the account; `user` is a
 * responder; `observer` may only look (PagerDuty's observer/restricted access, Grafana's Viewer).
 */
export type SourceRole = 'owner' | 'admin' | 'user' | 'observer';

export interface SourceUser {
  sourceId: string;
  name: string;
  /** The login e-mail first; further contact addresses after it. Never empty. */
  emails: string[];
  phones: SourcePhone[];
  timeZone?: string;
  role: SourceRole;
  /** The source's own role name, for the plan and the unsupported list (`Stakeholder`, `custom`). */
  sourceRole?: string;
}

export interface SourceTeam {
  sourceId: string;
  name: string;
  description?: string;
  /** Every member, admins included. */
  memberSourceIds: string[];
  /** Members who administer the team (Opsgenie's `admin` team role, PagerDuty's `manager`). */
  adminSourceIds: string[];
}

// ---------------------------------------------------------------------------------------------
// Schedules

/** How long one participant's turn lasts before the hand-off to the next. */
export interface TurnLength {
  unit: 'hours' | 'days' | 'weeks';
  /** A whole number ≥ 1. Days and weeks are wall-clock units of the layer's time zone. */
  count: number;
}

/** One slot of a rotation, in rotation order. */
export type SourceParticipant =
  /** One person, or several on call together for the same turn (Grafana OnCall's user groups). */
  | { kind: 'users'; userSourceIds: string[] }
  /** An empty slot: nobody is on call on this layer for that turn (Opsgenie's `none`). */
  | { kind: 'nobody' }
  /** A team holds the turn (Opsgenie): the source pages that team's own escalation for it. */
  | { kind: 'team'; teamSourceId: string }
  /** An escalation policy holds the turn (Opsgenie). */
  | { kind: 'escalation-policy'; policySourceId: string };

/**
 * When, within each turn, the layer is on call; outside every interval of a restriction list the
 * layer has nobody (a lower layer, or nobody, shows through). Intervals are on the wall clock of
 * the layer's `restrictionTimeZone`, and so are their `minutes`: 18:00 for 840 minutes ends at
 * 08:00 local also on the night the clocks change.
 */
export type SourceRestriction =
  /** Every day from `start` for `minutes` (may run past midnight: 18:00 for 900 min ends 09:00). */
  | { kind: 'daily'; start: TimeOfDay; minutes: number }
  /** Every week from `startDay` at `start` for `minutes` (may wrap past Sunday into Monday). */
  | { kind: 'weekly'; startDay: IsoWeekday; start: TimeOfDay; minutes: number };

/** A rotation: participants take turns of `length`, the first turn beginning at `start`. */
export interface SourceRotationLayer {
  kind: 'rotation';
  sourceId: string;
  name: string;
  /**
   * The anchor of the hand-offs: turn k runs from start + k × length (wall clock of `timeZone`)
   * and belongs to participant k mod n. May lie before `activeFrom` (PagerDuty's
   * `rotation_virtual_start`, Grafana OnCall's `rotation_start`).
   */
  start: Instant;
  /** Before this instant the layer has nobody (PagerDuty's layer `start`); none = from `start`. */
  activeFrom?: Instant;
  /** The layer stops here (exclusive); none = it runs on. */
  end?: Instant;
  length: TurnLength;
  /** The zone whose wall clock the turns follow (the schedule's unless the source says else). */
  timeZone: string;
  participants: SourceParticipant[];
  /** Empty = on call around the clock. Several intervals add up (a union). */
  restrictions: SourceRestriction[];
  /** The zone of the restrictions' wall clock; the layer's `timeZone` when the source says none. */
  restrictionTimeZone: string;
  /**
   * How a turn meets a restriction: `partial` cuts the turn to the restricted intervals and the
   * turn still ends on schedule (Opsgenie, PagerDuty). Other behaviours arrive as new members.
   */
  restrictionMode: 'partial';
}

/**
 * A layer the source can only describe as explicit shifts (Grafana OnCall's single events,
 * recurrences our terms cannot carry): each shift is on call as given.
 */
export interface SourceShiftsLayer {
  kind: 'shifts';
  sourceId: string;
  name: string;
  timeZone: string;
  shifts: { start: Instant; end: Instant; userSourceIds: string[] }[];
}

export type SourceLayer = SourceRotationLayer | SourceShiftsLayer;

/** An override: for its span, the named user(s) replace who the schedule would have on call. */
export interface SourceOverride {
  /** The source's id when it has one; otherwise a stable id the reader derives (schedule + start + user). */
  sourceId: string;
  start: Instant;
  end: Instant;
  /** Empty = nobody is on call for the span. */
  userSourceIds: string[];
  /**
   * What it replaces: `schedule` = the whole schedule's result (PagerDuty, Grafana OnCall);
   * a list of layer ids = only those layers' turns (an Opsgenie override naming rotations);
   * Opsgenie's override without rotations replaces every layer, which a reader says as `schedule`.
   */
  replaces: 'schedule' | { layerSourceIds: string[] };
}

export interface SourceSchedule {
  sourceId: string;
  name: string;
  description?: string;
  /** The schedule's zone (IANA). */
  timeZone: string;
  /** The team that owns it, when the source has one. */
  teamSourceId?: string;
  enabled: boolean;
  /**
   * How layers combine at one instant:
   * - `all-at-once`: every layer's on-call people are on call together (Opsgenie rotations).
   * - `higher-wins`: the last layer in `layers` with somebody on call decides alone; layers listed
   *   later are higher (PagerDuty's layers, Grafana OnCall's priority levels; the reader orders them).
   */
  layerCombination: 'all-at-once' | 'higher-wins';
  /** In the source's order, lowest first. */
  layers: SourceLayer[];
  overrides: SourceOverride[];
}

// ---------------------------------------------------------------------------------------------
// Escalation policies

export type SourceEscalationTarget =
  | { kind: 'user'; userSourceId: string }
  /**
   * A schedule's people: `on-call` = who is on call when the step runs (the default); `next` and
   * `previous` = the next or previous person in rotation (Opsgenie's notifyType).
   */
  | { kind: 'schedule'; scheduleSourceId: string; who: 'on-call' | 'next' | 'previous' }
  /**
   * A team: `escalation` = the team's own default escalation runs (Opsgenie's team recipient);
   * `members`, `admins` = those people, all at once.
   */
  | { kind: 'team'; teamSourceId: string; who: 'escalation' | 'members' | 'admins' }
  | { kind: 'escalation-policy'; policySourceId: string };

export interface SourceEscalationStep {
  /** Minutes after the policy starts that this step notifies (cumulative: 0, 5, 15 …). */
  atMinute: number;
  targets: SourceEscalationTarget[];
  /**
   * When the step runs: while the alert is not acknowledged (the usual) or while it is not
   * closed (Opsgenie's `if-not-closed`).
   */
  condition: 'if-not-acknowledged' | 'if-not-closed';
}

export interface SourceEscalationPolicy {
  sourceId: string;
  name: string;
  description?: string;
  teamSourceId?: string;
  /** In order of `atMinute`. */
  steps: SourceEscalationStep[];
  /**
   * How many more times the steps run after the last one (0 = once through).
   * `afterMinutes`: the wait after the last step before a repeat starts, when the source has one.
   */
  repeat: { times: number; afterMinutes?: number };
}

// ---------------------------------------------------------------------------------------------
// Integrations

export interface SourceIntegration {
  sourceId: string;
  name: string;
  /** The source's integration type as it names it (`API`, `Prometheus`, `events_api_v2_inbound_integration`, `grafana_alerting`). */
  type: string;
  enabled: boolean;
  teamSourceId?: string;
  /** The policy that alerts from it run, when the source links one (PagerDuty's service, Grafana's route). */
  escalationPolicySourceId?: string;
  /**
   * Where senders reach it at the source: a URL, or a key senders put into a source's fixed URL
   * (Opsgenie's API key, PagerDuty's integration/routing key). Printed next to our new address.
   */
  oldAddress?: string;
  /**
   * What senders hold of the old address: `key` = a key they send to the source's fixed API
   * (Opsgenie's GenieKey, PagerDuty's routing key), so here they change the API's URL and put in our
   * integration's id; `url` = an address of its own; `email` = an address to mail to.
   */
  addressKind?: 'url' | 'key' | 'email';
  /**
   * The key itself when senders hold one (Opsgenie's API key, PagerDuty's integration key): carried
   * over, so that they change only the URL (lib/integrations/sender-keys.ts). Never printed; only its
   * hash is stored. Added after the model's first commit (additive).
   */
  senderKey?: string;
}

// ---------------------------------------------------------------------------------------------
// The snapshot and the source

export type SourceObjectKind =
  'user' | 'team' | 'schedule' | 'layer' | 'override' | 'escalation-policy' | 'escalation-step' | 'integration' | 'other';

/** Something the source has that the snapshot cannot carry (or carries only in part), and why. */
export interface UnsupportedItem {
  kind: SourceObjectKind;
  sourceId: string;
  name: string;
  reason: string;
}

export interface Snapshot {
  source: SourceName;
  /** When it was read (the reader's clock). */
  readAt: Instant;
  users: SourceUser[];
  teams: SourceTeam[];
  schedules: SourceSchedule[];
  escalationPolicies: SourceEscalationPolicy[];
  integrations: SourceIntegration[];
  unsupported: UnsupportedItem[];
}

/** One stretch of the source's own rendered on-call: these people from start (incl.) to end (excl.). */
export interface OnCallSpan {
  start: Instant;
  end: Instant;
  /** Sorted; empty = nobody on call. */
  userSourceIds: string[];
}

export interface ImportSource {
  readonly name: SourceName;
  /** Reads everything the importer needs from the source, paging through its lists. */
  read(): Promise<Snapshot>;
  /**
   * Who the source itself says is on call for a schedule over [from, to) — Opsgenie's schedule
   * timeline, PagerDuty's rendered `final_schedule`, Grafana OnCall's final shifts — as contiguous
   * spans covering the window (gaps as spans with no users). The proof compares ours with this.
   */
  renderedOnCall(scheduleSourceId: string, from: Instant, to: Instant): Promise<OnCallSpan[]>;
}
