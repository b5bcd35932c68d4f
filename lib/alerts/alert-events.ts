// Alert events for outgoing webhooks (docs/api.md#routers-and-automations), teams' chat webhooks
// (docs/api.md#chat-webhooks) and Slack's team messages (docs/api.md#slack): every change of an alert
// is written to its timeline (timeline.ts), and the changes a subscriber can subscribe to are
// published from there, so no change is missed, whichever path made it (API, webhook, routing,
// escalation, Slack). Besides the named events, a subscriber may ask for every change of an alert's
// status or assignee (STATUS_OR_ASSIGNEE_CHANGED). Publishing is one group-committed queue message per
// event, only when a subscriber wants it; the subscriber list is cached in-process for a few seconds
// (lib/alert-subscribers: changes made in this process drop it at once). The message
// carries the alert as the change left it, in the earlier representation, so a later change does not
// rewrite what an earlier event said. A failure to publish is logged and never fails the change.
import { subscribersOf } from '../alert-subscribers/subscribers';
import { config } from '../config';
import { GroupCommit } from '../group-commit';
import { parsePrefixedId, prefixId } from '../ids';
import { logger } from '../log';
import { sendBatch } from '../queues/client';
import { actorPrefixId } from './actor';
import type { Actor, AlertRecord, AlertStatus } from './records';
import { alertToEarlier } from './represent';

/** A change as the timeline records it (timeline.ts TimelineEntry). */
export interface AlertChange {
  alert: AlertRecord;
  action: string;
  /** Who made it; absent for the service's own steps. */
  actor?: Actor;
  oldStatus: AlertStatus | null;
  newStatus: AlertStatus | null;
  time: string;
  details?: Record<string, unknown>;
}

export interface AlertEventMessage {
  kind: 'event';
  account_id: string;
  alert_id: string;
  /** alert.created, alert.acknowledged, … */
  event: string;
  /** The timeline entry that recorded the change (deliveries derive their ids from it). */
  event_id: string;
  at: string;
  subscribers: string[];
  /** The alert after the change, earlier representation; absent when too large for a message. */
  alert?: Record<string, unknown>;
  /** The timeline's action (acknowledged, handoff, routed, …) and who made it (`usr_…`, `int_…`; null: the service). */
  action?: string;
  actor?: string | null;
  /** Assignees the change gave the alert (`tem_…`, `acu_…`, `usr_…`): routing's, a hand-off's target, a policy's reassignment. */
  assigned?: string[];
  /** ULIDs of the teams the alert belonged to after the change (sent to, assigned, handed off to). */
  teams?: string[];
}

/** The event of a subscriber that wants every change of an alert's status or assignee (Slack's team messages). */
export const STATUS_OR_ASSIGNEE_CHANGED = 'alert.status_or_assignee_changed';

/** Timeline actions that (may) give an alert another assignee, or name who changed its status. */
const ASSIGNING_ACTIONS = new Set(['routed', 'handoff', 'reassigned', 'acknowledged', 'resolved', 'archived', 'dropped', 'suppressed']);

/** Whether a timeline entry changes an alert's status or assignee. Its creation is neither: routing assigns it. */
export function changesStatusOrAssignee(entry: Pick<AlertChange, 'action' | 'oldStatus' | 'newStatus'>): boolean {
  if (entry.action === 'created' || entry.action === 'deleted') return false;
  if (ASSIGNING_ACTIONS.has(entry.action)) return true;
  return entry.newStatus !== null && entry.oldStatus !== entry.newStatus;
}

const BY_ACTION: Record<string, string> = {
  created: 'alert.created',
  acknowledged: 'alert.acknowledged',
  rejected: 'alert.rejected',
  resolved: 'alert.resolved',
  dropped: 'alert.dropped',
  handoff: 'alert.handoff',
  // Not outgoing webhook events (ALERT_EVENTS): only chat webhooks subscribe to these.
  reassigned: 'alert.reassigned',
  archived: 'alert.archived',
};

/** The event a timeline entry is, or null when webhooks are not told about it. */
export function alertEventOf(entry: Pick<AlertChange, 'action' | 'oldStatus' | 'newStatus'>): string | null {
  if (entry.action === 'timeout' || entry.action === 'timed_out') return 'alert.timeout';
  const direct = BY_ACTION[entry.action];
  if (direct) return direct;
  const moved = (to: AlertStatus) => entry.newStatus === to && entry.oldStatus !== entry.newStatus;
  if (moved('dropped')) return 'alert.dropped';
  // Routing assigning a new alert is when it opens for the people it pages (the real service's
  // queued → open); escalation moving an alert back to open is too. An alert someone acknowledged or
  // resolved before routing ran is still assigned (only chat webhooks hear of that).
  if (entry.action === 'routed' && entry.newStatus === 'open') return 'alert.open';
  if (entry.action === 'routed' && (entry.newStatus === 'acknowledged' || entry.newStatus === 'resolved')) return 'alert.assigned';
  if (moved('open')) return 'alert.open';
  return null;
}

/** The assignees a change added, as prefix ids: what routing assigned, a hand-off's target, a policy's reassignment. */
export function assigneesAddedBy(entry: Pick<AlertChange, 'alert' | 'action' | 'details'>): string[] {
  const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  switch (entry.action) {
    case 'routed':
      return entry.alert.assignments.map((a) => prefixId(a.type === 'team' ? 'team' : 'accountUser', a.id));
    case 'handoff':
      return typeof entry.details?.to === 'string' ? [entry.details.to] : [];
    case 'reassigned':
      return [
        ...ids(entry.details?.team_ids).map((id) => prefixId('team', id)),
        ...ids(entry.details?.account_user_ids).map((id) => prefixId('accountUser', id)),
      ];
    default:
      return [];
  }
}

/** Every team the alert belongs to: sent to, assigned by routing, assigned now, handed off to. */
function teamsOfAlert(alert: AlertRecord): string[] {
  const teams = new Set(alert.destination_team_ids);
  for (const a of alert.assignments) if (a.type === 'team') teams.add(a.id);
  if (alert.assigned_team_id) teams.add(alert.assigned_team_id);
  for (const handoff of alert.handoffs) {
    const to = parsePrefixedId(handoff.to);
    if (to?.kind === 'team') teams.add(to.id);
  }
  return [...teams];
}

const sends = new GroupCommit<string>(
  async (bodies) => {
    const queueUrl = config().WEBHOOK_QUEUE_URL;
    if (!queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not configured: alert events cannot be published');
    return sendBatch(queueUrl, bodies);
  },
  10,
  4,
);

const MAX_MESSAGE_CHARS = 200_000;

/** Publishes the event of a timeline entry (id `entryId`) to the subscribers that want it. */
export async function publishAlertEvent(entry: AlertChange, entryId: string): Promise<void> {
  const webhookEvent = alertEventOf(entry);
  const changed = changesStatusOrAssignee(entry);
  if (!webhookEvent && !changed) return;
  const event = webhookEvent ?? STATUS_OR_ASSIGNEE_CHANGED;
  try {
    const wanted = (await subscribersOf(entry.alert.account_id))
      .filter((s) => s.events.includes(event) || (changed && s.events.includes(STATUS_OR_ASSIGNEE_CHANGED)))
      .map((s) => s.id);
    if (wanted.length === 0) return;
    const message: AlertEventMessage = {
      kind: 'event',
      account_id: entry.alert.account_id,
      alert_id: entry.alert.id,
      event,
      event_id: entryId,
      at: entry.time,
      subscribers: wanted,
      alert: alertToEarlier(entry.alert),
      action: entry.action,
      actor: entry.actor ? actorPrefixId(entry.actor) : null,
      assigned: assigneesAddedBy(entry),
      teams: teamsOfAlert(entry.alert),
    };
    let body = JSON.stringify(message);
    if (body.length > MAX_MESSAGE_CHARS) body = JSON.stringify({ ...message, alert: undefined });
    await sends.add(body);
  } catch (error) {
    logger.error('alert event not published', { error: error as Error, alertId: prefixId('alert', entry.alert.id), event });
  }
}
