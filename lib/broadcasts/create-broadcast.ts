// POST /api/v4/broadcasts (admins and broadcasters, docs/api.md#roles): validated and stored `queued`,
// then delivered asynchronously (its timer is due at once: run-broadcast.ts). A title, at least one
// destination (teams or account users of the account) and, when a response is requested, at least
// one response option; response_requested_by must lie ahead.
import { requireRole } from '../auth/permissions';
import { now as clockNow } from '../clock';
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { resolveReferences } from '../http/references';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import { parseDateTime } from '../list/query';
import type { BroadcastView } from './records';
import { createBroadcastChecks, createBroadcastInput } from './schemas';
import { insertBroadcast, nextBroadcastTinyId } from './store';
import { scheduleBroadcast } from './timers';

/** response_requested_by as stored (ISO UTC with milliseconds); it must be a datetime after `now`. */
export function responseDeadline(raw: string | null | undefined, now: number): string | null {
  if (raw === undefined || raw === null) return null;
  const at = parseDateTime(raw);
  if (at === null) throw new Invalid('response_requested_by must be an ISO 8601 datetime');
  if (at <= now) throw new Invalid('response_requested_by must be in the future');
  return new Date(at).toISOString();
}

export async function createBroadcast(principal: Principal, body: unknown): Promise<BroadcastView> {
  requireRole(principal, ['admin', 'broadcaster'], 'send broadcasts');
  const input = parseInput(createBroadcastInput, body, createBroadcastChecks);
  const now = clockNow();
  const deadline = responseDeadline(input.response_requested_by, now);
  const [teamIds, accountUserIds] = await resolveReferences(principal.accountId, [
    { field: 'destination_team_ids', kind: 'team', ids: input.destination_team_ids ?? [] },
    { field: 'destination_account_user_ids', kind: 'accountUser', ids: input.destination_account_user_ids ?? [] },
  ]);
  const options = (input.broadcast_response_options_attributes ?? [])
    .filter((option) => !option._destroy)
    .map((option, position) => ({ id: newId(), value: option.value, position }));
  const iso = new Date(now).toISOString();
  const record: BroadcastView = {
    id: newId(),
    account_id: principal.accountId,
    version: 1,
    tiny_id: await nextBroadcastTinyId(principal.accountId),
    title: input.title,
    description: input.description ?? null,
    tag_list: [...new Set(input.tag_list ?? input.tags ?? [])],
    destination_team_ids: teamIds,
    destination_account_user_ids: accountUserIds,
    status: 'queued',
    response_requested: input.response_requested ?? false,
    response_requested_by: deadline,
    response_options: options,
    created_by: principal.accountUserId,
    recipients_count: null,
    sent_at: null,
    closed_at: null,
    lease_until: null,
    due_at: now,
    created_at: iso,
    updated_at: iso,
    responses: [],
  };
  const { responses: _none, ...stored } = record;
  await insertBroadcast(stored);
  await scheduleBroadcast(record.account_id, record.id, now);
  return record;
}
