// Data access for the claims of a command or a click run more than once (lib/slack/ACCESS-PATTERNS.md):
//   page claim     A#<acc>#SLACKCMD / <interaction key>    {alert_id, expires_at}
//   answer claim   A#<acc>#SLACKTOLD / <interaction key>#<delivery>   {expires_at}
// The first delivery of a command claims its key before any alert exists, naming the alert it will
// create; every later delivery (however slow the first still is, also one signed anew with another
// timestamp) reads the claim and creates or answers that same alert. Slack's timestamps are good
// for 300 s, so a claim is kept an hour and then left to the table's TTL.
// The queue's run of a slow command or of a click tells its result once per delivery of Slack's: SQS
// delivers a message again when a run outlasts the visibility timeout, and each run would otherwise
// post its own answer (a delivery Slack makes again is a message of its own, answered as the first).
// The run that claims the answer posts it; a crash between the claim and the post leaves it untold (a
// notice to the person; the work it tells of is done and shows in Slack's messages and the console).
import { now } from '../clock';
import type { ResponseUrlMessage } from '../slack-client/methods';
import { getItem, putNew } from '../store/items';
import { TTL_ATTRIBUTE } from '../store/table';
import { tellThroughResponseUrl } from './slack-request';

const CLAIM_TTL_S = 3_600;

const key = (accountId: string, interactionKey: string) => ({ pk: `A#${accountId}#SLACKCMD`, sk: interactionKey });

/** The alert id the command's first delivery claimed: `alertId` when this call is the first. */
export async function claimCommandAlert(accountId: string, interactionKey: string, alertId: string, nowMs: number): Promise<string> {
  const claimed = await putNew({
    ...key(accountId, interactionKey),
    alert_id: alertId,
    [TTL_ATTRIBUTE]: Math.ceil(nowMs / 1000) + CLAIM_TTL_S,
  });
  if (claimed) return alertId;
  const stored = await getItem(key(accountId, interactionKey));
  // Gone only past its TTL, long after Slack stops delivering the command: this call is its first again.
  return typeof stored?.alert_id === 'string' ? stored.alert_id : alertId;
}

/** What a queued click or command carries to be answered (lib/slack/interaction-queue.ts). */
export interface QueuedSlackWork {
  account_id: string;
  /** The interaction's key. */
  key: string;
  /** Slack's delivery it came from (absent from messages queued before it existed). */
  delivery?: string;
  response_url?: string;
}

/**
 * Tells a queued click's or command's result through its response_url, once per delivery of
 * Slack's: the run that claims the answer (the first to ask) posts it; nothing without a response_url.
 */
export async function tellOnce(work: QueuedSlackWork, message: ResponseUrlMessage): Promise<void> {
  if (!work.response_url) return;
  const claimed = await putNew({
    pk: `A#${work.account_id}#SLACKTOLD`,
    sk: `${work.key}#${work.delivery ?? ''}`,
    [TTL_ATTRIBUTE]: Math.ceil(now() / 1000) + CLAIM_TTL_S,
  });
  if (claimed) await tellThroughResponseUrl(work.response_url, message);
}
