// Delivering a broadcast (docs/api.md#broadcasts): every member and admin of its destination teams and
// every destination account user, each person once however many teams reach them, hears template
// alert_broadcast on the channels their notification rule picks for `alert.broadcast` (else their
// default channels), each send a notification object (lib/notify) with an id derived from the
// broadcast, the person and the channel, so a resumed delivery never sends one twice. Broadcasts are
// not bundled with pages (no storm protection): each is one message per person and channel.
import { getAccountUsers } from '../account-users/store';
import type { AccountUserRecord } from '../account-users/records';
import { slackAddressOf } from '../account-users/slack-address';
import { getRecentAccount } from '../accounts/store';
import { now as clockNow } from '../clock';
import { addressOf } from '../account-users/addresses';
import { immediateChannels, loadNotificationRules } from '../escalation/delivery-plan';
import { derivedUlid, prefixId } from '../ids';
import { logger } from '../log';
import { renderNotification, slackBroadcastMessage, type NotificationTemplates, type SlackMessage } from '../notify/content';
import { isChannel, type Channel } from '../notify/records';
import { sendNotification } from '../notify/send';
import { getTeams } from '../teams/store';
import type { BroadcastRecord } from './records';
import { putAddressees } from './store';
import { whenLoaded } from '../on-first-use';

export interface DeliveryOutcome {
  /** False when the lease ran short before every send started: the next run goes on. */
  complete: boolean;
  recipients: number;
  /** Notifications recorded as anything but failed. */
  sent: number;
}

const CONCURRENCY = 16;

/** Who the broadcast goes to: destination users, then the teams' members and admins, each once. */
export async function addresseesOf(record: BroadcastRecord): Promise<AccountUserRecord[]> {
  const teams = await getTeams(record.account_id, record.destination_team_ids);
  const ids = [
    ...new Set([
      ...record.destination_account_user_ids,
      ...teams.flatMap((team) => [...team.member_account_user_ids, ...team.admin_account_user_ids]),
    ]),
  ];
  return getAccountUsers(record.account_id, ids);
}

/** The text under the title: the description, and what to answer when a response is requested. */
export function broadcastBody(record: BroadcastRecord): string {
  const parts = [record.description?.trim() ?? ''];
  if (record.response_requested && record.response_options.length > 0) {
    const options = [...record.response_options].sort((a, b) => a.position - b.position).map((o) => o.value);
    const by = record.response_requested_by ? ` by ${record.response_requested_by.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}` : '';
    parts.push(`Please respond${by}: ${options.join(' / ')}`);
  }
  return parts.filter(Boolean).join('\n\n');
}

export function broadcastNotificationId(record: BroadcastRecord, accountUserId: string, channel: string): string {
  return derivedUlid(Date.parse(record.created_at), `brd/${record.id}/${accountUserId}/${channel}`);
}

/** A broadcast by Slack: a button per response option when a response is requested (lib/slack answers them). */
function slackBroadcast(record: BroadcastRecord, body: string): SlackMessage {
  const options = record.response_requested ? [...record.response_options].sort((a, b) => a.position - b.position) : [];
  return slackBroadcastMessage({
    prefixId: prefixId('broadcast', record.id),
    tinyId: record.tiny_id,
    title: record.title,
    body,
    // The console has no page of its own for a broadcast.
    link: null,
    options: options.map((option) => ({ prefixId: prefixId('responseOption', option.id), value: option.value })),
  });
}

export async function deliverBroadcast(record: BroadcastRecord, mayStart: () => boolean): Promise<DeliveryOutcome> {
  const people = await addresseesOf(record);
  await putAddressees(
    record.account_id,
    record.id,
    people.map((p) => p.id),
  );
  const [rules, account] = await Promise.all([loadNotificationRules(record.account_id, people), getRecentAccount(record.account_id)]);
  const templates = (account?.notification_templates ?? {}) as NotificationTemplates;
  const body = broadcastBody(record);
  const at = clockNow();

  const sends: { person: AccountUserRecord; channel: Channel }[] = [];
  for (const person of people) {
    const channels = new Set<Channel>();
    for (const channel of immediateChannels(person, 'alert_broadcast', null, rules.get(person.id) ?? null, at)) {
      if (isChannel(channel)) channels.add(channel);
    }
    for (const channel of channels) sends.push({ person, channel });
  }

  let sent = 0;
  let complete = true;
  let next = 0;
  const worker = async () => {
    while (next < sends.length) {
      const { person, channel } = sends[next++];
      if (!mayStart()) {
        complete = false;
        return;
      }
      try {
        const address = channel === 'slack' ? await slackAddressOf(person) : addressOf(person, channel);
        const rendered = await whenLoaded(() =>
          renderNotification({
            template: 'alert_broadcast',
            channel: channel === 'slack' ? 'push' : channel,
            alert: { title: record.title, urgency: '', tiny_id: record.tiny_id, description: body },
            accountUser: { name: person.user.name },
            templates,
          }),
        );
        const notification = await sendNotification(
          {
            id: broadcastNotificationId(record, person.id, channel),
            accountId: record.account_id,
            accountUserId: person.id,
            userId: person.user_id,
            broadcastId: record.id,
            channel,
            to: address.to,
            undeliverable: address.undeliverable,
            template: 'alert_broadcast',
            subject: rendered.subject,
            message: rendered.message,
            html: rendered.html,
            slack: channel === 'slack' ? slackBroadcast(record, body) : null,
            undeliverableBy: channel === 'slack' ? 'slack' : null,
            sourceKey: `brd/${record.id}`,
          },
          { mayStart },
        );
        if (notification.status === 'queued') complete = false;
        else if (notification.status !== 'failed') sent += 1;
      } catch (error) {
        complete = false;
        logger.warn('broadcast: a send failed; the next run goes on', { broadcastId: record.id, error: error as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, Math.max(1, sends.length)) }, worker));
  return { complete, recipients: people.length, sent };
}
