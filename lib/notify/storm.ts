// Storm protection, the flush side (GoAlert does it): when a person's window opens, the messages
// that waited go out as ONE message ("3 new alerts: …"); every bundled page stays a notification of
// its own, recorded `sent` with provider_status `bundled` and group_id naming the one that carried
// it. A page answered meanwhile (acknowledged, timed out) is cancelled instead. The bundle is
// claimed in the rate item (inflight, with a deadline) before anything is sent, so a crash leaves
// it for the next flush: queued messages go out then, a message caught mid-call is recorded as an
// unknown outcome, never sent twice.
import { now as clockNow } from '../clock';
import { logger } from '../log';
import { planSends, renderBundle, type PendingPage, type RateLimitedChannel } from './content';
import { scheduleFlush, sendWindowMs } from './rate-limit';
import type { NotificationRecord } from './records';
import { cancelNotification, markOutcomeUnknown, sendNow } from './send';
import { getNotifications, getRateItem, moveNotification, saveRateItem, type RateItem } from './store';

/** How long a flusher may work on one bundle before another may take it over. */
const INFLIGHT_MS = 30_000;

export type FlushOutcome = 'idle' | 'waiting' | 'busy' | 'sent' | 'raced';

/** Whether a waiting notification should still go out (its page is not answered yet). */
export type StillWanted = (notifications: NotificationRecord[]) => Promise<Set<string>>;

interface Bundled {
  bundle?: { tiny_id: number; title: string; urgency: string };
}

function pageOf(record: NotificationRecord & Bundled, wanted: Set<string>): PendingPage {
  return {
    notificationId: record.id,
    alertId: record.alert_id ?? record.id,
    tinyId: record.bundle?.tiny_id ?? 0,
    title: record.bundle?.title ?? record.subject ?? record.message,
    urgency: record.bundle?.urgency ?? '',
    createdAt: Date.parse(record.created_at),
    stillWanted: wanted.has(record.id),
  };
}

/** Takes back a bundle whose flusher stopped: queued messages wait again, a message caught mid-call is an unknown outcome. */
async function recoverInflight(rate: RateItem): Promise<RateItem> {
  const records = await getNotifications(rate.account_id, rate.inflight);
  const requeue: string[] = [];
  for (const record of records) {
    if (record.status === 'queued') requeue.push(record.id);
    else if (record.status === 'sending') await markOutcomeUnknown(record);
  }
  return { ...rate, pending: [...requeue, ...rate.pending], inflight: [], inflight_until: null };
}

export async function flushRateLimited(
  accountId: string,
  accountUserId: string,
  channel: RateLimitedChannel,
  stillWanted: StillWanted,
): Promise<FlushOutcome> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const stored = await getRateItem(accountId, accountUserId, channel);
    const now = clockNow();
    if (stored.inflight.length > 0 && (stored.inflight_until ?? 0) > now) return 'busy';
    const rate = stored.inflight.length > 0 ? await recoverInflight(stored) : stored;
    const window = sendWindowMs();
    if (rate.pending.length === 0) {
      if (rate.due_at !== null || rate !== stored) await saveRateItem({ ...rate, due_at: null }, stored.version);
      return 'idle';
    }
    if (rate.last_sent_at !== null && now < rate.last_sent_at + window) {
      const dueAt = rate.last_sent_at + window;
      if (rate.due_at !== dueAt || rate !== stored) {
        if (!(await saveRateItem({ ...rate, due_at: dueAt }, stored.version))) continue;
        await scheduleFlush(rate, dueAt);
      }
      return 'waiting';
    }

    const records = (await getNotifications(accountId, rate.pending)) as (NotificationRecord & Bundled)[];
    const waiting = records.filter((record) => record.status === 'queued');
    const wanted = await stillWanted(waiting);
    const plan = planSends({
      now,
      channel,
      lastSentAt: rate.last_sent_at,
      pending: waiting.map((r) => pageOf(r, wanted)),
      windowMs: window,
    });
    const cancelled = new Set(plan.cancelled.map((page) => page.notificationId));
    if (plan.kind !== 'send') {
      if (!(await saveRateItem({ ...rate, pending: [], due_at: null }, stored.version))) continue;
      for (const record of waiting)
        if (cancelled.has(record.id)) await cancelNotification(record, 'its page was answered before it could be sent');
      return 'idle';
    }
    const carrying = [plan.carrier, ...plan.bundled].map((page) => page.notificationId);
    const claim: RateItem = {
      ...rate,
      pending: [],
      inflight: carrying,
      inflight_until: now + INFLIGHT_MS,
      last_sent_at: now,
      due_at: now + INFLIGHT_MS,
    };
    if (!(await saveRateItem(claim, stored.version))) continue;
    for (const record of waiting)
      if (cancelled.has(record.id)) await cancelNotification(record, 'its page was answered before it could be sent');

    const byId = new Map(records.map((record) => [record.id, record]));
    const carrier = byId.get(plan.carrier.notificationId)!;
    const several = plan.alerts.length > 1;
    const text = several ? renderBundle(channel, plan.alerts).message : undefined;
    const sent = await sendNow(carrier, undefined, text !== undefined ? { message: text, subject: null } : undefined);
    const at = new Date(clockNow()).toISOString();
    await Promise.all(
      plan.bundled.map((page) =>
        moveNotification(
          accountId,
          page.notificationId,
          ['queued'],
          {
            status: sent.status === 'failed' ? 'failed' : 'sent',
            provider: sent.provider,
            provider_status: 'bundled',
            group_id: carrier.id,
            sent_at: sent.status === 'failed' ? null : (sent.sent_at ?? at),
            err: sent.status === 'failed' ? [`bundled into ${carrier.id}, which failed`, ...sent.err] : [],
            ...(text !== undefined ? { message: text } : {}),
          },
          at,
        ),
      ),
    );
    // The bundle is done: release it; whatever arrived meanwhile waits for the next window.
    for (let release = 0; release < 10; release++) {
      const current = await getRateItem(accountId, accountUserId, channel);
      const next: RateItem = {
        ...current,
        inflight: [],
        inflight_until: null,
        due_at: current.pending.length ? now + window : null,
      };
      if (await saveRateItem(next, current.version)) {
        if (next.due_at !== null) await scheduleFlush(next, next.due_at);
        break;
      }
    }
    logger.debug('storm protection: sent', { accountUserId, channel, carried: carrying.length });
    return 'sent';
  }
  return 'raced';
}
