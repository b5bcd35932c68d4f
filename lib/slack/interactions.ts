// POST /public/slack/interactions (docs/api.md#slack): Slack posts a button click as a form body
// `payload=<JSON>`. The request is verified (slack-request.ts) and its payload's shape checked; a
// click is then accepted durably (a message on the escalation queue, interaction-queue.ts) and
// answered 200 at once. Its work (run-interaction.ts) follows in the escalation worker and tells its
// result through the payload's response_url, so Slack's 3 s never wait for a transition, and a
// process that dies after the answer loses no click.
import * as z from 'zod';
import { lazyObject } from '../lazy-schema';
import { SLACK_USER_ID } from '../account-users/schemas';
import { BadRequest } from '../http/errors';
import { newId } from '../ids';
import { enqueueSlackWork } from './interaction-queue';
import { interactionKey, verifySlackRequest, type SlackHttpRequest } from './slack-request';

const payloadSchema = lazyObject(() => ({
  type: z.string(),
  team: z.object({ id: z.string() }).passthrough(),
  user: z.object({ id: z.string().regex(SLACK_USER_ID), name: z.string().optional(), username: z.string().optional() }).passthrough(),
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
}));

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

export interface InteractionReceipt {
  /** What became of the request (tests and the logs read it; Slack reads only the 200). */
  outcome: 'accepted' | 'ignored';
}

export async function receiveInteraction(request: SlackHttpRequest): Promise<InteractionReceipt> {
  const { workspace, form } = await verifySlackRequest(request, teamOfPayload);
  const parsed = payloadSchema.safeParse(payloadOf(form));
  if (!parsed.success) throw new BadRequest('payload is not an interaction Slack sends');
  const payload = parsed.data;
  const action = payload.actions?.[0];
  if (payload.type !== 'block_actions' || !action) return { outcome: 'ignored' };
  // Slack gives every click an action_ts; without one (nor a trigger_id) the click is a request of
  // its own, whose key is made here so that the queue's own redelivery of it still acts once.
  const key = interactionKey(payload.team.id, action.action_ts ?? payload.trigger_id ?? `#${newId()}`);
  await enqueueSlackWork({
    kind: 'slack_interaction',
    account_id: workspace.accountId,
    slack_user_id: payload.user.id,
    key,
    action_id: action.action_id,
    value: action.value ?? '',
    response_url: payload.response_url,
    direct_message: isDirectMessage(payload),
    delivery: newId(),
  });
  return { outcome: 'accepted' };
}

function isDirectMessage(payload: Payload): boolean {
  const channel = payload.container?.channel_id ?? payload.channel?.id ?? '';
  return channel.startsWith('D') && !payload.container?.is_ephemeral;
}
