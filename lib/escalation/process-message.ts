// The escalation queue's consumer use case: a `due` message runs whatever the alert's escalation has
// due (a message that arrives early, because SQS delays at most 15 minutes and by whole seconds, is
// held in process for its last moment or sent on again), a `flush` message sends a person's waiting
// SMS or call. Both are idempotent: a step that finds nothing due writes nothing.
import { now as clockNow, sleep } from '../clock';
import { IN_PROCESS_WAIT_MS } from '../queues/delayed';
import { flushWaiting } from './flush-waiting';
import { runStep } from './run-step';
import { sendEffects } from './send-effects';
import { chainMessage, type EscalationMessage } from './timers';

export async function processEscalationMessage(message: EscalationMessage): Promise<void> {
  const early = message.due_at - clockNow();
  if (early > IN_PROCESS_WAIT_MS) {
    await chainMessage(message);
    return;
  }
  if (early > 0) await sleep(early);
  if (message.kind === 'due') await runStep(message.account_id, message.alert_id, { kind: 'due' }, { send: sendEffects });
  else await flushWaiting(message.account_id, message.account_user_id, message.channel as 'sms' | 'voice');
}
