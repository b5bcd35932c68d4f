// One event by id (ULID or evt_ prefix id) in the caller's account; anything else is absent.
import type { Principal } from '../auth/principal';
import { NotFound } from '../http/errors';
import { parseId } from '../ids';
import type { EventRecord } from './records';
import { getEvent } from './store';

export async function findEvent(principal: Principal, rawId: string): Promise<EventRecord> {
  const id = parseId('event', rawId);
  const record = id ? await getEvent(principal.accountId, id) : null;
  if (!record) throw new NotFound('Event not found');
  return record;
}
