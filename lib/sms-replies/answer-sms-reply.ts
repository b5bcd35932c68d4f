// An SMS a person sent back to a page (issue 12): "A" acknowledges, "R" rejects, with the alert's
// tiny id when several are pending ("A 42"). The sender is matched by phone number: the pages that
// went to that number by SMS or call (lib/notify remembers them for 24 hours) whose person still has
// that number and whose workflow is still open. The answer goes through the same path as a one-click
// response (lib/page-responses/respond-to-page.ts), so it has the same checks and effects; anything that cannot
// be understood, is ambiguous or comes from a number with nothing pending gets a short help SMS.
import { getAccountUser } from '../account-users/store';
import { takeAttempt } from '../auth/attempt-limit';
import { TooManyRequests } from '../http/errors';
import { getAlert } from '../alerts/store';
import { now } from '../clock';
import { pageWorkflow } from '../escalation/reject-workflows';
import { respondToPage } from '../page-responses/respond-to-page';
import { newId } from '../ids';
import { logger } from '../log';
import { parseSmsReply, pickReplyTarget } from '../notify/content';
import { providerFor } from '../notify/providers/select-provider';
import { listPhonePages, removePhonePage, type PhonePage } from '../notify/store';

export interface InboundSms {
  /** The sender (E.164), End User Messaging's `originationNumber`. */
  from: string;
  body: string;
  /** The message's id, when the carrier gave one: a reply delivered twice is one request. */
  messageId?: string;
}

export type SmsReplyOutcome = 'acknowledged' | 'rejected' | 'refused' | 'not_understood' | 'ambiguous' | 'nothing_pending';

export interface SmsReplyResult {
  outcome: SmsReplyOutcome;
  /** What was texted back to the sender ('' when nothing was: a stranger's number answered too often). */
  reply: string;
  alertId?: string;
}

interface Pending {
  page: PhonePage;
  tinyId: number;
}

/** The sender's pages still waiting for them: the person has this number and the workflow is open. */
async function pendingPages(phone: string): Promise<Pending[]> {
  const at = now();
  const pending: Pending[] = [];
  for (const page of await listPhonePages(phone)) {
    const [workflow, accountUser, alert] = await Promise.all([
      page.expires_at * 1000 > at ? pageWorkflow(page.account_id, page.alert_id, page.workflow_id) : null,
      getAccountUser(page.account_id, page.account_user_id),
      getAlert(page.account_id, page.alert_id),
    ]);
    const hasNumber = accountUser?.user.phones.some((p) => p.phone === phone && !p.blocked) ?? false;
    // An alert acknowledged or resolved waits for no answer, also before its escalation has closed the workflow (that follows the 200 from the queue).
    const answered = !workflow || workflow.status !== 'open' || !alert || alert.status !== 'open';
    if (answered || !hasNumber || workflow.accountUserId !== page.account_user_id) {
      // Answered, expired or no longer this person's: forget it (TTL would, later).
      await removePhonePage(page);
      continue;
    }
    pending.push({ page, tinyId: alert.tiny_id });
  }
  return pending.sort((a, b) => a.tinyId - b.tinyId);
}

export async function answerSmsReply(sms: InboundSms): Promise<SmsReplyResult> {
  const parsed = parseSmsReply(sms.body);
  const pending = await pendingPages(sms.from);
  if (pending.length === 0) {
    // A number we know nothing of: answered, but rarely (replies cost money, and must not be pumped).
    if (!(await mayAnswerStranger(sms.from))) return { outcome: 'nothing_pending', reply: '' };
    return textBack(sms.from, null, {
      outcome: 'nothing_pending',
      reply: 'No page is waiting for an answer from this number. Open the app to act on alerts.',
    });
  }
  const accountId = pending[0].page.account_id;
  if (!parsed.ok) {
    const ids = pending.map((p) => `#${p.tinyId}`).slice(0, 5);
    return textBack(sms.from, accountId, { outcome: 'not_understood', reply: `${parsed.reply} Waiting: ${ids.join(', ')}.` });
  }
  // Tiny ids count per account: a person paged from two accounts may have two #42s.
  if (parsed.tinyId !== null && pending.filter((p) => p.tinyId === parsed.tinyId).length > 1) {
    return textBack(sms.from, accountId, {
      outcome: 'ambiguous',
      reply: `More than one alert #${parsed.tinyId} is waiting for you (several accounts): answer in the app.`,
    });
  }
  const target = pickReplyTarget(parsed, pending);
  if (!target.ok) return textBack(sms.from, accountId, { outcome: 'ambiguous', reply: target.reply });

  const { page } = target.alert;
  const view = await respondToPage({
    accountId: page.account_id,
    alertId: page.alert_id,
    workflowId: page.workflow_id,
    accountUserId: page.account_user_id,
    action: parsed.action,
    idempotencyKey: sms.messageId === undefined ? undefined : `sms:${sms.messageId}`,
  });
  logger.info('sms reply', { action: parsed.action, alertId: page.alert_id, status: view.status });
  if (view.status !== 200) {
    return textBack(sms.from, page.account_id, { outcome: 'refused', reply: `${view.title}. ${view.detail}`, alertId: page.alert_id });
  }
  return textBack(sms.from, page.account_id, {
    outcome: parsed.action === 'acknowledge' ? 'acknowledged' : 'rejected',
    reply: `${view.title}. ${view.detail}`,
    alertId: page.alert_id,
  });
}

/** At most 3 answers an hour to a number with nothing pending. */
async function mayAnswerStranger(phone: string): Promise<boolean> {
  try {
    await takeAttempt([{ bucket: `smsreply:${phone}`, limit: 3, windowSeconds: 3_600, message: 'too many SMS replies' }], now());
    return true;
  } catch (error) {
    if (error instanceof TooManyRequests) return false;
    throw error;
  }
}

/** Texts the answer back through the SMS provider (locally the outbox); a failure is logged, never thrown. */
async function textBack(to: string, accountId: string | null, result: SmsReplyResult): Promise<SmsReplyResult> {
  const provider = providerFor('sms');
  try {
    const sent = await provider.send({
      notificationId: newId(),
      accountId: accountId ?? '',
      accountUserId: null,
      channel: 'sms',
      to,
      subject: null,
      message: result.reply,
      html: null,
      template: 'sms_reply',
    });
    if (sent.status === 'failed') logger.warn('sms reply: the answer could not be texted back', { err: sent.err });
  } catch (error) {
    logger.warn('sms reply: the answer could not be texted back', { error: error as Error });
  }
  return result;
}
