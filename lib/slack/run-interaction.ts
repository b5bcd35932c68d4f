// The work of a click Slack sent (interactions.ts accepted it; the escalation worker runs it): the
// Slack user acts as the account user linked to them, under the roles and transitions the API
// applies: acknowledge, reject and resolve on an alert (a button's `value` is the alert's prefix
// id), or an answer to a broadcast. An unlinked Slack user, or an action the API would refuse, gets
// a short ephemeral explanation through the response_url and nothing changes; a click on a direct
// message replaces that message with the alert as it is now (team channel messages follow through
// the alert's events). The click's key is the transition's idempotency key (alert-actions.ts): the
// same click delivered twice, by Slack or by SQS, acts once and is answered as the first. An
// answer to a broadcast is the person's one answer, which a second delivery writes again unchanged.
// Each of Slack's deliveries is told its result once, by the run that claims its answer (command-store.ts).
import type { AccountUserRecord } from '../account-users/records';
import type { AlertRecord } from '../alerts/records';
import { respondToBroadcast } from '../broadcasts/respond-broadcast';
import { consoleLink } from '../http/base-url';
import { HttpError } from '../http/errors';
import { prefixId } from '../ids';
import {
  BROADCAST_RESPONSE_ACTION,
  SLACK_ALERT_ACTIONS,
  slackAlertActions,
  slackAlertMessage,
  slackAlertView,
  slackNotice,
  type SlackAlertAction,
} from '../notify/content';
import type { ResponseUrlMessage } from '../slack-client/methods';
import { actOnAlertFromSlack } from './alert-actions';
import { tellOnce } from './command-store';
import type { SlackInteractionMessage } from './interaction-queue';
import { NOT_LINKED, slackPersonOf } from './slack-person';

export type InteractionOutcome = 'acknowledged' | 'rejected' | 'resolved' | 'responded' | 'refused' | 'unlinked' | 'ignored';

const ephemeral = (text: string): ResponseUrlMessage => ({ ...slackNotice(text), response_type: 'ephemeral', replace_original: false });

const PAST: Record<SlackAlertAction, 'acknowledged' | 'rejected' | 'resolved'> = {
  acknowledge: 'acknowledged',
  reject: 'rejected',
  resolve: 'resolved',
};

/** Acts on one accepted click and tells its result; throws only what a retry may cure (SQS redelivers it). */
export async function runSlackInteraction(click: SlackInteractionMessage): Promise<InteractionOutcome> {
  const person = await slackPersonOf(click.account_id, click.slack_user_id);
  if (!person) {
    await tellOnce(click, ephemeral(NOT_LINKED));
    return 'unlinked';
  }
  const { accountUser, principal } = person;
  try {
    if ((SLACK_ALERT_ACTIONS as readonly string[]).includes(click.action_id)) {
      const verb = click.action_id as SlackAlertAction;
      const alert = await actOnAlertFromSlack(principal, click.value, verb, click.key);
      if (click.direct_message) await tellOnce(click, { ...directMessageOf(alert, verb, accountUser), replace_original: true });
      return PAST[verb];
    }
    if (click.action_id.startsWith(BROADCAST_RESPONSE_ACTION)) {
      const [broadcastId, optionId] = click.value.split('/');
      const view = await respondToBroadcast(principal, broadcastId ?? '', { broadcast_response_option_id: optionId ?? '' });
      const option = view.response_options.find((o) => prefixId('responseOption', o.id) === optionId);
      await tellOnce(click, ephemeral(`Your answer “${option?.value ?? optionId}” to broadcast #${view.tiny_id} is recorded.`));
      return 'responded';
    }
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    await tellOnce(click, ephemeral(`Nothing was done: ${error.messages.join('; ')}.`));
    return 'refused';
  }
  return 'ignored';
}

/** A page's direct message after the person's click: the alert's new status, and the buttons left. */
function directMessageOf(alert: AlertRecord, verb: SlackAlertAction, accountUser: AccountUserRecord) {
  return slackAlertMessage(
    {
      ...slackAlertView(alert, consoleLink(`alerts/${alert.id}`)),
      change: `${PAST[verb][0].toUpperCase()}${PAST[verb].slice(1)} by ${accountUser.user.name}`,
    },
    verb === 'reject' ? [] : slackAlertActions(alert.status, { reject: false }),
  );
}
