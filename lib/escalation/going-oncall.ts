// Going on call (docs/api.md#escalation-and-notifications): each minute the sweeper looks at who is on call (any layer) for every
// team's schedule, compares it with what it saw last time (one item per team), and when the people
// changed tells the team's `handoff_notifications` recipients (template event_goc): oncall_rotation
// = those coming on, team_all = members and admins, team_admins, specific_users
// (handoff_notification_account_user_ids), none. The first look at a team only records who is on
// call: nothing changed yet. The record is written before anyone is told, on condition that it is
// still the one read, so two sweepers never tell one change twice.
import { getAccountUsers } from '../account-users/store';
import { getRecentAccount } from '../accounts/store';
import { now as clockNow } from '../clock';
import { derivedUlid } from '../ids';
import { logger } from '../log';
import { renderNotification, type NotificationTemplates } from '../notify/content';
import { isChannel } from '../notify/records';
import { sendNotification } from '../notify/send';
import { scheduleOncallAt } from '../schedules/read-oncall';
import type { TeamRecord } from '../teams/records';
import { allTeamsEverywhere } from '../teams/store';
import { addressOf } from '../account-users/addresses';
import { slackAddressOf } from '../account-users/slack-address';
import { defaultChannels } from '../rule-engine/default-channels';
import { getSeenOncall, saveSeenOncall } from './store';
import { whenLoaded } from '../on-first-use';

export interface OncallSweep {
  teams: number;
  changed: number;
  notified: number;
  failed: number;
}

const CONCURRENCY = 8;

function recipientsOf(team: TeamRecord, comingOn: string[]): string[] {
  switch (team.handoff_notifications) {
    case 'oncall_rotation':
      return comingOn;
    case 'team_all':
      return [...new Set([...team.member_account_user_ids, ...team.admin_account_user_ids])];
    case 'team_admins':
      return [...team.admin_account_user_ids];
    case 'specific_users':
      return [...team.handoff_notification_account_user_ids];
    default:
      return [];
  }
}

/** One team: compare, record, tell. Returns how many notifications went out (null: no change). */
export async function checkTeamOncall(team: TeamRecord, now: number): Promise<number | null> {
  const spans = team.schedule_id ? await scheduleOncallAt(team.account_id, team.schedule_id, now) : [];
  const current = [...new Set(spans.flatMap((span) => span.attendees.map((a) => a.attendeeId)))].sort();
  const seen = await getSeenOncall(team.account_id, team.id);
  if (!seen) {
    await saveSeenOncall(team.account_id, team.id, current, 0, now);
    return null;
  }
  const before = [...seen.accountUserIds].sort();
  if (before.length === current.length && before.every((id, i) => id === current[i])) return null;
  if (!(await saveSeenOncall(team.account_id, team.id, current, seen.version, now))) return null;

  const comingOn = current.filter((id) => !before.includes(id));
  const recipients = recipientsOf(team, comingOn);
  if (recipients.length === 0) return 0;
  const people = await getAccountUsers(team.account_id, [...new Set([...recipients, ...current])]);
  const byId = new Map(people.map((p) => [p.id, p]));
  const templates = ((await getRecentAccount(team.account_id))?.notification_templates ?? {}) as NotificationTemplates;
  const names = current.map((id) => byId.get(id)?.user.name).filter((name): name is string => Boolean(name));
  let sent = 0;
  for (const id of recipients) {
    const person = byId.get(id);
    if (!person) continue;
    const onCallNow = current.includes(id);
    // A going-on-call notice follows no notification rule: the person's default channels, at once.
    for (const channel of defaultChannels(person.user)) {
      if (!isChannel(channel)) continue;
      const address = channel === 'slack' ? await slackAddressOf(person) : addressOf(person, channel);
      const rendered = await whenLoaded(() =>
        renderNotification({
          template: 'event_goc',
          channel: channel === 'slack' ? 'push' : channel,
          accountUser: { name: person.user.name },
          team: { name: team.name },
          oncall: onCallNow && comingOn.includes(id) ? null : { names },
          templates,
        }),
      );
      await sendNotification(
        {
          id: derivedUlid(now, `goc/${team.id}/${seen.version + 1}/${id}/${channel}`),
          accountId: team.account_id,
          accountUserId: id,
          userId: person.user_id,
          channel,
          to: address.to,
          undeliverable: address.undeliverable,
          undeliverableBy: channel === 'slack' ? 'slack' : null,
          template: 'event_goc',
          subject: rendered.subject,
          message: rendered.message,
          html: rendered.html,
          sourceKey: `goc/${team.id}/${seen.version + 1}`,
        },
        { rateLimited: true },
      );
      sent += 1;
    }
  }
  return sent;
}

export async function sweepOncallChanges(now = clockNow()): Promise<OncallSweep> {
  const result: OncallSweep = { teams: 0, changed: 0, notified: 0, failed: 0 };
  const teams: TeamRecord[] = [];
  for await (const team of allTeamsEverywhere()) teams.push(team);
  result.teams = teams.length;
  let next = 0;
  const worker = async () => {
    while (next < teams.length) {
      const team = teams[next++];
      try {
        const sent = await checkTeamOncall(team, now);
        if (sent !== null) {
          result.changed += 1;
          result.notified += sent;
        }
      } catch (error) {
        result.failed += 1;
        logger.warn('sweeper: on-call change check failed', { teamId: team.id, error: error as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return result;
}
