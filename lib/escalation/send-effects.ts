// Pages and notifies of an escalation step, sent (lib/escalation/effects.ts says how each is
// carried out once): one notification per channel the person's notification rule (or their
// default channels) picks, its content from the account's templates or the built-in texts, with
// one-click response links; and pages an acknowledgement overtook, cancelled. A page's message that
// fails is reported at once, so the page fails over to the next channel. Only the workers
// (escalation worker, sweeper, routing worker) import this: it brings notification content
// (Handlebars) and the providers. Nothing is sent when the alert was acknowledged or resolved after
// the step committed (`sendsAllowed`).
import type { AccountUserRecord } from '../account-users/records';
import { slackAddressOf } from '../account-users/slack-address';
import { getRecentAccount } from '../accounts/store';
import { teamsOf, type AlertRecord } from '../alerts/records';
import { logger } from '../log';
import { recordMetric } from '../metrics';
import { consoleLink } from '../http/base-url';
import {
  renderNotification,
  SLACK_ALERT_ACTIONS,
  slackAlertActions,
  slackAlertMessage,
  slackAlertView,
  type NotificationTemplates,
  type SlackMessage,
} from '../notify/content';
import { isChannel, type Channel, type NotificationRecord } from '../notify/records';
import { redactLink, responseLinks } from '../notify/response-links';
import { cancelNotification, markOutcomeUnknown, sendNotification, type NotificationDraft } from '../notify/send';
import { getNotification } from '../notify/store';
import { defaultChannels } from '../rule-engine/default-channels';
import { addressOf } from '../account-users/addresses';
import { inParallel, notificationIdOf, type CarryOutOptions, type SendEffects } from './effects';
import { isFailedPageMessage, reportFailedMessages } from './failover-signal';
import type { EscalationEffect, NotifyEffect, PageEffect } from './engine';
import type { StepInputs } from './inputs';
import { whenLoaded } from '../on-first-use';

export const sendEffects: SendEffects = async (sends, options) => {
  const carrySends = async () => {
    if (sends.length === 0) return;
    const people = sends.flatMap((e) => [e.accountUserId, ...(e.type === 'notify' && e.actorAccountUserId ? [e.actorAccountUserId] : [])]);
    const [account, , allowed] = await Promise.all([
      getRecentAccount(options.accountId),
      options.inputs.loadAccountUsers(people),
      options.sendsAllowed ?? true,
    ]);
    if (!allowed) return;
    const templates = (account?.notification_templates ?? {}) as NotificationTemplates;
    await inParallel(sends, (effect) => send(effect, options, options.inputs.alert, templates));
  };
  await Promise.all([carrySends(), options.superseded?.length ? cancelSuperseded(options.superseded, options) : undefined]);
};

function channelsOf(effect: PageEffect | NotifyEffect, accountUser: AccountUserRecord, alert: AlertRecord, inputs: StepInputs): Channel[] {
  const named =
    effect.type === 'page'
      ? (effect.channels ?? defaultChannels(accountUser.user))
      : inputs.immediateChannels(accountUser, effect.template, alert, effect.at);
  const channels: Channel[] = [];
  for (const channel of named) {
    if (isChannel(channel) && !channels.includes(channel)) channels.push(channel);
    else if (!isChannel(channel)) logger.warn('escalation: a channel without a provider type is skipped', { channel });
  }
  return channels;
}

async function send(
  effect: PageEffect | NotifyEffect,
  options: CarryOutOptions,
  alert: AlertRecord,
  templates: NotificationTemplates,
): Promise<void> {
  const accountUser = options.inputs.accountUsers.get(effect.accountUserId);
  if (!accountUser) return; // gone since: nobody to page
  if (accountUser.deactivated_at) {
    logger.info('escalation: a notification to a deactivated account user is skipped', {
      accountId: options.accountId,
      accountUserId: accountUser.id,
      template: effect.template,
      reason: "deactivated by the account's identity provider (SCIM)",
    });
    return;
  }
  const teamId = effect.type === 'notify' ? effect.teamId : null;
  const team = teamId ? options.inputs.teams.get(teamId) : null;
  const actor = effect.type === 'notify' && effect.actorAccountUserId ? options.inputs.accountUsers.get(effect.actorAccountUserId) : null;
  const workflowId = effect.type === 'page' ? effect.workflowId : null;
  const links =
    effect.type === 'page'
      ? await responseLinks({
          accountId: options.accountId,
          alertId: alert.id,
          workflowId: effect.workflowId,
          accountUserId: accountUser.id,
        })
      : effect.template === 'alert_dropped'
        ? await responseLinks({ accountId: options.accountId, alertId: alert.id, workflowId: 'none', accountUserId: accountUser.id })
        : { acknowledge: null, reject: null };
  const actions: ('acknowledge' | 'reject')[] =
    effect.type === 'page' ? ['acknowledge', 'reject'] : effect.template === 'alert_dropped' ? ['acknowledge'] : [];

  const failed: NotificationRecord[] = [];
  let firstSent = Infinity;
  for (const channel of channelsOf(effect, accountUser, alert, options.inputs)) {
    const address = channel === 'slack' ? await slackAddressOf(accountUser) : addressOf(accountUser, channel);
    const rendered = await whenLoaded(() =>
      renderNotification({
        template: effect.template,
        channel: channel === 'slack' ? 'push' : channel,
        alert: { title: alert.title, urgency: alert.urgency, tiny_id: alert.tiny_id, description: alert.description },
        accountUser: { name: accountUser.user.name },
        team: team ? { name: team.name } : null,
        actor: actor ? { name: actor.user.name } : null,
        respond: { actions, acknowledgeUrl: links.acknowledge, rejectUrl: links.reject, smsReply: false },
        templates,
      }),
    );
    const draft: NotificationDraft = {
      id: notificationIdOf(effect, channel),
      accountId: options.accountId,
      accountUserId: accountUser.id,
      userId: accountUser.user_id,
      alertId: alert.id,
      workflowId,
      channel,
      to: address.to,
      undeliverable: address.undeliverable,
      template: effect.template,
      subject: rendered.subject,
      message: rendered.message,
      storedMessage: redactLink(redactLink(rendered.message, links.acknowledge), links.reject),
      html: rendered.html,
      links: rendered.links,
      slack: channel === 'slack' ? slackPage(effect, alert, rendered.subject) : null,
      undeliverableBy: channel === 'slack' ? 'slack' : null,
      sourceKey: effect.key,
      bundle: { tiny_id: alert.tiny_id, title: alert.title, urgency: alert.urgency },
      page: effect.type === 'page' ? { teamIds: teamsOf(alert), timeZone: accountUser.user.time_zone } : null,
    };
    const record = await sendNotification(draft, { rateLimited: true, mayStart: options.mayStart });
    if (isFailedPageMessage(record)) failed.push(record);
    if (effect.type === 'page' && record.sent_at) {
      recordMetric('pagesSent', 1, { channel });
      firstSent = Math.min(firstSent, Date.parse(record.sent_at));
    }
  }
  // Time to page: the alert's first page, its plan's first delivery (later layers and deliveries wait on purpose).
  if (options.firstPages && effect.type === 'page' && effect.delivery === 0 && effect.failover === undefined && firstSent < Infinity)
    recordMetric('timeToPage', firstSent - Date.parse(alert.created_at));
  // Before the step's outbox is released: a crash before the report leaves the page in the outbox,
  // and carrying it out again finds the failed notification and reports it then.
  await reportFailedMessages(failed);
}

/** A page by Slack: the alert with every button; other notices with those that apply to its status. */
function slackPage(effect: PageEffect | NotifyEffect, alert: AlertRecord, headline: string | null): SlackMessage {
  return slackAlertMessage(
    { ...slackAlertView(alert, consoleLink(`alerts/${alert.id}`)), headline },
    effect.type === 'page' ? SLACK_ALERT_ACTIONS : slackAlertActions(alert.status, { reject: false }),
  );
}

/** Pages an acknowledgement overtook: a queued notification is cancelled, one caught mid-call is an unknown outcome. */
async function cancelSuperseded(effects: readonly EscalationEffect[], options: CarryOutOptions): Promise<void> {
  const ids = effects.flatMap((effect) =>
    effect.type === 'page' || effect.type === 'notify'
      ? ['push', 'email', 'sms', 'voice', 'slack'].map((channel) => notificationIdOf(effect, channel))
      : [],
  );
  await inParallel(ids, async (id) => {
    const record = await getNotification(options.accountId, id);
    if (!record) return;
    if (record.status === 'queued') await cancelNotification(record, 'the alert was acknowledged or resolved first');
    else if (record.status === 'sending') await markOutcomeUnknown(record);
  });
}
