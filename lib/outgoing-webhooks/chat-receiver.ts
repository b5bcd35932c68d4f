// The receiver of a chat delivery (deliver.ts): the team's chat webhook, while the team still has it.
// A team that was deleted, or that removed or changed the webhook since the delivery was made, cancels
// it. The URL is the webhook's secret: logs show its origin only and never its path or query.
import { CHAT_PLATFORM_NAMES } from '../chat-cards/platforms';
import { shownWebhookUrl, webhookUrlSecrets } from '../chat-cards/webhook-urls';
import { prefixId } from '../ids';
import { chatWebhooksOf } from '../teams/records';
import { getTeam } from '../teams/store';
import type { ChatDelivery, ReceiverLookup } from './records';

export async function chatReceiver(d: ChatDelivery): Promise<ReceiverLookup> {
  const data = { team_id: prefixId('team', d.team_id), chat_type: d.chat_type, message: d.message };
  const team = await getTeam(d.account_id, d.team_id);
  if (!team) return { cancelled: 'the team was deleted', owner: null, data };
  const owner = prefixId('team', team.id);
  if (!chatWebhooksOf(team).some((webhook) => webhook.url === d.url && webhook.type === d.chat_type)) {
    return { cancelled: 'the team no longer has this chat webhook', owner, data };
  }
  const platform = CHAT_PLATFORM_NAMES[d.chat_type] ?? d.chat_type;
  return {
    receiver: {
      owner,
      url: d.url,
      shownUrl: shownWebhookUrl(d.url),
      headers: { 'content-type': 'application/json' },
      auth: null,
      secrets: webhookUrlSecrets(d.url),
      what: `${d.event} (${d.message === 'card' ? 'card' : 'follow-up'}) on ${platform}`,
      data,
    },
  };
}
