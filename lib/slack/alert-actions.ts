// The one place Slack acts on alerts (docs/api.md#slack): a linked Slack user's click or command is
// that account user's transition under the v4 rules (§6), as POST /api/v4/alerts/:id/<action> is.
// `requestToken` names the interaction (`slack:<team>:<action_ts or trigger_id>`); until it is passed
// on as the transition's idempotency key, the interaction's mark (interaction-store.ts) makes a click
// delivered twice act once.
import { actOnAlert } from '../alert-transitions/act-on-alert';
import type { AlertRecord } from '../alerts/records';
import type { Principal } from '../http/principal';
import type { SlackAlertAction } from '../notify/content';

export async function actOnAlertFromSlack(
  principal: Principal,
  alertRef: string,
  action: SlackAlertAction,
  _requestToken: string,
): Promise<AlertRecord> {
  return actOnAlert(principal, alertRef, action, 'v4');
}
