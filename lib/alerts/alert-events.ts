// Alert events for outgoing webhooks (docs/api.md#routers-and-automations) and for Slack's team
// messages (docs/api.md#slack): every change of an alert is written to its timeline (timeline.ts),
// and the changes a subscriber can subscribe to are published from there, so no change is missed,
// whichever path made it (API, webhook, routing, escalation, Slack). Besides the webhook events, a
// subscriber may ask for every change of an alert's status or assignee (STATUS_OR_ASSIGNEE_CHANGED). Publishing is one
// group-committed queue message per event, only when a subscriber wants it; the subscriber list is
// cached in-process for a few seconds (changes made in this process drop it at once). The message
// carries the alert as the change left it, in the earlier representation, so a later change does not
// rewrite what an earlier event said. A failure to publish is logged and never fails the change.
import { TtlCache } from '../ttl-cache';
import { config } from '../config';
import { GroupCommit } from '../group-commit';
import { prefixId } from '../ids';
import { logger } from '../log';
import { sendBatch } from '../queues/client';
import { listAlertEventSubscribers, putAlertEventSubscriber, type AlertEventSubscriber } from './event-subscriber-store';
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
};

/** The event a timeline entry is, or null when webhooks are not told about it. */
export function alertEventOf(entry: Pick<AlertChange, 'action' | 'oldStatus' | 'newStatus'>): string | null {
  if (entry.action === 'timeout' || entry.action === 'timed_out') return 'alert.timeout';
  const direct = BY_ACTION[entry.action];
  if (direct) return direct;
  const moved = (to: AlertStatus) => entry.newStatus === to && entry.oldStatus !== entry.newStatus;
  if (moved('dropped')) return 'alert.dropped';
  // Routing assigning a new alert is when it opens for the people it pages (the real service's
  // queued → open); escalation moving an alert back to open is too.
  if (entry.action === 'routed' && entry.newStatus === 'open') return 'alert.open';
  if (moved('open')) return 'alert.open';
  return null;
}

const CACHE_MS = 5_000;
const subscribers = new TtlCache<AlertEventSubscriber[]>(() => CACHE_MS);

async function subscribersOf(accountId: string): Promise<AlertEventSubscriber[]> {
  const cached = subscribers.get(accountId);
  if (cached) return cached;
  const found = await listAlertEventSubscribers(accountId);
  subscribers.set(accountId, found);
  return found;
}

/** Sets or removes (null) a subscriber of the account's alert events. */
export async function setAlertEventSubscriber(accountId: string, subscriberId: string, events: string[] | null): Promise<void> {
  await putAlertEventSubscriber(accountId, subscriberId, events);
  subscribers.delete(accountId);
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
    };
    let body = JSON.stringify(message);
    if (body.length > MAX_MESSAGE_CHARS) body = JSON.stringify({ ...message, alert: undefined });
    await sends.add(body);
  } catch (error) {
    logger.error('alert event not published', { error: error as Error, alertId: prefixId('alert', entry.alert.id), event });
  }
}
