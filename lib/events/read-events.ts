// Reading events: one by id, the account's list (both interfaces) and a schedule's list
// (GET /api/v4/schedules/:id/events: the raw events, repeats not expanded).
import type { Principal } from '../auth/principal';
import type { ListSource } from '../list/engine';
import { runList } from '../list/engine';
import { parseListQuery, type ListQuery } from '../list/query';
import { ENTITY_TYPES } from '../store/items';
import { inCreationOrder, partitionSource } from '../store/partition-source';
import { normalizeIdFilters, prefixIdFilters } from '../teams/inputs';
import type { EventRecord } from './records';
import { EARLIER_EVENT_REFERENCE_FILTERS, earlierEventListSpec, EVENT_REFERENCE_FILTERS, eventListSpec, eventToEarlier, eventToV4 } from './represent';
import { eventsOfSchedule, schedulePage } from './store';

/** A page in creation order straight from the schedule's links and its exact counter. */
async function schedulePageFor(accountId: string, scheduleId: string, query: ListQuery) {
  const order = inCreationOrder({ ...query, filters: [] });
  if (!order || query.q) return null;
  const { events, total } = await schedulePage(accountId, scheduleId, order.forward, query.offset + query.limit);
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
  return partitionSource<EventRecord>(accountId, ENTITY_TYPES.event, {
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
  return runList(query, partitionSource<EventRecord>(principal.accountId, ENTITY_TYPES.event), eventToEarlier, {
    search: earlierEventListSpec.search,
  });
}

/** The events of a schedule through the list engine; the caller has checked the schedule exists. */
export async function listScheduleEvents(principal: Principal, scheduleId: string, params: URLSearchParams) {
  const query = parseListQuery(normalizeIdFilters(params, EVENT_REFERENCE_FILTERS), eventListSpec, 'v4');
  const source: ListSource<EventRecord> = {
    all: () => eventsOfSchedule(principal.accountId, scheduleId),
    fast: async (q) => (q.filters.length === 0 ? schedulePageFor(principal.accountId, scheduleId, q) : null),
  };
  return runList(query, source, eventToV4, { search: eventListSpec.search });
}
