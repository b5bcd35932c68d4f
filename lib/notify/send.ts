// Records and sends one notification, exactly once (docs/api.md#escalation-and-notifications). The record is written before the
// provider is called (a page is recorded even when delivery fails): `sending` by a conditional put
// when it goes out at once, else `queued` and moved to `sending` by a conditional write when it
// does; then to its outcome. A crash between the claim and the provider's answer leaves `sending`,
// which a retry marks `failed` ("outcome unknown") instead of sending the message again; a put
// whose answer was lost (applied, then retried by the SDK) is this call's own by its insert token,
// not a crash, and goes on. SMS and calls go through storm protection (./storm.ts).
import { now as clockNow } from '../clock';
import { logger } from '../log';
import { recordMetric } from '../metrics';
import { providerFor } from './providers/select-provider';
import type { DeliveryResult, OutgoingMessage } from './providers/provider';
import type { SlackMessage } from './content';
import type { Channel, NotificationRecord } from './records';
import { getNotification, insertNotification, moveNotification, putPhonePage, putProviderMessage } from './store';
import { queueRateLimited } from './rate-limit';
import { countPage } from './page-count-store';
import { isNightIn } from './night';
import { newId } from '../ids';

export interface NotificationDraft {
  /** A derived id makes the send idempotent (a page's notification per channel); default: a new one. */
  id?: string;
  accountId: string;
  accountUserId: string | null;
  userId: string | null;
  alertId?: string | null;
  broadcastId?: string | null;
  workflowId?: string | null;
  channel: Channel;
  /** The address; empty when the person has none for this channel (then recorded failed). */
  to: string;
  template: string;
  subject: string | null;
  /** The full text sent. */
  message: string;
  /** The text stored and shown (no secrets, no tokens); default: `message`. */
  storedMessage?: string;
  html?: string | null;
  links?: { acknowledge: string | null; reject: string | null };
  /** Slack only: the message as Block Kit blocks (buttons that act on the alert). */
  slack?: SlackMessage | null;
  /** The effect that asked for it (escalation's idempotency key). */
  sourceKey?: string | null;
  /** Storm protection: what a bundle says about this page's alert. */
  bundle?: { tiny_id: number; title: string; urgency: string } | null;
  /** Why it cannot be sent at all (no address): recorded failed with this reason. */
  undeliverable?: string | null;
  /** The provider that found it undeliverable, recorded as its `provider` (slack: Slack knows no such person). */
  undeliverableBy?: string | null;
  /** A page (not a notice): counted for the pages report when first recorded, under these teams,
   * at night when the person's wall clock in `timeZone` reads 22:00–07:00 then. */
  page?: { teamIds: readonly string[]; timeZone: string } | null;
}

export interface SendOptions {
  /** Storm protection: at most one SMS and one call per person per minute (÷ TIME_SCALE). */
  rateLimited?: boolean;
  /** False once the caller may no longer start a provider call (its lease is about to end). */
  mayStart?: () => boolean;
}

function recordOf(draft: NotificationDraft, at: number): NotificationRecord {
  const iso = new Date(at).toISOString();
  return {
    id: draft.id ?? newId(),
    account_id: draft.accountId,
    account_user_id: draft.accountUserId,
    user_id: draft.userId,
    alert_id: draft.alertId ?? null,
    broadcast_id: draft.broadcastId ?? null,
    workflow_id: draft.workflowId ?? null,
    group_id: null,
    channel: draft.channel,
    provider: null,
    provider_message_id: null,
    provider_status: null,
    template: draft.template,
    to: draft.to,
    from: 'oncall',
    subject: draft.subject,
    message: draft.storedMessage ?? draft.message,
    status: 'queued',
    err: [],
    cost: 0,
    sent_at: null,
    delivered_at: null,
    source_key: draft.sourceKey ?? null,
    insert_token: newId(),
    ...(draft.bundle ? { bundle: draft.bundle } : {}),
    created_at: iso,
    updated_at: iso,
    version: 1,
  };
}

export function outgoingOf(
  record: NotificationRecord,
  draft?: Pick<NotificationDraft, 'message' | 'html' | 'links' | 'slack'>,
): OutgoingMessage {
  return {
    notificationId: record.id,
    accountId: record.account_id,
    accountUserId: record.account_user_id,
    channel: record.channel,
    to: record.to,
    subject: record.subject,
    message: draft?.message ?? record.message,
    html: draft?.html ?? null,
    template: record.template,
    links: draft?.links,
    slack: draft?.slack ?? null,
  };
}

/** Records the notification and sends it (or queues it behind the person's rate limit). */
export async function sendNotification(draft: NotificationDraft, options: SendOptions = {}): Promise<NotificationRecord> {
  const record = recordOf(draft, clockNow());
  if (!draft.undeliverable) await rememberPhonePage(record);
  if (draft.undeliverable) {
    const failed: NotificationRecord = {
      ...record,
      provider: draft.undeliverableBy ?? null,
      status: 'failed',
      provider_status: 'failed',
      err: [draft.undeliverable],
    };
    if (await insertNotification(failed)) {
      await countRecordedPage(failed, draft);
      return failed;
    }
    return (await getNotification(record.account_id, record.id)) ?? failed;
  }
  // A message that goes out at once is recorded already claimed (`sending`): the conditional put is
  // the claim, one write fewer than queued-then-sending. A crash after it is an unknown outcome, as
  // a crash during the provider call would be. One that may wait (storm protection, or the lease
  // ending) is recorded `queued`: nothing is known about it yet, and whoever resumes it may send it.
  const waits = (options.rateLimited && isRateLimited(record.channel)) || (options.mayStart !== undefined && !options.mayStart());
  const claimed: NotificationRecord = waits ? record : { ...record, status: 'sending' };
  if (!(await insertNotification(claimed))) {
    const existing = await getNotification(record.account_id, record.id);
    if (!existing) throw new Error(`notification ${record.id} exists and cannot be read`);
    return resumeNotification(existing, draft, options);
  }
  await countRecordedPage(claimed, draft);
  if (!waits) return callProvider(claimed, draft);
  return dispatch(record, draft, options);
}

/** Counts a page whose notification this call has just recorded (a retry that finds it recorded does not). */
function countRecordedPage(record: NotificationRecord, draft: NotificationDraft): Promise<void> | undefined {
  if (!draft.page || !record.account_user_id) return undefined;
  const at = Date.parse(record.created_at);
  return countPage({
    accountId: record.account_id,
    accountUserId: record.account_user_id,
    channel: record.channel,
    at,
    teamIds: draft.page.teamIds,
    night: isNightIn(draft.page.timeZone, at),
  });
}

const isRateLimited = (channel: string) => channel === 'sms' || channel === 'voice';

/** How long an SMS reply may answer a page: as long as its one-click links are valid. */
const PHONE_PAGE_TTL_MS = 24 * 3_600_000;

/**
 * A page by SMS or call: an SMS reply from that number may answer it (lib/escalation/sms-reply.ts).
 * Written before the message goes out, so a reply can never come before it; a retry writes the same item.
 */
async function rememberPhonePage(record: NotificationRecord): Promise<void> {
  if ((record.channel !== 'sms' && record.channel !== 'voice') || !record.workflow_id || !record.alert_id || !record.account_user_id)
    return;
  if (!record.to) return;
  await putPhonePage({
    phone: record.to,
    account_id: record.account_id,
    account_user_id: record.account_user_id,
    alert_id: record.alert_id,
    workflow_id: record.workflow_id,
    expires_at: Math.ceil((Date.parse(record.created_at) + PHONE_PAGE_TTL_MS) / 1000),
  });
}

/**
 * A notification found already recorded by a retry: `queued` goes on (nothing was sent yet),
 * `sending` means a crash during the provider call, so it is recorded as failed with an unknown
 * outcome and never sent again; anything else is finished.
 */
export async function resumeNotification(
  existing: NotificationRecord,
  draft: Pick<NotificationDraft, 'message' | 'html' | 'links' | 'slack'> | undefined,
  options: SendOptions = {},
): Promise<NotificationRecord> {
  if (existing.status === 'queued') return dispatch(existing, draft, options);
  if (existing.status === 'sending') return markOutcomeUnknown(existing);
  return existing;
}

async function dispatch(
  record: NotificationRecord,
  draft: Pick<NotificationDraft, 'message' | 'html' | 'links' | 'slack'> | undefined,
  options: SendOptions,
): Promise<NotificationRecord> {
  // Not started, the message stays queued for whoever carries its step out next; asked before the
  // person's send window is claimed, so that a message held back does not hold the next one back too.
  if (options.mayStart && !options.mayStart()) return record;
  if (options.rateLimited && isRateLimited(record.channel)) {
    const claimed = await queueRateLimited(record);
    if (!claimed) return record;
    if (options.mayStart && !options.mayStart()) return record;
  }
  return sendNow(record, draft);
}

/** queued → sending → the provider's outcome. */
export async function sendNow(
  record: NotificationRecord,
  draft?: Pick<NotificationDraft, 'message' | 'html' | 'links' | 'slack'>,
  override?: { message?: string; subject?: string | null },
): Promise<NotificationRecord> {
  const claimed = await moveNotification(
    record.account_id,
    record.id,
    ['queued'],
    { status: 'sending' },
    new Date(clockNow()).toISOString(),
  );
  if (!claimed) return (await getNotification(record.account_id, record.id)) ?? record;
  return callProvider(claimed, draft, override);
}

/** The provider call of a claimed (`sending`) notification, and its outcome recorded. */
async function callProvider(
  claimed: NotificationRecord,
  draft?: Pick<NotificationDraft, 'message' | 'html' | 'links' | 'slack'>,
  override?: { message?: string; subject?: string | null },
): Promise<NotificationRecord> {
  const record = claimed;
  const provider = providerFor(record.channel);
  const outgoing = outgoingOf(claimed, draft);
  if (override?.message !== undefined) outgoing.message = override.message;
  if (override?.subject !== undefined) outgoing.subject = override.subject;
  let result: DeliveryResult;
  try {
    result = await provider.send(outgoing);
  } catch (error) {
    logger.warn('notification provider failed', { provider: provider.name, notificationId: record.id, error: error as Error });
    result = { status: 'failed', provider: provider.name, err: `${provider.name} failed: ${(error as Error).message ?? 'unknown error'}` };
  }
  // The provider failure rate's two halves (infra/constructs/monitoring.ts alarms on their ratio).
  recordMetric('deliveries', 1, { provider: result.provider });
  if (result.status === 'failed') recordMetric('deliveryFailures', 1, { provider: result.provider });
  return recordOutcome(claimed, result, override?.message);
}

/** Writes the provider's answer (from `sending`, or over an "outcome unknown" a recovery wrote meanwhile, never over a receipt). */
export async function recordOutcome(record: NotificationRecord, result: DeliveryResult, sentMessage?: string): Promise<NotificationRecord> {
  const at = new Date(clockNow()).toISOString();
  const outcome = {
    status: result.status,
    provider: result.provider,
    provider_message_id: result.provider_id ?? null,
    provider_status:
      result.status === 'failed' ? ('failed' as const) : result.status === 'delivered' ? ('delivered' as const) : ('accepted' as const),
    err: result.err ? [result.err] : [],
    cost: result.cost ?? 0,
    sent_at: result.status === 'failed' ? null : at,
    delivered_at: result.status === 'delivered' ? at : null,
    ...(sentMessage !== undefined ? { message: sentMessage } : {}),
  };
  // A receipt may come back within moments of the provider's answer: the pointer it is matched by is
  // written before the outcome, and a receipt that came first keeps its word (the moves below no longer apply).
  if (result.receipts && result.provider_id) {
    await putProviderMessage({
      provider: result.provider,
      messageId: result.provider_id,
      accountId: record.account_id,
      notificationId: record.id,
      now: clockNow(),
    });
  }
  const moved =
    (await moveNotification(record.account_id, record.id, ['sending'], outcome, at)) ??
    (await moveNotification(record.account_id, record.id, ['failed'], outcome, at, ['unknown']));
  return moved ?? (await getNotification(record.account_id, record.id)) ?? record;
}

export async function markOutcomeUnknown(record: NotificationRecord): Promise<NotificationRecord> {
  const moved = await moveNotification(
    record.account_id,
    record.id,
    ['sending'],
    {
      status: 'failed',
      provider_status: 'unknown',
      err: ['outcome unknown: the sender stopped during the provider call; not sent again so nobody is paged twice'],
    },
    new Date(clockNow()).toISOString(),
  );
  return moved ?? (await getNotification(record.account_id, record.id)) ?? record;
}

/** A queued notification that must not go out any more (its page was answered first). */
export async function cancelNotification(record: NotificationRecord, reason: string): Promise<NotificationRecord> {
  if (record.status === 'sending') return markOutcomeUnknown(record);
  const moved = await moveNotification(
    record.account_id,
    record.id,
    ['queued'],
    { status: 'failed', provider_status: 'cancelled', err: [`not sent: ${reason}`] },
    new Date(clockNow()).toISOString(),
  );
  return moved ?? (await getNotification(record.account_id, record.id)) ?? record;
}
