// Pages by Slack direct message (docs/api.md#slack): chat.postMessage with `channel` = the person's
// Slack user id, through the account's connected workspace, with the message's Block Kit blocks
// (buttons acknowledge, reject, resolve). Slack is the provider of the `slack` channel wherever it
// is used: an account without a connection, a person Slack does not know, or Slack answering
// `ok: false` (or being rate limited, or unreachable) is a `failed` notification with the reason,
// which the notify pipeline treats like any other failed send.
import { SealedSecretUnreadable } from '../../auth/sealed-secrets';
import { postMessage } from '../../slack-client/methods';
import { SlackCallFailed } from '../../slack-client/web-api';
import { workspaceOf } from '../../slack-client/workspace';
import type { Channel } from '../records';
import type { DeliveryResult, NotificationProvider, OutgoingMessage, ProviderFactory } from './provider';

const PROVIDER = 'slack';

const failed = (err: string): DeliveryResult => ({ status: 'failed', provider: PROVIDER, err });

const isSlackUserId = (value: string) => /^[UW][A-Z0-9]{2,20}$/.test(value);

const provider: NotificationProvider = {
  name: PROVIDER,
  async send(message: OutgoingMessage): Promise<DeliveryResult> {
    let workspace;
    try {
      workspace = await workspaceOf(message.accountId);
    } catch (error) {
      if (error instanceof SealedSecretUnreadable)
        return failed(`the Slack connection cannot be used: ${error.message}; connect Slack again`);
      throw error;
    }
    if (!workspace) return failed('Slack is not connected for this account (PUT /api/v4/slack)');
    if (!isSlackUserId(message.to)) return failed('the person has no Slack user (slack_user_id)');
    const content = message.slack ?? { text: [message.subject, message.message].filter(Boolean).join('\n') };
    try {
      const posted = await postMessage(workspace, message.to, content);
      return { status: 'sent', provider: PROVIDER, provider_id: `${posted.channel}/${posted.ts}`, cost: 0 };
    } catch (error) {
      if (error instanceof SlackCallFailed) return failed(error.message);
      throw error;
    }
  },
};

export const slackFactory: ProviderFactory = {
  name: PROVIDER,
  forChannel(channel: Channel) {
    return channel === 'slack' ? provider : null;
  },
};
