// POST /public/slack/commands (docs/api.md#slack): the `/oncall` slash command, verified like every
// request from Slack, run as the account user the Slack user is linked to, answered ephemerally:
//   /oncall                          who is on call now for each of the person's teams, per layer
//   /oncall ack <tiny id>            acknowledge (also `acknowledge`), as POST /api/v4/alerts/:id/acknowledge
//   /oncall resolve <tiny id>        resolve
//   /oncall page <team> <title…>     a new alert for the team, as the person; <team> is its name in
//                                    double quotes, a name without spaces, or its tem_ id
// The answer is the HTTP response itself (Slack shows it to the person alone); work that outlasts
// Slack's 3 seconds answers "working on it" once the command is on the escalation queue, whose
// worker runs it again (its key makes a transition or a page happen once, however many runs) and
// sends the result through the response_url.
import type * as z from 'zod';
import { getAccountUsers } from '../account-users/store';
import type { AccountUserRecord } from '../account-users/records';
import { createAlertV4 } from '../alerts/create-from-request';
import { now } from '../clock';
import { SLACK_USER_ID } from '../account-users/schemas';
import { BadRequest, HttpError } from '../http/errors';
import type { Principal } from '../http/principal';
import { derivedUlid, newId, parseId } from '../ids';
import { escapeMrkdwn, slackNotice } from '../notify/content';
import { teamOncallAt } from '../teams/read-team-oncall';
import type { TeamRecord } from '../teams/records';
import { getTeam, listAllTeams } from '../teams/store';
import { actOnAlertFromSlack } from './alert-actions';
import { claimCommandAlert, tellOnce } from './command-store';
import { enqueueSlackWork, type SlackCommandMessage } from './interaction-queue';
import type { SlackCommandAnswer } from './schemas';
import { NOT_LINKED, slackPersonOf, type SlackPerson } from './slack-person';
import { answerInTime, interactionKey, verifySlackRequest, type SlackHttpRequest } from './slack-request';

export type CommandAnswer = z.input<typeof SlackCommandAnswer>;

export const ONCALL_USAGE = [
  'Usage:',
  '/oncall  who is on call now for each of your teams',
  '/oncall ack <tiny id>  acknowledge an alert',
  '/oncall resolve <tiny id>  resolve an alert',
  '/oncall page <team> <title>  page a team: its name ("Platform Ops" in quotes, or a name without spaces) or its tem_ id',
].join('\n');

/** The answer of a command whose work outlasts Slack's 3 s: its result follows through the response_url. */
export const WORKING_ON_IT = 'Working on it…';

/** Plain words: names and titles are escaped so they cannot mention @channel or forge links. */
const reply = (text: string): CommandAnswer => ({ response_type: 'ephemeral', text: escapeMrkdwn(slackNotice(text).text) });

export async function receiveCommand(request: SlackHttpRequest): Promise<CommandAnswer> {
  const { workspace, form } = await verifySlackRequest(request, (fields) => fields.get('team_id'));
  const accountId = workspace.accountId;
  // The timestamp is the signed one, so the same command delivered again has the same key and time.
  const sentAt = Number(request.headers['x-slack-request-timestamp']) * 1000;
  const key = interactionKey(workspace.teamId, form.get('trigger_id') ?? `${form.get('user_id')}:${sentAt}`);
  const slackUserId = form.get('user_id') ?? '';
  if (!SLACK_USER_ID.test(slackUserId)) throw new BadRequest('user_id must be the Slack user id of who sent the command');
  const person = await slackPersonOf(accountId, slackUserId);
  if (!person) return reply(NOT_LINKED);
  const work = runCommand(person, (form.get('text') ?? '').trim(), { key, sentAt });
  const answered = await answerInTime<CommandAnswer | null>(work, null);
  if (answered) return answered;
  // The work left running here may be frozen with the process: the queue's run is the one that answers.
  await enqueueSlackWork({
    kind: 'slack_command',
    account_id: accountId,
    slack_user_id: slackUserId,
    text: form.get('text') ?? '',
    key,
    sent_at: sentAt,
    response_url: form.get('response_url') ?? undefined,
    delivery: newId(),
  });
  return reply(WORKING_ON_IT);
}

/**
 * Runs a command accepted as slow (escalation worker) and tells its result, once however many runs
 * (command-store.ts); throws only what a retry may cure (SQS redelivers it).
 */
export async function runSlackCommand(message: SlackCommandMessage): Promise<void> {
  const person = await slackPersonOf(message.account_id, message.slack_user_id);
  const result = person ? await runCommand(person, message.text.trim(), { key: message.key, sentAt: message.sent_at }) : reply(NOT_LINKED);
  await tellOnce(message, { ...slackNotice(result.text), response_type: 'ephemeral' });
}

/** Which command this is: its interaction key, and when Slack sent it (ms). */
interface CommandRequest {
  key: string;
  sentAt: number;
}

async function runCommand({ accountUser, principal }: SlackPerson, text: string, command: CommandRequest): Promise<CommandAnswer> {
  const [verb = '', ...rest] = text.split(/\s+/).filter(Boolean);
  const argument = text.slice(verb.length).trim();
  try {
    switch (verb.toLowerCase()) {
      case '':
        return reply(await whoIsOnCall(accountUser));
      case 'ack':
      case 'acknowledge':
      case 'resolve': {
        const tiny = /^#?([1-9]\d{0,14})$/.exec(rest[0] ?? '');
        if (!tiny || rest.length > 1) return reply(`Give the alert's tiny id: /oncall ${verb} 42`);
        const action = verb.toLowerCase() === 'resolve' ? 'resolve' : 'acknowledge';
        const alert = await actOnAlertFromSlack(principal, tiny[1], action, command.key);
        return reply(`${action === 'resolve' ? 'Resolved' : 'Acknowledged'} alert #${alert.tiny_id}: ${alert.title}`);
      }
      case 'page':
        return reply(await page(principal, argument, command));
      case 'help':
        return reply(ONCALL_USAGE);
      default:
        return reply(`Unknown: ${verb.slice(0, 40)}\n${ONCALL_USAGE}`);
    }
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    return reply(`Nothing was done: ${error.messages.join('; ')}.`);
  }
}

function untilText(end: number): string {
  if (!Number.isFinite(end) || end > Date.UTC(9000, 0)) return 'no end';
  return `until ${new Date(end).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

async function whoIsOnCall(accountUser: AccountUserRecord): Promise<string> {
  const teams = (await listAllTeams(accountUser.account_id)).filter(
    (team) => team.member_account_user_ids.includes(accountUser.id) || team.admin_account_user_ids.includes(accountUser.id),
  );
  if (teams.length === 0) return 'You are in no team, so there is nobody on call to show.';
  const at = now();
  const spansByTeam = await Promise.all(teams.map((team) => teamOncallAt(accountUser.account_id, team.id, at)));
  const ids = [...new Set(spansByTeam.flat().flatMap((span) => span.attendees.map((a) => a.attendeeId)))];
  const names = new Map((await getAccountUsers(accountUser.account_id, ids)).map((person) => [person.id, person.user.name]));
  const lines: string[] = [];
  teams.forEach((team, index) => {
    lines.push(team.name);
    const spans = spansByTeam[index];
    if (spans.length === 0) {
      lines.push('  nobody is on call');
      return;
    }
    const layers = [...new Set(spans.map((span) => span.layer))].sort((a, b) => a - b);
    for (const layer of layers) {
      const people = spans
        .filter((span) => span.layer === layer)
        .flatMap((span) => span.attendees.map((a) => `${names.get(a.attendeeId) ?? 'someone no longer here'} (${untilText(span.end)})`));
      lines.push(`  Layer ${layer}: ${[...new Set(people)].join(', ')}`);
    }
  });
  return lines.join('\n');
}

/** `"Platform Ops" title…`, `ops title…` or `tem_… title…`: the team's words and the rest. */
export function splitTeamAndTitle(argument: string): { team: string; title: string } | null {
  if (argument.startsWith('"')) {
    const close = argument.indexOf('"', 1);
    if (close < 0) return null;
    return { team: argument.slice(1, close).trim(), title: argument.slice(close + 1).trim() };
  }
  const [team = '', ...title] = argument.split(/\s+/);
  return { team, title: title.join(' ').trim() };
}

async function findTeamNamed(accountId: string, words: string): Promise<TeamRecord | null> {
  const id = parseId('team', words);
  if (id) return getTeam(accountId, id);
  const wanted = words.toLowerCase();
  const teams = await listAllTeams(accountId);
  return teams.find((team) => team.name.toLowerCase() === wanted) ?? null;
}

/**
 * The command's first delivery claims the new alert's id (command-store.ts) before creating it, so
 * the same command delivered again, also while the first is still slow or after it died, makes that
 * one alert and answers with it.
 */
async function page(principal: Principal, argument: string, command: CommandRequest): Promise<string> {
  const parts = splitTeamAndTitle(argument);
  if (!parts?.team || !parts.title) return `Name the team and the title: /oncall page "Platform Ops" Disk full on db-7`;
  const team = await findTeamNamed(principal.accountId, parts.team);
  if (!team) return `No team is named ${parts.team}. Nothing was done.`;
  const alert = await createAlertV4(
    principal,
    { title: parts.title, urgency: 'high', destination_team_ids: [team.id] },
    { id: await claimCommandAlert(principal.accountId, command.key, derivedUlid(command.sentAt, command.key), now()) },
  );
  return `Paged ${team.name}: alert #${alert.tiny_id} ${alert.title}`;
}
