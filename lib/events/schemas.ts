// Input schemas of events: the v4 fields (api-v4.md "Event", "Event operations") and the earlier
// interface's (api-earlier.md "Event"). Shapes only; zones, datetimes, cross-field rules and
// references are checked by lib/events/drafts.ts once the effective time zone is known.
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { boolish, idList, intish, metaInput } from '../http/fields';
import { FREQUENCY_UNITS } from './records';
import { instant, jsonObject, prefixIdOf, tinyId, ulid, unixSeconds } from '../http/response-fields';
import { documentNames } from '../http/document-names';

const text = lazySchema(() => z.string().trim().min(1));
const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string' || typeof value === 'number'
        ? [value]
        : value && typeof value === 'object' && !Array.isArray(value)
          ? Object.values(value)
          : value,
    z.array(item),
  );
const frequencyUnit = lazySchema(() => z.enum(FREQUENCY_UNITS as [string, ...string[]]));
const daysOfWeek = lazySchema(() => listOf(intish.pipe(z.number().int().min(0).max(6))));

export const v4CreateEventInput = lazyObject(() => ({
  start_datetime: text,
  end_datetime: text,
  layer: intish,
  time_zone: text,
  repeat: boolish.optional(),
  frequency: intish.nullable().optional(),
  frequency_unit: frequencyUnit.nullable().optional(),
  days_of_week: daysOfWeek.nullable().optional(),
  repeat_end_datetime: text.nullable().optional(),
  rotation: boolish.optional(),
  parent_id: text.nullable().optional(),
  schedule_ids: idList.optional(),
  account_user_ids: idList.pipe(z.array(z.string()).min(1)),
  meta: metaInput.optional(),
}));

// An update takes the same fields, each optional (only the fields sent change); parent_id is
// set by override only.
export const v4UpdateEventInput = lazySchema(() => v4CreateEventInput.omit({ parent_id: true }).partial());

export type V4CreateEventInput = z.infer<typeof v4CreateEventInput>;
export type V4UpdateEventInput = z.infer<typeof v4UpdateEventInput>;

/** Unix seconds as a number or a numeric string; an ISO datetime is read too (UTC without offset). */
const unixTime = lazySchema(() => z.union([z.number().finite(), text]));

const earlierException = lazyObject(() => ({ start: unixTime }));

export const earlierCreateEventInput = lazyObject(() => ({
  schedule_id: idList.pipe(z.array(z.string()).min(1)),
  attendees: idList.pipe(z.array(z.string()).min(1)),
  layer: intish,
  start: unixTime,
  end: unixTime,
  repeat: boolish.optional(),
  timezone: text.optional(),
  dow: daysOfWeek.nullable().optional(),
  frequency: intish.nullable().optional(),
  frequency_unit: frequencyUnit.nullable().optional(),
  repeatend: unixTime.nullable().optional(),
  rotation: boolish.optional(),
  exceptions: listOf(earlierException).optional(),
  meta: metaInput.optional(),
}));

export const earlierUpdateEventInput = lazySchema(() => earlierCreateEventInput.partial());

export type EarlierCreateEventInput = z.infer<typeof earlierCreateEventInput>;
export type EarlierUpdateEventInput = z.infer<typeof earlierUpdateEventInput>;

export const overrideInput = lazyObject(() => ({
  start_time: text,
  end_time: text,
  layer: intish,
  time_zone: text,
  account_user_ids: idList.pipe(z.array(z.string()).min(1)),
  action_time: text,
}));

export const actionTimeInput = lazyObject(() => ({ action_time: text }));

// ---- representations: what represent.ts returns, and the document shows ----

const shownFrequencyUnit = lazySchema(() => z.enum(FREQUENCY_UNITS as ['hourly', 'daily', 'weekly', 'monthly', 'yearly']));
const weekday = lazySchema(() => z.number().int().min(0).max(6));

export const EventV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('event'),
  account_id: ulid,
  tiny_id: tinyId,
  start_datetime: instant,
  end_datetime: instant,
  layer: z.number().int(),
  time_zone: z.string(),
  repeat: z.boolean(),
  frequency: z.number().int().nullable(),
  frequency_unit: shownFrequencyUnit.nullable(),
  days_of_week: z.array(weekday),
  repeat_end_datetime: instant.nullable(),
  rotation: z.boolean(),
  parent_id: ulid.nullable(),
  schedule_ids: z.array(ulid),
  event_attendees: z.array(
    z.strictObject({ id: ulid, attendee_id: ulid, attendee_type: z.literal('AccountUser'), position: z.number().int() }),
  ),
  exceptions: z.array(z.strictObject({ id: ulid, start_datetime: instant })),
  meta: jsonObject,
  created_at: instant,
  updated_at: instant,
}));

export const EventEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('event'),
  tinyId,
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  schedule_id: z.array(prefixIdOf('schedule')),
  attendees: z.array(prefixIdOf('user')),
  layer: z.number().int(),
  start: unixSeconds,
  end: unixSeconds,
  repeat: z.boolean(),
  timezone: z.string(),
  dow: z.array(weekday),
  frequency: z.number().int().nullable(),
  frequency_unit: shownFrequencyUnit.nullable(),
  repeatend: unixSeconds.nullable(),
  rotation: z.boolean(),
  parent_id: prefixIdOf('event').nullable(),
  exceptions: z.array(z.strictObject({ start: unixSeconds, event_id: prefixIdOf('event') })),
}));

export const TimeZoneNames = lazySchema(() => z.array(z.string()));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(v4CreateEventInput, { id: 'EventCreateInput' });
documentNames.add(v4UpdateEventInput, { id: 'EventUpdateInput' });
documentNames.add(overrideInput, { id: 'EventOverrideInput' });
documentNames.add(actionTimeInput, { id: 'EventActionTimeInput' });
documentNames.add(earlierCreateEventInput, { id: 'EventCreateEarlierInput' });
documentNames.add(earlierUpdateEventInput, { id: 'EventUpdateEarlierInput' });
documentNames.add(EventV4, { id: 'EventV4' });
documentNames.add(EventEarlier, { id: 'EventEarlier' });
documentNames.add(TimeZoneNames, { id: 'TimeZoneNames' });
