// POST /api/v4/events/:id/override (api-v4.md "Event operations", docs/api.md#overrides-and-exceptions): an override child
// puts the given attendees on the given layer for the given span, cutting the parent's occurrence
// that starts at action_time (one that starts no occurrence is a 422).
import { Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseInput } from '../http/validate';
import { findOccurrenceStartingAt } from '../oncall/recurrence';
import { requireScheduleEditor } from '../teams/team-admins';
import { attendeesFromAccountUserIds } from './attendees';
import { parseDateTimeIn } from '../oncall/datetime-inputs';
import { newDraft, V4_FIELDS, type EventFieldNames } from './drafts';
import { instantOrMessage, noOccurrence, zoneOrMessage } from './event-inputs';
import { findEvent } from './read-events';
import { ianaZoneOf, toOncallEvent, type EventRecord } from './records';
import { overrideInput } from './schemas';
import { createEvent } from './write-event';

const OVERRIDE_FIELDS: EventFieldNames = { ...V4_FIELDS, start: 'start_time', end: 'end_time' };

/** Creates the override child: the given attendees on the given layer for the given span. */
export async function overrideEvent(principal: Principal, rawId: string, body: Record<string, unknown>): Promise<EventRecord> {
  const parent = await findEvent(principal, rawId);
  await requireScheduleEditor(principal, parent.schedule_ids, 'override this event');
  const input = parseInput(overrideInput, body);
  const messages: string[] = [];
  const zone = zoneOrMessage(input.time_zone, 'time_zone', messages);
  const start = zone ? instantOrMessage(input.start_time, zone, 'start_time', messages) : null;
  const end = zone ? instantOrMessage(input.end_time, zone, 'end_time', messages) : null;
  const actionTime = parseDateTimeIn(input.action_time, ianaZoneOf(parent));
  if (actionTime === null) messages.push('action_time must be an ISO 8601 datetime (e.g. 2026-03-29T09:00:00+02:00)');
  const attendees = await attendeesFromAccountUserIds(principal.accountId, 'account_user_ids', input.account_user_ids, messages);
  if (messages.length > 0) throw new Invalid(messages);
  if (!findOccurrenceStartingAt(toOncallEvent(parent), actionTime!)) throw noOccurrence(actionTime!);

  const draft = newDraft(
    { layer: input.layer },
    {
      start: start!,
      end: end!,
      time_zone: input.time_zone,
      repeat_end: null,
      parent_id: parent.id,
      schedule_ids: [...parent.schedule_ids],
      attendees,
      exceptions: [],
    },
  );
  return createEvent(principal, draft, OVERRIDE_FIELDS);
}
