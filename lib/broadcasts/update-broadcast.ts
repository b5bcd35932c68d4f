// PUT /api/v4/broadcasts/:id (an admin or the broadcast's creator, docs/api.md#broadcasts): title,
// description and tags change; `status` is writable only as `closed` (from queued or open: a closed or
// errored broadcast is a 409 naming its status). Closing stops its timers; a delivery under way finishes
// its sends but the broadcast stays closed.
import { now as clockNow } from '../clock';
import { Conflict, Forbidden } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { findBroadcastRecord, withResponses } from './read-broadcasts';
import type { BroadcastRecord, BroadcastView } from './records';
import { closedRecord } from './records';
import { updateBroadcastInput } from './schemas';
import { saveBroadcast } from './store';

/** Admins and the broadcast's creator may change, close and delete it. */
export function requireOwnerOrAdmin(principal: Principal, record: BroadcastRecord, action: string): void {
  if (!principal.roles.admin && principal.accountUserId !== record.created_by) {
    throw new Forbidden(`Only an account admin or the broadcast's creator may ${action}`);
  }
}

export async function updateBroadcast(principal: Principal, rawId: string, body: unknown): Promise<BroadcastView> {
  const current = await findBroadcastRecord(principal, rawId);
  requireOwnerOrAdmin(principal, current, input(body).status ? 'close this broadcast' : 'change this broadcast');
  const changes = parseInput(updateBroadcastInput, body);
  if (changes.status === 'closed' && current.status !== 'queued' && current.status !== 'open') {
    throw new Conflict(`the broadcast is ${current.status}: only a queued or open broadcast can be closed`);
  }
  const now = clockNow();
  const base = changes.status === 'closed' ? closedRecord(current, now) : { ...current, version: current.version + 1 };
  const next: BroadcastRecord = {
    ...base,
    title: changes.title ?? current.title,
    description: changes.description === undefined ? current.description : changes.description,
    tag_list: changes.tag_list || changes.tags ? [...new Set(changes.tag_list ?? changes.tags ?? [])] : current.tag_list,
    updated_at: new Date(now).toISOString(),
  };
  if (!(await saveBroadcast(next))) throw new Conflict('the broadcast was changed by another request; reload and try again');
  return withResponses(next);
}

function input(body: unknown): { status?: unknown } {
  return body && typeof body === 'object' ? body : {};
}
