// POST /alert/:id/handoff {to} (docs/api.md#alert-transitions), the earlier interface: from open or
// acknowledged, append {to, from, time, acknowledged} to handoffs, assign the alert to `to` and set it
// open (acknowledged_at stays), then page the new assignee (lib/escalation/page-handoff.ts). A
// versioned read-modify-write: `from` depends on the assignment read. The change carries its
// TransitionMark like every status change, so a save whose answer was lost is recognised as its own.
import { nowIso } from '../clock';
import type { AccountUserRecord } from '../account-users/records';
import { getAccountUserOfUser } from '../account-users/store';
import { actorOf } from '../alerts/actor';
import { findAlert } from '../alerts/read-alerts';
import { withTransitionMark, type AlertRecord, type AlertStatus, type Handoff } from '../alerts/records';
import { handoffInput } from '../alerts/schemas';
import { getAlert, saveAlert } from '../alerts/store';
import { actorPrefixId, recordChange } from '../alerts/timeline';
import { pageHandoffAssignee, type HandoffAssignee } from '../escalation/page-handoff';
import { Conflict, Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parsePrefixedId, prefixId } from '../ids';
import { updateWithRetry } from '../store/retry';
import { getTeam } from '../teams/store';
import { callOf } from './request';
import { transitionConflict } from './transition';

const HANDOFF_FROM: AlertStatus[] = ['open', 'acknowledged'];

type Target = { kind: 'user'; userId: string; accountUser: AccountUserRecord } | { kind: 'team'; teamId: string };

async function resolveTarget(principal: Principal, to: string): Promise<Target> {
  const parsed = parsePrefixedId(to.trim());
  if (parsed?.kind === 'user') {
    const accountUser = await getAccountUserOfUser(parsed.id, principal.accountId);
    if (!accountUser) throw new Invalid(`to names no user of this account: ${to}`);
    return { kind: 'user', userId: parsed.id, accountUser };
  }
  if (parsed?.kind === 'team') {
    const team = await getTeam(principal.accountId, parsed.id);
    if (!team) throw new Invalid(`to names no team of this account: ${to}`);
    return { kind: 'team', teamId: parsed.id };
  }
  throw new Invalid(`to must be a user (usr_) or team (tem_) id: ${to}`);
}

function assigneeOf(alert: AlertRecord): string | null {
  if (alert.assigned_user_id) return prefixId('user', alert.assigned_user_id);
  if (alert.assigned_team_id) return prefixId('team', alert.assigned_team_id);
  return null;
}

/** Hands the alert off and pages its new assignee; answers the alert as the hand-off left it. */
export async function handoffAndEscalate(principal: Principal, rawId: string, body: unknown): Promise<AlertRecord> {
  const alert = await findAlert(principal, rawId);
  const input = parseInput(handoffInput, body);
  const target = await resolveTarget(principal, input.to);
  const to = target.kind === 'user' ? prefixId('user', target.userId) : prefixId('team', target.teamId);
  const actor = actorOf(principal);
  const request = callOf({ actor, rules: 'earlier' });
  let entry: Handoff;
  const handedOff = await updateWithRetry<AlertRecord>({
    attempts: 5,
    load: (attempt) => (attempt === 0 ? alert : getAlert(principal.accountId, alert.id)),
    edit: (current) => {
      if (!current) throw new NotFound('Alert not found'); // gone meanwhile
      if (!HANDOFF_FROM.includes(current.status)) throw transitionConflict('hand off', current.status, HANDOFF_FROM);
      const now = nowIso();
      entry = {
        to,
        from: assigneeOf(current) ?? actorPrefixId(actor),
        time: Math.floor(Date.parse(now) / 1000),
        acknowledged: current.status === 'acknowledged',
      };
      return {
        ...current,
        handoffs: [...current.handoffs, entry],
        assigned_user_id: target.kind === 'user' ? target.userId : null,
        assigned_team_id: target.kind === 'team' ? target.teamId : current.assigned_team_id,
        status: 'open',
        transitions: withTransitionMark(current, { ...request, from: current.status, to: 'open', at: now }),
        version: current.version + 1,
        updated_at: now,
      };
    },
    save: (next, current) => saveAlert(current, next),
    saved: async (next, current) => {
      await recordChange('handoff', current, next, actor, next.updated_at, { to: entry.to, from: entry.from });
      return next;
    },
    exhausted: () => {
      throw new Conflict('The alert was changed by other requests meanwhile; try again');
    },
  });
  const assignee: HandoffAssignee =
    target.kind === 'user' ? { type: 'account_user', id: target.accountUser.id } : { type: 'team', id: target.teamId };
  await pageHandoffAssignee(handedOff, assignee);
  return (await getAlert(handedOff.account_id, handedOff.id)) ?? handedOff;
}
