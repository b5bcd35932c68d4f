// POST /api/v4/broadcasts/:id/respond {broadcast_response_option_id} (docs/api.md#broadcasts): an
// addressee answers an open broadcast that asks for a response. One answer per person: the first is
// written on condition that the person has none, a later one replaces it on condition that the answer
// read is still the stored one (a lost race reads again), so concurrent answers never leave two for one
// person and the counts, derived from the answers, stay exact.
//   404 another account's (or no such) broadcast · 409 it asks for no response, or is not open (queued,
//   closed, errored, or its deadline passed) · 403 the caller is not an addressee · 422 an option that
//   is not one of this broadcast's.
import { now as clockNow } from '../clock';
import { Conflict, Forbidden, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { newId, parseId } from '../ids';
import { findBroadcastRecord, withResponses } from './read-broadcasts';
import type { BroadcastResponseRecord, BroadcastView } from './records';
import { deadlinePassed, runBroadcastStep } from './run-broadcast';
import { respondInput } from './schemas';
import { getResponse, isAddressee, putResponse } from './store';

const ATTEMPTS = 10;

export async function respondToBroadcast(principal: Principal, rawId: string, body: unknown): Promise<BroadcastView> {
  const broadcast = await findBroadcastRecord(principal, rawId);
  if (!broadcast.response_requested) throw new Conflict('the broadcast asks for no response');
  const now = clockNow();
  if (broadcast.status === 'open' && deadlinePassed(broadcast, now)) {
    // Its timer is due or late: close it now rather than wait for it.
    await runBroadcastStep(broadcast.account_id, broadcast.id);
    throw new Conflict(`the broadcast is closed: responses were requested by ${broadcast.response_requested_by}`);
  }
  if (broadcast.status !== 'open') throw new Conflict(`the broadcast is ${broadcast.status}: only an open broadcast takes responses`);
  if (!(await isAddressee(principal.accountId, broadcast.id, principal.accountUserId))) {
    throw new Forbidden('Only an addressee of the broadcast may respond to it');
  }
  const input = parseInput(respondInput, body);
  const raw = input.broadcast_response_option_id;
  const optionId = parseId('responseOption', raw);
  const option = broadcast.response_options.find((o) => o.id === optionId);
  if (!option) throw new Invalid(`broadcast_response_option_id names no response option of this broadcast: ${raw}`);

  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const previous = await getResponse(principal.accountId, broadcast.id, principal.accountUserId);
    const response: BroadcastResponseRecord = {
      id: newId(),
      account_id: principal.accountId,
      broadcast_id: broadcast.id,
      account_user_id: principal.accountUserId,
      broadcast_response_option_id: option.id,
      channel: principal.via === 'api_key' ? 'api' : principal.via === 'slack' ? 'slack' : 'web',
      created_at: new Date(clockNow()).toISOString(),
    };
    if (await putResponse(response, previous)) return withResponses(broadcast);
  }
  throw new Conflict('the answer was changed by concurrent requests; try again');
}
