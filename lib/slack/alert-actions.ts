// The one place Slack acts on alerts (docs/api.md#slack): a linked Slack user's click or command is
// that account user's transition under the v4 rules (§6), as POST /api/v4/alerts/:id/<action> is.
// The interaction's key (slack-request.ts interactionKey) is the transition's idempotency key: the
// same click or command delivered twice is one transition, also when the first delivery's process
// died after the write, and the second is answered with the alert as the first left it.
import { actOnAlert } from '../alert-transitions/act-on-alert';
import type { AlertRecord } from '../alerts/records';
import type { Principal } from '../http/principal';
import type { SlackAlertAction } from '../notify/content';

export function actOnAlertFromSlack(
  principal: Principal,
  alertRef: string,
  action: SlackAlertAction,
  interactionKey: string | undefined,
): Promise<AlertRecord> {
  return actOnAlert(principal, alertRef, action, 'v4', { idempotencyKey: interactionKey });
}
