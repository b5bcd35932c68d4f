// A verified click travels from its answer to its work on the escalation queue (lib/queues/definitions.ts
// `escalation`), as a `slack_interaction` message: Slack gets its 200 once the message is accepted
// by SQS, so the click's transition survives a process that dies after the answer, and the
// escalation worker (which already stops and steps escalations) acts on it. The message carries the
// interaction's key: a message SQS delivers twice, like a click Slack delivers twice, acts once.
// It also carries the id of Slack's delivery it came from: each of Slack's deliveries is answered,
// each run of one delivery that SQS hands out again is not (command-store.ts tellOnce).
// An /oncall command that outlasts Slack's 3 s travels the same way (`slack_command`): its answer
// says "working on it" once SQS holds the command, and the worker runs it again and tells the result
// (a Lambda's process is frozen after its answer, so work left running in it may never finish).
import * as z from 'zod/mini';
import { config } from '../config';
import { sendDelayed } from '../queues/client';

// zod/mini, built on first use: the escalation worker reads these and validates nothing else with
// zod, so it does not load zod's classic API at its start (lib/config.ts).
const interactionShape = () => ({
  kind: z.literal('slack_interaction'),
  account_id: z.string(),
  /** The Slack user who clicked. */
  slack_user_id: z.string(),
  /** The transition's idempotency key (slack-request.ts interactionKey). */
  key: z.string(),
  action_id: z.string(),
  value: z.string(),
  /** Where the result is told (absent: the click is acted on and nobody is told). */
  response_url: z.optional(z.string()),
  /** This delivery of Slack's request (an id made where it was accepted): its result is told once. Absent from messages queued before it existed. */
  delivery: z.optional(z.string()),
  /** The click was on a page's direct message, which its result replaces. */
  direct_message: z.boolean(),
});

export type SlackInteractionMessage = z.infer<z.ZodMiniObject<ReturnType<typeof interactionShape>>>;

const commandShape = () => ({
  kind: z.literal('slack_command'),
  account_id: z.string(),
  /** The Slack user who sent the command. */
  slack_user_id: z.string(),
  /** What followed `/oncall`. */
  text: z.string(),
  /** The command's idempotency key (slack-request.ts interactionKey). */
  key: z.string(),
  /** When Slack sent it (ms, the signed timestamp): a page's alert id derives from it and the key. */
  sent_at: z.number(),
  /** Where the result is told (absent: the command is run and nobody is told). */
  response_url: z.optional(z.string()),
  /** This delivery of Slack's request (an id made where it was accepted): its result is told once. Absent from messages queued before it existed. */
  delivery: z.optional(z.string()),
});

export type SlackCommandMessage = z.infer<z.ZodMiniObject<ReturnType<typeof commandShape>>>;

// Each made the first time a message of its kind is read.
let slackInteractionMessage: z.ZodMiniType<SlackInteractionMessage> | undefined;
let slackCommandMessage: z.ZodMiniType<SlackCommandMessage> | undefined;

function parseMessage<T>(schema: z.ZodMiniType<T>, body: string): T | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const message = schema.safeParse(parsed);
  return message.success ? message.data : null;
}

export const parseSlackInteractionMessage = (body: string) =>
  parseMessage((slackInteractionMessage ??= z.object(interactionShape())), body);
export const parseSlackCommandMessage = (body: string) => parseMessage((slackCommandMessage ??= z.object(commandShape())), body);

/** Accepts a click's or a command's work: resolves once SQS has stored the message (a failure is the caller's 5xx: Slack shows the click failed). */
export async function enqueueSlackWork(message: SlackInteractionMessage | SlackCommandMessage): Promise<void> {
  const queueUrl = config().ESCALATION_QUEUE_URL;
  if (!queueUrl) throw new Error('ESCALATION_QUEUE_URL is not configured: Slack clicks and commands cannot be accepted');
  await sendDelayed(queueUrl, JSON.stringify(message), 0);
}
