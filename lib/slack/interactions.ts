// POST /public/slack/interactions (docs/api.md#slack): Slack posts a button click as a form body
// `payload=<JSON>`. After the request is verified (slack-request.ts), the Slack user acts as the
// account user linked to them, under the roles and transitions the API applies: acknowledge, reject
// and resolve on an alert (a button's `value` is the alert's prefix id), or an answer to a broadcast.
// An unlinked Slack user, or an action the API would refuse, gets a short ephemeral explanation
// through the payload's response_url and nothing changes; a click on a direct message replaces that
// message with the alert as it is now (team channel messages follow through the alert's events).
// The same click delivered twice acts once: its action_ts is the transition's idempotency key
// (alert-actions.ts), and the second delivery is answered as the first. An answer to a broadcast is
// the person's one answer, which a second delivery writes again unchanged.
import * as z from 'zod';
import type { AccountUserRecord } from '../account-users/records';
import type { AlertRecord } from '../alerts/records';
import { respondToBroadcast } from '../broadcasts/respond-broadcast';
import { consoleLink } from '../http/base-url';
import { BadRequest, HttpError } from '../http/errors';
import { prefixId } from '../ids';
import { logger } from '../log';
import {
  BROADCAST_RESPONSE_ACTION,
  SLACK_ALERT_ACTIONS,
  slackAlertActions,
  slackAlertMessage,
  slackAlertView,
  slackNotice,
  type SlackAlertAction,
} from '../notify/content';
import { postToResponseUrl, type ResponseUrlMessage } from '../slack-client/methods';
import { SlackCallFailed } from '../slack-client/web-api';
import { actOnAlertFromSlack } from './alert-actions';
import { NOT_LINKED, slackPersonOf, type SlackPerson } from './slack-person';
import { answerInTime, interactionKey, verifySlackRequest, type SlackHttpRequest } from './slack-request';

const payloadSchema = z.object({
  type: z.string(),
  team: z.object({ id: z.string() }).passthrough(),
  user: z.object({ id: z.string().max(40), name: z.string().optional(), username: z.string().optional() }).passthrough(),
  trigger_id: z.string().max(200).optional(),
  response_url: z.string().max(2_000).optional(),
  container: z
    .object({ channel_id: z.string().max(40).optional(), is_ephemeral: z.boolean().optional() })
    .passthrough()
    .optional(),
  channel: z
    .object({ id: z.string().max(40) })
    .passthrough()
    .optional(),
  actions: z
    .array(
      z
        .object({ action_id: z.string().max(255), value: z.string().max(2_000).optional(), action_ts: z.string().max(40).optional() })
        .passthrough(),
    )
    .optional(),
});

type Payload = z.infer<typeof payloadSchema>;

function payloadOf(form: URLSearchParams): unknown {
  try {
    return JSON.parse(form.get('payload') ?? '');
  } catch {
    return null;
  }
}

const teamOfPayload = (form: URLSearchParams): string | null => {
  const payload = payloadOf(form) as { team?: { id?: unknown } } | null;
  return typeof payload?.team?.id === 'string' ? payload.team.id : null;
};

export interface InteractionResult {
  /** What was done (tests, the benchmark and the logs read it; Slack does not). */
  outcome: 'acknowledged' | 'rejected' | 'resolved' | 'responded' | 'refused' | 'unlinked' | 'ignored' | 'pending';
}

export async function receiveInteraction(request: SlackHttpRequest): Promise<InteractionResult> {
  const { workspace, form } = await verifySlackRequest(request, teamOfPayload);
  const parsed = payloadSchema.safeParse(payloadOf(form));
  if (!parsed.success) throw new BadRequest('payload is not an interaction Slack sends');
  const payload = parsed.data;
  const action = payload.actions?.[0];
  if (payload.type !== 'block_actions' || !action) return { outcome: 'ignored' };
  // Slack gives every click an action_ts; without one (nor a trigger_id) the click is a request of its own.
  const id = action.action_ts ?? payload.trigger_id;
  const key = id ? interactionKey(payload.team.id, id) : undefined;
  const person = await slackPersonOf(workspace.accountId, payload.user.id);
  // Slack waits at most 3 s: the answer goes back by then, and the rest is done after it.
  return answerInTime(act(person, payload, action, key), { outcome: 'pending' });
}

async function answer(payload: Payload, message: ResponseUrlMessage): Promise<void> {
  if (!payload.response_url) return;
  try {
    await postToResponseUrl(payload.response_url, message);
  } catch (error) {
    if (!(error instanceof SlackCallFailed)) throw error;
    logger.warn('slack: an answer through response_url was not taken', { error: error.message });
  }
}

const ephemeral = (text: string): ResponseUrlMessage => ({ ...slackNotice(text), response_type: 'ephemeral', replace_original: false });

const PAST: Record<SlackAlertAction, 'acknowledged' | 'rejected' | 'resolved'> = {
  acknowledge: 'acknowledged',
  reject: 'rejected',
  resolve: 'resolved',
};

async function act(
  person: SlackPerson | null,
  payload: Payload,
  action: NonNullable<Payload['actions']>[number],
  key: string | undefined,
): Promise<InteractionResult> {
  if (!person) {
    await answer(payload, ephemeral(NOT_LINKED));
    return { outcome: 'unlinked' };
  }
  const { accountUser, principal } = person;
  try {
    if ((SLACK_ALERT_ACTIONS as readonly string[]).includes(action.action_id)) {
      const verb = action.action_id as SlackAlertAction;
      const alert = await actOnAlertFromSlack(principal, action.value ?? '', verb, key);
      if (isDirectMessage(payload)) await answer(payload, { ...directMessageOf(alert, verb, accountUser), replace_original: true });
      return { outcome: PAST[verb] };
    }
    if (action.action_id.startsWith(BROADCAST_RESPONSE_ACTION)) {
      const [broadcastId, optionId] = (action.value ?? '').split('/');
      const view = await respondToBroadcast(principal, broadcastId ?? '', { broadcast_response_option_id: optionId ?? '' });
      const option = view.response_options.find((o) => prefixId('responseOption', o.id) === optionId);
      await answer(payload, ephemeral(`Your answer “${option?.value ?? optionId}” to broadcast #${view.tiny_id} is recorded.`));
      return { outcome: 'responded' };
    }
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    await answer(payload, ephemeral(`Nothing was done: ${error.messages.join('; ')}.`));
    return { outcome: 'refused' };
  }
  return { outcome: 'ignored' };
}

function isDirectMessage(payload: Payload): boolean {
  const channel = payload.container?.channel_id ?? payload.channel?.id ?? '';
  return channel.startsWith('D') && !payload.container?.is_ephemeral;
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
