// Input schemas of schedules (api-v4.md "Schedule").
import * as z from 'zod';
import { lazyObject, lazySchema, lazyStrictObject } from '../lazy-schema';
import { metaInput, requiredText } from '../http/fields';
import { instant, jsonObject, prefixIdOf, tinyId, ulid } from '../http/response-fields';
import { documentNames } from '../http/document-names';

export const createScheduleInput = lazyObject(() => ({ name: requiredText, meta: metaInput.optional() }));
export const updateScheduleInput = lazyObject(() => ({ name: requiredText.optional(), meta: metaInput.optional() }));

// ---- representations: what represent.ts returns, and the document shows ----

export const ScheduleV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('schedule'),
  account_id: ulid,
  tiny_id: tinyId,
  name: z.string(),
  meta: jsonObject,
  created_at: instant,
  updated_at: instant,
}));

/** One on-call span (current_oncall, window_events): its real bounds, not clipped to the window. */
export const OncallEntry = lazyStrictObject(() => ({
  event_id: ulid,
  layer: z.number().int(),
  start_time: instant,
  end_time: instant,
  attendees: z.array(
    z.strictObject({
      attendee_id: ulid,
      attendee_type: z.literal('AccountUser'),
      position: z.number().int(),
      /** The account user's name and primary e-mail (null when the account user is gone). */
      name: z.string().nullable(),
      email: z.string().nullable(),
    }),
  ),
}));

export const OncallEntries = lazySchema(() => z.array(OncallEntry));

const Interval = lazyStrictObject(() => ({ start: instant, end: instant }));

/** GET /api/v4/schedules/:id/coverage (contract §14): gaps per layer and each person's time, in a window. */
export const ScheduleCoverageV4 = lazyStrictObject(() => ({
  start: instant,
  end: instant,
  layers: z.array(
    z.strictObject({
      layer: z.number().int(),
      /** Maximal intervals of the window in which this layer has nobody on call. */
      gaps: z.array(Interval),
      covered_seconds: z.number(),
    }),
  ),
  people: z.array(
    z.strictObject({
      account_user_id: ulid,
      layer: z.number().int(),
      /** On call on that layer within the window (another person at the same time does not halve it). */
      seconds: z.number(),
      /** Their spans that overlap the window, each counted whole. */
      spans: z.number().int(),
    }),
  ),
}));

/** GET /api/v4/schedules/:id/fairness: how a window's on-call time is shared out (docs/api.md#fairness). */
export const ScheduleFairnessV4 = lazyStrictObject(() => ({
  start: instant,
  end: instant,
  people: z.array(
    z.strictObject({
      account_user_id: ulid,
      layer: z.number().int(),
      /** The IANA zone their nights and weekends were counted in: their profile's, else UTC. */
      time_zone: z.string(),
      /** On call on that layer within the window, as coverage counts it. */
      seconds: z.number(),
      /** The part of it between 22:00 and 07:00 on their own clock. */
      night_seconds: z.number(),
      /** The part of it on their own Saturday or Sunday. */
      weekend_seconds: z.number(),
      spans: z.number().int(),
    }),
  ),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(createScheduleInput, { id: 'ScheduleCreateInput' });
documentNames.add(updateScheduleInput, { id: 'ScheduleUpdateInput' });
documentNames.add(ScheduleV4, { id: 'ScheduleV4' });
documentNames.add(OncallEntries, { id: 'OncallEntries' });
documentNames.add(Interval, { id: 'CoverageInterval' });
documentNames.add(ScheduleCoverageV4, { id: 'ScheduleCoverageV4' });
documentNames.add(ScheduleFairnessV4, { id: 'ScheduleFairnessV4' });

/** How current_oncall and window_events describe their entries (the routes of teams and schedules). */
export const ONCALL_ENTRIES =
  'One entry per on-call span (an event occurrence, or the piece of one an override leaves, or an override), with its real bounds.';
