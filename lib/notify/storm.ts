// Storm protection, the flush side (GoAlert does it): when a person's window opens, the messages
// that waited go out as ONE message ("3 new alerts: …"); every bundled page stays a notification of
// its own, recorded `sent` with provider_status `bundled` and group_id naming the one that carried
// it. A page answered meanwhile (acknowledged, timed out) is cancelled instead. The bundle is
// claimed in the rate item (in flight, with a deadline) before anything is sent, so a crash leaves
// it for the next flush: queued messages go out then, a message caught mid-call is recorded as an
// unknown outcome, never sent twice.
import { now as clockNow } from '../clock';
import { logger } from '../log';
import { planSends, renderBundle, type PendingPage, type RateLimitedChannel } from './content/bundling';
import { scheduleFlush, sendWindowMs } from './rate-limit';
import type { NotificationRecord } from './records';
import { cancelNotification, markOutcomeUnknown, sendNow } from './send';
import {
  addWaiting,
  clearFlush,
  getNotifications,
  getRateItem,
  listWaiting,
  moveNotification,
  postponeFlush,
  releaseBundle,
  removeWaiting,
  takeBundle,
  type RateItem,
} from './store';

/** How long a flusher may work on one bundle before another may take it over. */
const INFLIGHT_MS = 30_000;
/** The most messages one flush reads (a larger backlog goes in the next window's bundle). */
const MAX_BUNDLE = 500;

export type FlushOutcome = 'idle' | 'waiting' | 'busy' | 'sent' | 'raced';

/** Which of these waiting notifications should still go out (their page is not answered yet). */
export type StillWanted = (notifications: NotificationRecord[]) => Promise<Set<string>>;

/** What became of a bundle's messages once it went out (the caller fails over the failed ones). */
export type BundleSettled = (records: NotificationRecord[]) => Promise<void>;

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

/** A bundle whose flusher stopped: queued messages wait again, a message caught mid-call is an unknown outcome. */
async function recoverInflight(rate: RateItem): Promise<void> {
  const records = await getNotifications(rate.account_id, rate.inflight);
  for (const record of records) {
    if (record.status === 'queued') await addWaiting(rate.account_id, rate.account_user_id, rate.channel, record.id, clockNow());
    else if (record.status === 'sending') await markOutcomeUnknown(record);
  }
  await releaseBundle(rate, clockNow());
}

export async function flushRateLimited(
  accountId: string,
  accountUserId: string,
  channel: RateLimitedChannel,
  stillWanted: StillWanted,
  settled?: BundleSettled,
): Promise<FlushOutcome> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const rate = await getRateItem(accountId, accountUserId, channel);
    const now = clockNow();
    if (rate.inflight.length > 0) {
      if ((rate.inflight_until ?? 0) > now) return 'busy';
      await recoverInflight(rate);
      continue;
    }
    const window = sendWindowMs();
    if (rate.last_sent_at !== null && now < rate.last_sent_at + window) {
      const opensAt = rate.last_sent_at + window;
      if (rate.due_at === opensAt) return 'waiting';
      if (!(await postponeFlush(rate, opensAt))) continue;
      await scheduleFlush(rate, opensAt);
      return 'waiting';
    }
    const ids = await listWaiting(accountId, accountUserId, channel, MAX_BUNDLE);
    if (ids.length === 0) {
      if (await clearFlush(rate)) return 'idle';
      continue;
    }
    const records = (await getNotifications(accountId, ids)) as (NotificationRecord & Bundled)[];
    const waiting = records.filter((record) => record.status === 'queued');
    const wanted = await stillWanted(waiting);
    const plan = planSends({
      now,
      channel,
      lastSentAt: rate.last_sent_at,
      pending: waiting.map((r) => pageOf(r, wanted)),
      windowMs: window,
    });
    const carrying = plan.kind === 'send' ? [plan.carrier, ...plan.bundled].map((page) => page.notificationId) : [];
    // Every id read leaves the waiting list: carried, cancelled, or already finished elsewhere.
    if (!(await takeBundle(rate, carrying, ids.length, now, now + INFLIGHT_MS))) continue;
    await removeWaiting(accountId, accountUserId, channel, ids);
    for (const page of plan.cancelled) {
      const record = waiting.find((r) => r.id === page.notificationId);
      if (record) await cancelNotification(record, 'its page was answered before it could be sent');
    }
    if (plan.kind !== 'send') {
      // Nothing left to send: look again (messages may have arrived meanwhile, else clear the flush).
      await releaseBundle(rate, now);
      continue;
    }

    const carrier = waiting.find((record) => record.id === plan.carrier.notificationId)!;
    const text = plan.alerts.length > 1 ? renderBundle(channel, plan.alerts).message : undefined;
    const sent = await sendNow(carrier, undefined, text !== undefined ? { message: text, subject: null } : undefined);
    const at = new Date(clockNow()).toISOString();
    const bundled = await Promise.all(
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
    await settled?.([sent, ...bundled.filter((record): record is NotificationRecord => record !== null)]);
    // Whatever arrived meanwhile waits for the next window.
    await releaseBundle(rate, now + window);
    await scheduleFlush(rate, now + window);
    logger.debug('storm protection: bundle sent', { accountUserId, channel, carried: carrying.length });
    return 'sent';
  }
  return 'raced';
}
