// POST /alert/:id/handoff {to} (docs/api.md#alert-transitions): from open or acknowledged, append {to, from, time,
// acknowledged} to handoffs, assign the alert to `to` and set it open (acknowledged_at stays). A
// versioned read-modify-write: `from` depends on the assignment read. Paging the new assignee is
// escalation's (lib/escalation/handoff.ts).
import { nowIso } from '../clock';
import type { AccountUserRecord } from '../account-users/records';
import { getAccountUserOfUser } from '../account-users/store';
import { Conflict, Invalid, NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { parsePrefixedId, prefixId } from '../ids';
import { updateWithRetry } from '../store/retry';
import { getTeam } from '../teams/store';
import { actorOf } from './actor';
import type { AlertRecord, AlertStatus, Handoff } from './records';
import { findAlert } from './read-alerts';
import { handoffInput } from './schemas';
import { getAlert, saveAlert } from './store';
import { actorPrefixId, recordChange } from './timeline';
import { transitionConflict } from './transitions';

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

export interface HandedOff {
  alert: AlertRecord;
  /** The new assignee: an account user (paged alone) or a team (its policy runs). */
  assignee: { type: 'account_user'; id: string } | { type: 'team'; id: string };
}

export async function handoffAlert(principal: Principal, rawId: string, body: unknown): Promise<HandedOff> {
  const alert = await findAlert(principal, rawId);
  const input = parseInput(handoffInput, body);
  const target = await resolveTarget(principal, input.to);
  const to = target.kind === 'user' ? prefixId('user', target.userId) : prefixId('team', target.teamId);
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
        from: assigneeOf(current) ?? actorPrefixId(actorOf(principal)),
        time: Math.floor(Date.parse(now) / 1000),
        acknowledged: current.status === 'acknowledged',
      };
      return {
        ...current,
        handoffs: [...current.handoffs, entry],
        assigned_user_id: target.kind === 'user' ? target.userId : null,
        assigned_team_id: target.kind === 'team' ? target.teamId : current.assigned_team_id,
        status: 'open',
        version: current.version + 1,
        updated_at: now,
      };
    },
    save: (next, current) => saveAlert(current, next),
    saved: async (next, current) => {
      await recordChange('handoff', current, next, actorOf(principal), next.updated_at, { to: entry.to, from: entry.from });
      return next;
    },
    exhausted: () => {
      throw new Conflict('The alert was changed by other requests meanwhile; try again');
    },
  });
  return {
    alert: handedOff,
    assignee: target.kind === 'user' ? { type: 'account_user', id: target.accountUser.id } : { type: 'team', id: target.teamId },
  };
}
