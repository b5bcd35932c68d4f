// The two representations of an event: v4 (api-v4.md "Event") and earlier (api-earlier.md "Event").
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { EARLIER_COMMON_ATTRIBUTES, V4_COMMON_ATTRIBUTES } from '../list/common-attributes';
import { unixSeconds } from './datetimes';
import type { EventRecord } from './records';
import type * as z from 'zod';
import type { EventEarlier, EventV4 } from './schemas';

export function eventToV4(record: EventRecord): z.input<typeof EventV4> {
  return {
    id: record.id,
    prefix_id: prefixId('event', record.id),
    account_id: record.account_id,
    tiny_id: record.tiny_id,
    start_datetime: record.start_datetime,
    end_datetime: record.end_datetime,
    layer: record.layer,
    time_zone: record.time_zone,
    repeat: record.repeat,
    frequency: record.frequency,
    frequency_unit: record.frequency_unit,
    days_of_week: record.days_of_week,
    repeat_end_datetime: record.repeat_end_datetime,
    rotation: record.rotation,
    parent_id: record.parent_id,
    schedule_ids: record.schedule_ids,
    event_attendees: record.event_attendees.map((a) => ({
      id: a.id,
      attendee_id: a.attendee_id,
      attendee_type: a.attendee_type,
      position: a.position,
    })),
    exceptions: record.exceptions.map((e) => ({ id: e.id, start_datetime: e.start_datetime })),
    meta: record.meta,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const eventListSpec: ListSpec = {
  attributes: {
    ...V4_COMMON_ATTRIBUTES,
    tiny_id: 'number',
    start_datetime: 'datetime',
    end_datetime: 'datetime',
    layer: 'number',
    time_zone: 'string',
    repeat: 'boolean',
    frequency: 'number',
    frequency_unit: 'string',
    days_of_week: 'array',
    repeat_end_datetime: 'datetime',
    rotation: 'boolean',
    parent_id: 'string',
    schedule_ids: 'array',
    event_attendees: 'object',
    exceptions: 'object',
    meta: 'object',
  },
  search: ['time_zone'],
};

/** Reference attributes of the v4 list and the kind of id they hold (filters accept prefix ids). */
export const EVENT_REFERENCE_FILTERS = {
  id: 'event',
  parent_id: 'event',
  schedule_ids: 'schedule',
  'event_attendees.attendee_id': 'accountUser',
} as const;

export function eventToEarlier(record: EventRecord): z.input<typeof EventEarlier> {
  const id = prefixId('event', record.id);
  return {
    sid: prefixId('account', record.account_id),
    id,
    tinyId: record.tiny_id,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    meta: record.meta,
    schedule_id: record.schedule_ids.map((s) => prefixId('schedule', s)),
    attendees: record.event_attendees.map((a) => prefixId('user', a.user_id)),
    layer: record.layer,
    start: unixSeconds(Date.parse(record.start_datetime)),
    end: unixSeconds(Date.parse(record.end_datetime)),
    repeat: record.repeat,
    timezone: record.time_zone,
    dow: record.days_of_week,
    frequency: record.frequency,
    frequency_unit: record.frequency_unit,
    repeatend: record.repeat_end_datetime ? unixSeconds(Date.parse(record.repeat_end_datetime)) : null,
    rotation: record.rotation,
    parent_id: record.parent_id ? prefixId('event', record.parent_id) : null,
    exceptions: record.exceptions.map((e) => ({ start: unixSeconds(Date.parse(e.start_datetime)), event_id: id })),
  };
}

export const EARLIER_EVENT_REFERENCE_FILTERS = {
  id: 'event',
  parent_id: 'event',
  schedule_id: 'schedule',
  attendees: 'user',
} as const;

export const earlierEventListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    tinyId: 'number',
    schedule_id: 'array',
    attendees: 'array',
    layer: 'number',
    start: 'number',
    end: 'number',
    repeat: 'boolean',
    timezone: 'string',
    dow: 'array',
    frequency: 'number',
    frequency_unit: 'string',
    repeatend: 'number',
    rotation: 'boolean',
    parent_id: 'string',
    exceptions: 'object',
  },
  search: ['timezone'],
};
