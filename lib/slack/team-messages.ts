// Team channels (docs/api.md#slack): every alert assigned to a team with a `slack_channel_id` is
// posted there once (chat.postMessage), and after each later change of its status or assignee, from
// any interface, that message is updated in place (chat.update with its channel and ts) to show the
// new status, who made the change, and only the buttons that still apply. The changes arrive as
// alert events (lib/alerts/alert-events.ts, STATUS_OR_ASSIGNEE_CHANGED) on the webhooks queue, so a
// page never waits for Slack.
//
// One worker at a time advances an alert's messages (a lease on its record); a change that arrives
// meanwhile marks the record dirty, and the lease holder renders again with the alert as it is then,
// so the last message Slack shows is the alert's last state. A message is sent only when its content
// differs from what was last sent. When Slack refuses, fails or rate-limits a call, the sync is due
// again (Retry-After, or a backoff) and retried by a delayed message, and by the sweeper if that is
// lost; Slack's permanent refusals (channel_not_found, not_in_channel, …) are logged and not retried.
import { createHash } from 'node:crypto';
import { getAccountUserOfUser } from '../account-users/store';
import type { AlertEventMessage } from '../alerts/alert-events';
import type { AlertRecord } from '../alerts/records';
import { getAlert } from '../alerts/store';
import { SealedSecretUnreadable } from '../auth/sealed-secrets';
import { now, nowIso, scaledMs, sleep } from '../clock';
import { consoleLink } from '../http/base-url';
import { parsePrefixedId } from '../ids';
import { getIntegration } from '../integrations/store';
import { logger } from '../log';
import { slackAlertActions, slackAlertMessage, slackAlertView, type SlackMessage } from '../notify/content/slack-message';
import { postMessage, updateMessage } from '../slack-client/methods';
import type { SlackWorkspace } from '../slack-client/records';
import { SlackCallFailed } from '../slack-client/web-api';
import { workspaceOf } from '../slack-client/workspace';
import type { TeamRecord } from '../teams/records';
import { IN_PROCESS_WAIT_MS } from '../queues/delayed';
import { getTeams } from '../teams/store';
import { getTeamPosts, insertTeamPosts, saveTeamPosts } from './post-store';
import type { ShownChange, TeamPost, TeamPostsRecord } from './records';
import { sendTeamMessageRetry } from './sync-queue';

/** Long enough for a round of Slack calls (5 s timeout each); a worker that died frees it after. */
const LEASE_MS = 30_000;
const MAX_ROUNDS = 5;
/** Backoff of a failed sync by attempt (÷ TIME_SCALE); after the last one it is given up. */
const BACKOFF_MS = [2_000, 5_000, 15_000, 60_000, 300_000, 900_000, 3_600_000];
const MAX_ATTEMPTS = 12;

/** Slack's answers that another try would not change. */
const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'message_not_found',
  'cant_update_message',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'no_permission',
  'missing_scope',
  'invalid_blocks',
  'msg_too_long',
  'restricted_action',
]);

export type SyncOutcome = 'synced' | 'retrying' | 'busy' | 'not_connected' | 'nothing' | 'failed';

/** The later of two changes (by time): what the messages show. */
function laterChange(stored: ShownChange | null, incoming: ShownChange | null): ShownChange | null {
  if (!incoming) return stored;
  if (!stored) return incoming;
  return incoming.at >= stored.at ? incoming : stored;
}

function freshRecord(accountId: string, alertId: string): TeamPostsRecord {
  return {
    account_id: accountId,
    alert_id: alertId,
    posts: {},
    change: null,
    lease_until: 0,
    dirty: false,
    due_at: null,
    attempts: 0,
    last_error: null,
    updated_at: nowIso(),
    version: 0,
  };
}

/** Takes the lease, or marks the record dirty for the worker that holds it ('busy'). */
async function claim(accountId: string, alertId: string, change: ShownChange | null): Promise<TeamPostsRecord | 'busy'> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getTeamPosts(accountId, alertId);
    const base = current ?? freshRecord(accountId, alertId);
    const shown = laterChange(base.change, change);
    const at = now();
    if (current && current.lease_until > at) {
      // The holder goes round again when it releases; should it die first, the sweeper finds this due.
      const dueAt = Math.min(current.due_at ?? current.lease_until, current.lease_until);
      if (
        await saveTeamPosts({ ...current, change: shown, dirty: true, due_at: dueAt, updated_at: nowIso(), version: current.version + 1 })
      ) {
        return 'busy';
      }
      continue;
    }
    const leased: TeamPostsRecord = {
      ...base,
      change: shown,
      dirty: false,
      lease_until: at + LEASE_MS,
      updated_at: nowIso(),
      version: base.version + 1,
    };
    if (current ? await saveTeamPosts(leased) : await insertTeamPosts(leased)) return leased;
  }
  throw new Error(`slack: the team messages of alert ${alertId} stayed contended`);
}

/** Gives the lease back with what this round did; true when a change came meanwhile (go round again). */
async function release(
  held: TeamPostsRecord,
  result: Pick<TeamPostsRecord, 'posts' | 'due_at' | 'attempts' | 'last_error'>,
): Promise<boolean> {
  let base = held;
  for (let attempt = 0; attempt < 10; attempt++) {
    const next: TeamPostsRecord = { ...base, ...result, lease_until: 0, dirty: false, updated_at: nowIso(), version: base.version + 1 };
    if (await saveTeamPosts(next)) return base.dirty;
    const current = await getTeamPosts(held.account_id, held.alert_id);
    if (!current) return false;
    base = current;
  }
  throw new Error(`slack: the team messages of alert ${held.alert_id} could not be released`);
}

/** Every team the alert was assigned to: routing's assignees (its destinations among them) and the one
 * it is assigned to now (a hand-off, a policy's reassignment). An alert a router suppressed has none. */
function teamIdsOf(alert: AlertRecord): string[] {
  const ids = new Set<string>();
  for (const assignment of alert.assignments ?? []) if (assignment.type === 'team') ids.add(assignment.id);
  if (alert.assigned_team_id) ids.add(alert.assigned_team_id);
  return [...ids];
}

async function nameOfActor(accountId: string, by: string | null): Promise<string> {
  const actor = by ? parsePrefixedId(by) : null;
  if (actor?.kind === 'user') return (await getAccountUserOfUser(actor.id, accountId))?.user.name ?? 'a person no longer in the account';
  if (actor?.kind === 'integration') return `the integration ${(await getIntegration(accountId, actor.id))?.name ?? by}`;
  return 'the service';
}

const CHANGE_WORDS: Record<string, string> = {
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  archived: 'Archived',
  handoff: 'Handed off',
  reassigned: 'Reassigned',
  dropped: 'Dropped',
  suppressed: 'Suppressed',
  reopened: 'Reopened',
};

/** The line under the alert: what the last change was and who made it ("Acknowledged by Ada Lovelace"). */
async function describeChange(accountId: string, change: ShownChange | null): Promise<string | null> {
  if (!change || change.action === 'routed' || change.action === 'created') return null;
  if (change.action === 'dropped' && !change.by) return 'Dropped: nobody acknowledged it in time';
  if (change.action === 'reassigned' && !change.by) return 'Reassigned by its escalation policy';
  const word = CHANGE_WORDS[change.action] ?? `${change.action[0]?.toUpperCase() ?? ''}${change.action.slice(1)}`;
  return `${word} by ${await nameOfActor(accountId, change.by)}`;
}

async function assigneeOf(alert: AlertRecord, teams: Map<string, TeamRecord>): Promise<string | null> {
  if (alert.assigned_user_id) return (await getAccountUserOfUser(alert.assigned_user_id, alert.account_id))?.user.name ?? null;
  if (alert.assigned_team_id) return teams.get(alert.assigned_team_id)?.name ?? null;
  return null;
}

/** The team channel message of an alert as it is now. */
export async function teamMessageOf(alert: AlertRecord, change: ShownChange | null, teams: Map<string, TeamRecord>): Promise<SlackMessage> {
  const [changeLine, assignee] = await Promise.all([describeChange(alert.account_id, change), assigneeOf(alert, teams)]);
  return slackAlertMessage(
    { ...slackAlertView(alert, consoleLink(`alerts/${alert.id}`)), change: changeLine, assignee },
    slackAlertActions(alert.status),
  );
}

const digestOf = (message: SlackMessage) => createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 22);

interface RoundResult {
  posts: Record<string, TeamPost>;
  failure: SlackCallFailed | null;
}

/** Posts to each channel team without a message and updates each message whose content changed. */
async function syncRound(workspace: SlackWorkspace, held: TeamPostsRecord): Promise<RoundResult> {
  const posts = { ...held.posts };
  const alert = await getAlert(held.account_id, held.alert_id);
  if (!alert) return { posts, failure: null };
  const teams = new Map((await getTeams(held.account_id, teamIdsOf(alert))).map((team) => [team.id, team]));
  const message = await teamMessageOf(alert, held.change, teams);
  const digest = digestOf(message);
  let failure: SlackCallFailed | null = null;
  const targets = new Set([...Object.keys(posts), ...[...teams.values()].filter((team) => team.slack_channel_id).map((team) => team.id)]);
  await Promise.all(
    [...targets].map(async (teamId) => {
      const post = posts[teamId];
      if (post?.digest === digest) return;
      try {
        if (post) {
          await updateMessage(workspace, post.channel, post.ts, message);
          posts[teamId] = { ...post, digest };
        } else {
          const posted = await postMessage(workspace, teams.get(teamId)!.slack_channel_id!, message);
          posts[teamId] = { channel: posted.channel, ts: posted.ts, digest };
        }
      } catch (error) {
        if (!(error instanceof SlackCallFailed)) throw error;
        logger.warn('slack: team message not sent', { alertId: held.alert_id, teamId, error: error.message });
        if (!failure || (error.rateLimited && !failure.rateLimited)) failure = error;
      }
    }),
  );
  return { posts, failure };
}

function retryDelayMs(failure: SlackCallFailed, attempts: number): number | null {
  if (PERMANENT.has(failure.code) || attempts >= MAX_ATTEMPTS) return null;
  // Slack's Retry-After is Slack's own limit: honoured as it is, never divided by TIME_SCALE.
  if (failure.retryAfterSeconds !== null) return failure.retryAfterSeconds * 1000;
  return scaledMs(BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1] ?? BACKOFF_MS[0]);
}

/**
 * Brings the alert's team messages up to date. `change` is the change that asked for it (null for
 * a retry). Safe to call any number of times, from any number of workers at once.
 */
export async function syncTeamMessages(accountId: string, alertId: string, change: ShownChange | null): Promise<SyncOutcome> {
  let workspace: SlackWorkspace | null;
  try {
    workspace = await workspaceOf(accountId);
  } catch (error) {
    if (!(error instanceof SealedSecretUnreadable)) throw error;
    logger.error('slack: the connection cannot be opened; team messages are not sent', { accountId, error: error.message });
    return 'not_connected';
  }
  if (!workspace) {
    await forgetDue(accountId, alertId);
    return 'not_connected';
  }
  // Most changes are of alerts no team channel hears of: settled with two reads, nothing written.
  const [alert, existing] = await Promise.all([getAlert(accountId, alertId), getTeamPosts(accountId, alertId)]);
  if (!alert && !existing) return 'nothing';
  if (!existing) {
    const teams = alert ? await getTeams(accountId, teamIdsOf(alert)) : [];
    if (!teams.some((team) => team.slack_channel_id)) return 'nothing';
  }
  let incoming = change;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const held = await claim(accountId, alertId, incoming);
    if (held === 'busy') return 'busy';
    incoming = null;
    const { posts, failure } = await syncRound(workspace, held);
    const attempts = failure ? held.attempts + 1 : 0;
    const delay = failure ? retryDelayMs(failure, attempts) : null;
    const dueAt = delay === null ? null : now() + delay;
    if (failure && delay === null) logger.error('slack: team message given up', { accountId, alertId, error: failure.message, attempts });
    const again = await release(held, { posts, due_at: dueAt, attempts, last_error: failure?.message ?? null });
    if (dueAt !== null) {
      await sendTeamMessageRetry(accountId, alertId, dueAt - now()).catch((error: unknown) =>
        logger.warn('slack: retry message not sent; the sweeper will re-drive it', { alertId, error: error as Error }),
      );
      return 'retrying';
    }
    if (!again) return failure ? 'failed' : 'synced';
  }
  return 'busy';
}

/** Slack was disconnected: a retry that was due has nothing left to do. */
async function forgetDue(accountId: string, alertId: string): Promise<void> {
  const record = await getTeamPosts(accountId, alertId);
  if (record?.due_at != null) await saveTeamPosts({ ...record, due_at: null, updated_at: nowIso(), version: record.version + 1 });
}

/** An alert event for the Slack subscriber. */
export function syncForAlertEvent(message: AlertEventMessage): Promise<SyncOutcome> {
  const change: ShownChange = { action: message.action ?? message.event, by: message.actor ?? null, at: message.at };
  return syncTeamMessages(message.account_id, message.alert_id, change);
}

/** A retry message: runs when due (a message that came early is sent on). */
export async function retryTeamMessages(accountId: string, alertId: string): Promise<SyncOutcome> {
  const record = await getTeamPosts(accountId, alertId);
  if (!record || record.due_at === null) return 'nothing';
  const early = record.due_at - now();
  if (early > IN_PROCESS_WAIT_MS) {
    await sendTeamMessageRetry(accountId, alertId, early);
    return 'retrying';
  }
  // SQS delays by whole seconds, rounded down: the last moments are waited out here.
  if (early > 0) await sleep(early);
  return syncTeamMessages(accountId, alertId, null);
}
