// Reading events: one by id, the account's list (both interfaces) and a schedule's list
// (GET /api/v4/schedules/:id/events: the raw events, repeats not expanded).
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId } from '../ids';
import { runList, type ListSource } from '../list/engine';
import { normalizeIdFilters, prefixIdFilters } from '../list/id-filters';
import { parseListQuery, type ListQuery } from '../list/query';
import { collectionSource, inCreationOrder } from '../list/sources';
import type { EventRecord } from './records';
import {
  EARLIER_EVENT_REFERENCE_FILTERS,
  earlierEventListSpec,
  EVENT_REFERENCE_FILTERS,
  eventListSpec,
  eventToEarlier,
  eventToV4,
} from './represent';
import { eventCollection, firstEventsOfSchedule, getEvent, listEventsOfSchedule } from './store';

/** One event by id (ULID or evt_ prefix id) in the caller's account; anything else is absent. */
export async function findEvent(principal: Principal, rawId: string): Promise<EventRecord> {
  const id = parseId('event', rawId);
  const record = id ? await getEvent(principal.accountId, id) : null;
  if (!record) throw new NotFound('Event not found');
  return record;
}

/** A page in creation order straight from the schedule's links and its exact counter. */
async function schedulePageFor(accountId: string, scheduleId: string, query: ListQuery) {
  const order = inCreationOrder({ ...query, filters: [] });
  if (!order || query.q) return null;
  const { events, total } = await firstEventsOfSchedule(accountId, scheduleId, order.forward, query.offset + query.limit);
  return { page: events.slice(query.offset), total };
}

/** `schedule_ids=<id>` alone is answered through that schedule's links. */
function scheduleFilterOf(query: ListQuery): string | null {
  if (query.filters.length !== 1) return null;
  const [filter] = query.filters;
  if (filter.path !== 'schedule_ids' || (filter.op !== 'contains' && filter.op !== 'equals') || filter.values.length !== 1) return null;
  return String(filter.values[0]);
}

function accountEvents(accountId: string): ListSource<EventRecord> {
  return collectionSource(eventCollection(accountId), {
    fast: async (query) => {
      const scheduleId = scheduleFilterOf(query);
      return scheduleId ? schedulePageFor(accountId, scheduleId, { ...query, filters: [] }) : null;
    },
  });
}

export async function listV4Events(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, EVENT_REFERENCE_FILTERS), eventListSpec, 'v4');
  return runList(query, accountEvents(principal.accountId), eventToV4, { search: eventListSpec.search });
}

export async function listEarlierEvents(principal: Principal, params: URLSearchParams) {
  const query = parseListQuery(prefixIdFilters(params, EARLIER_EVENT_REFERENCE_FILTERS), earlierEventListSpec, 'earlier');
  return runList(query, collectionSource(eventCollection(principal.accountId)), eventToEarlier, {
    search: earlierEventListSpec.search,
  });
}

/** The events of a schedule through the list engine; the caller has checked the schedule exists. */
export async function listScheduleEvents(principal: Principal, scheduleId: string, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, EVENT_REFERENCE_FILTERS), eventListSpec, 'v4');
  const source: ListSource<EventRecord> = {
    all: () => listEventsOfSchedule(principal.accountId, scheduleId),
    fast: async (q) => (q.filters.length === 0 ? schedulePageFor(principal.accountId, scheduleId, q) : null),
  };
  return runList(query, source, eventToV4, { search: eventListSpec.search });
}
