// Persists a checked draft as a new event, or over an existing one: reference checks, tiny id, the
// versioned write, and keeping override children in the schedules of their parent.
import { Conflict, Invalid } from '../http/errors';
import type { Principal } from '../http/principal';
import { resolveReferences, type ReferenceCheck } from '../http/references';
import { newId } from '../ids';
import { done, updateWithRetry } from '../store/retry';
import { requireScheduleEditor } from '../teams/team-admins';
import { checkDraft, checkExceptions, recordFromDraft, type EventDraft, type EventFieldNames } from './drafts';
import type { EventRecord } from './records';
import { getEvent, insertEvent, listChildEvents, nextEventTinyId, saveEvent } from './store';
import { nowIso } from '../clock';

async function checkReferences(principal: Principal, draft: EventDraft, names: EventFieldNames, previous?: EventRecord): Promise<void> {
  const unchangedSchedules =
    previous &&
    previous.schedule_ids.length === draft.schedule_ids.length &&
    previous.schedule_ids.every((id) => draft.schedule_ids.includes(id));
  const checks: ReferenceCheck[] = [];
  if (!unchangedSchedules) {
    checks.push({ field: names.scheduleIds, kind: 'schedule', ids: draft.schedule_ids });
  }
  if (draft.parent_id && draft.parent_id !== previous?.parent_id) {
    checks.push({ field: names.parentId, kind: 'event', ids: [draft.parent_id] });
  }
  if (checks.length > 0) await resolveReferences(principal.accountId, checks);
}

export async function createEvent(principal: Principal, draft: EventDraft, names: EventFieldNames): Promise<EventRecord> {
  const messages = checkDraft(draft, names);
  if (messages.length > 0) throw new Invalid(messages);
  await checkReferences(principal, draft, names);
  await requireScheduleEditor(principal, draft.schedule_ids, 'create events in this schedule');
  const now = nowIso();
  const record = recordFromDraft(draft, {
    id: newId(),
    account_id: principal.accountId,
    tiny_id: await nextEventTinyId(principal.accountId),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const exceptionMessages = checkExceptions(record, names);
  if (exceptionMessages.length > 0) throw new Invalid(exceptionMessages);
  await insertEvent(record);
  return record;
}

/** Writes `draft` over `current`; the caller has checked that the principal may edit `current`. */
export async function updateEvent(
  principal: Principal,
  current: EventRecord,
  draft: EventDraft,
  names: EventFieldNames,
  options: { checkExceptions?: boolean } = {},
): Promise<EventRecord> {
  const messages = checkDraft(draft, names);
  if (messages.length > 0) throw new Invalid(messages);
  await checkReferences(principal, draft, names, current);
  await requireScheduleEditor(principal, draft.schedule_ids, 'move events to this schedule');
  const next = recordFromDraft(
    draft,
    {
      id: current.id,
      account_id: current.account_id,
      tiny_id: current.tiny_id,
      version: current.version + 1,
      created_at: current.created_at,
      updated_at: nowIso(),
    },
    current,
  );
  if (options.checkExceptions) {
    const exceptionMessages = checkExceptions(next, names);
    if (exceptionMessages.length > 0) throw new Invalid(exceptionMessages);
  }
  if (!(await saveEvent(next, current))) throw new Conflict('the event was changed by another request; reload and try again');
  const moved = next.schedule_ids.join() !== current.schedule_ids.join();
  if (moved) await followParentSchedules(next, current.schedule_ids);
  return next;
}

/** Override children live in their parent's schedules: that is where they cut its occurrences. */
async function followParentSchedules(parent: EventRecord, previousScheduleIds: readonly string[]): Promise<void> {
  const children = await listChildEvents(parent.account_id, parent.id, previousScheduleIds);
  await Promise.all(
    children.map((child) =>
      updateWithRetry<EventRecord, void>({
        attempts: 5,
        load: () => getEvent(parent.account_id, child.id),
        edit: (stored) => {
          if (!stored || stored.parent_id !== parent.id) return done();
          if (stored.schedule_ids.join() === parent.schedule_ids.join()) return done();
          return { ...stored, schedule_ids: [...parent.schedule_ids], version: stored.version + 1, updated_at: nowIso() };
        },
        save: (next, stored) => saveEvent(next, stored),
        saved: (next, stored) => followParentSchedules(next, stored.schedule_ids),
        exhausted: () => undefined,
      }),
    ),
  );
}
