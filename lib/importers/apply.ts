// Snapshot → our objects, through the same use cases the API runs (so the audit trail records each
// write as the importing admin's). One pass both plans and writes: with `dryRun` every write is
// skipped and the plan says what it would have done. What each source object became is kept in the
// mapping (mapping-store.ts), so a second run updates those objects and makes no duplicates.
//
// The shape here differs from the sources': a team has one schedule and one escalation policy, and
// an escalation policy's layer N pages whoever the team's schedule has on call on layer N. So a
// source schedule becomes a schedule of its own with its people on layer 1 (what the proof
// compares), and a source escalation policy becomes a policy plus a schedule holding its steps'
// people, step N on layer N (copies of the targeted schedules' events, or people always on call).
import { provisionAccountUser } from '../account-users/provision-account-user';
import { getAccountUserOfUser, getAccountUsers, getUserIdByEmail } from '../account-users/store';
import { createEscalationPolicy } from '../escalation-policies/create-escalation-policy';
import { getEscalationPolicy } from '../escalation-policies/store';
import { updateEscalationPolicy } from '../escalation-policies/update-escalation-policy';
import { deleteEvent } from '../events/delete-event';
import { newDraft, V4_FIELDS, type EventDraft } from '../events/drafts';
import type { EventRecord } from '../events/records';
import { getEvent } from '../events/store';
import { createEvent, updateEvent } from '../events/write-event';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { newId, prefixId } from '../ids';
import { createIntegrationV4 } from '../integrations/create-integration';
import { inboundUrlOf } from '../integrations/represent';
import { carrySenderKey } from '../integrations/sender-keys';
import { getIntegration } from '../integrations/store';
import { updateIntegrationV4 } from '../integrations/update-integration';
import { DAY_MS } from '../oncall/civil-calendar';
import { resolveTimeZone } from '../oncall/time-zones';
import { createSchedule } from '../schedules/create-schedule';
import { getSchedule } from '../schedules/store';
import { updateSchedule } from '../schedules/update-schedule';
import { createTeam } from '../teams/create-team';
import { getTeam } from '../teams/store';
import { updateTeam } from '../teams/update-team';
import { readMappings, saveMapping, type ImportMapping, type MappedKind } from './mapping-store';
import type { Snapshot, SourceEscalationPolicy, SourceIntegration, SourceName, SourceSchedule, UnsupportedItem } from './source-model';
import { translateSchedule, type EventSpec } from './translate-schedule';

export type PlanAction = 'create' | 'update' | 'keep' | 'delete' | 'link';

export interface PlanEntry {
  action: PlanAction;
  kind: MappedKind | 'event';
  sourceId: string;
  name: string;
  /** Our id (null in a dry run for what would be created). */
  ourId: string | null;
  detail?: string;
}

export interface IntegrationAddress {
  name: string;
  oldAddress: string | null;
  newAddress: string | null;
}

export interface ImportedSchedule {
  sourceId: string;
  name: string;
  /** Our schedule holding the source schedule's people on layer 1; null in a dry run when it is new. */
  scheduleId: string | null;
  /** The events made from it, by key (the proof checks exactly these). */
  eventIds: string[];
}

export interface ImportResult {
  source: SourceName;
  dryRun: boolean;
  plan: PlanEntry[];
  unsupported: UnsupportedItem[];
  integrations: IntegrationAddress[];
  schedules: ImportedSchedule[];
  /** Source user id → our account user id (placeholders in a dry run for people to be made). */
  people: Record<string, string>;
}

export interface ApplyOptions {
  dryRun: boolean;
  /** Where senders reach this service (for the integrations' new addresses); null: paths only. */
  baseUrl: string | null;
  /** Where a schedule too complex to repeat here starts as explicit shifts (default: the snapshot's time). */
  shiftsFrom?: number;
}

/** Our integration type for a source's integration type name (lower case), when there is one. */
const INTEGRATION_TYPES: Record<string, string> = {
  api: 'webhook',
  'rest api': 'webhook',
  webhook: 'webhook',
  prometheus: 'prometheus',
  alertmanager: 'prometheus',
  grafana: 'grafana',
  grafana_alerting: 'grafana',
  datadog: 'datadog',
  amazoncloudwatch: 'aws_cloudwatch',
  cloudwatch: 'aws_cloudwatch',
  aws_cloudwatch: 'aws_cloudwatch',
  events_api_v2_inbound_integration: 'pagerduty_events_v2',
  generic_events_api_inbound_integration: 'pagerduty_events_v2',
  uptimerobot: 'uptime_robot',
  uptime_robot: 'uptime_robot',
  healthchecks: 'healthchecks',
};

interface Person {
  accountUserId: string;
  userId: string;
}

class Run {
  readonly plan: PlanEntry[] = [];
  readonly unsupported: UnsupportedItem[];
  readonly integrations: IntegrationAddress[] = [];
  readonly schedules: ImportedSchedule[] = [];
  readonly people = new Map<string, Person>();
  readonly teams = new Map<string, string>();
  readonly ourSchedules = new Map<string, string>();
  private mappings = new Map<string, ImportMapping>();

  constructor(
    readonly principal: Principal,
    readonly snapshot: Snapshot,
    readonly options: ApplyOptions,
  ) {
    this.unsupported = [...snapshot.unsupported];
  }

  get accountId() {
    return this.principal.accountId;
  }

  async load(): Promise<void> {
    this.mappings = await readMappings(this.accountId, this.snapshot.source);
  }

  mapping(kind: MappedKind, sourceId: string): ImportMapping | undefined {
    return this.mappings.get(`${kind}#${sourceId}`);
  }

  note(item: UnsupportedItem): void {
    this.unsupported.push(item);
  }

  record(entry: PlanEntry): void {
    this.plan.push(entry);
  }

  async remember(
    kind: MappedKind,
    sourceId: string,
    name: string,
    ourId: string | null,
    parts: Record<string, string> = {},
  ): Promise<void> {
    if (this.options.dryRun || ourId === null) return;
    const mapping = { source: this.snapshot.source, kind, source_id: sourceId, our_id: ourId, name, parts };
    await saveMapping(this.accountId, mapping);
    this.mappings.set(`${kind}#${sourceId}`, { ...mapping, updated_at: '' });
  }

  /** Runs `write` unless this is a dry run. */
  async write<T>(write: () => Promise<T>): Promise<T | null> {
    return this.options.dryRun ? null : write();
  }
}

async function exists<T>(read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

/**
 * The object made for a source object: kept when it already matches, updated when it differs,
 * created when there is none (nothing written in a dry run); the plan says which. Returns our id.
 */
async function keepUpdateOrCreate<T extends { id: string }>(
  run: Run,
  entry: { kind: MappedKind; sourceId: string; name: string; detail?: string },
  current: T | null,
  ways: { same: (current: T) => boolean; update: (current: T) => Promise<unknown>; create: () => Promise<T> },
): Promise<string | null> {
  if (current) {
    const same = ways.same(current);
    if (!same) await run.write(() => ways.update(current));
    run.record({ ...entry, action: same ? 'keep' : 'update', ourId: current.id });
    return current.id;
  }
  const created = await run.write(ways.create);
  run.record({ ...entry, action: 'create', ourId: created?.id ?? null });
  return created?.id ?? null;
}

// ── people and teams ─────────────────────────────────────────────────────────────────────────

async function importUsers(run: Run): Promise<void> {
  for (const user of run.snapshot.users) {
    const mapped = run.mapping('user', user.sourceId);
    const known = mapped ? (await getAccountUsers(run.accountId, [mapped.our_id]))[0] : undefined;
    if (known) {
      run.people.set(user.sourceId, { accountUserId: known.id, userId: known.user_id });
      run.record({ action: 'keep', kind: 'user', sourceId: user.sourceId, name: user.name, ourId: known.id });
      continue;
    }
    const email = user.emails[0];
    if (!email) {
      run.note({ kind: 'user', sourceId: user.sourceId, name: user.name, reason: 'no e-mail address: a person here signs in with one' });
      continue;
    }
    if (user.role === 'observer') {
      run.note({
        kind: 'user',
        sourceId: user.sourceId,
        name: user.name,
        reason: `role ${user.sourceRole ?? 'observer'} (look only) has no equivalent: imported as a responder without admin rights`,
      });
    }
    const holder = await getUserIdByEmail(email.toLowerCase());
    const existing = holder ? await getAccountUserOfUser(holder, run.accountId) : null;
    const created = await run.write(() =>
      provisionAccountUser(run.accountId, {
        email,
        name: user.name,
        roles: { admin: user.role === 'owner' || user.role === 'admin', billing: false, broadcaster: false, communicator: false },
        otherEmails: user.emails.slice(1),
        phones: user.phones.map((phone, index) => ({
          id: newId(),
          phone: phone.number,
          primary: index === 0,
          country: null,
          blocked: false,
        })),
        ...(user.timeZone && resolveTimeZone(user.timeZone) ? { timeZone: user.timeZone } : {}),
      }),
    );
    const record = created ?? existing;
    if (record) run.people.set(user.sourceId, { accountUserId: record.id, userId: record.user_id });
    else run.people.set(user.sourceId, { accountUserId: `(new ${email})`, userId: '' });
    run.record({
      action: existing ? 'link' : 'create',
      kind: 'user',
      sourceId: user.sourceId,
      name: `${user.name} <${email}>`,
      ourId: record?.id ?? null,
      ...(existing ? { detail: 'already in the account' } : {}),
    });
    await run.remember('user', user.sourceId, user.name, record?.id ?? null);
  }
}

function peopleOf(run: Run, sourceIds: readonly string[]): string[] {
  return [...new Set(sourceIds.map((id) => run.people.get(id)?.accountUserId).filter((id): id is string => id !== undefined))];
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

async function importTeams(run: Run): Promise<void> {
  for (const team of run.snapshot.teams) {
    let admins = peopleOf(run, team.adminSourceIds);
    if (admins.length === 0) {
      admins = [run.principal.accountUserId];
      run.note({
        kind: 'team',
        sourceId: team.sourceId,
        name: team.name,
        reason: 'no team admin there; a team here needs one: the importing admin is its admin',
      });
    }
    const members = peopleOf(run, team.memberSourceIds);
    const fields = { name: team.name, member_account_user_ids: members.length > 0 ? members : admins, admin_account_user_ids: admins };
    const mapped = run.mapping('team', team.sourceId);
    const current = mapped ? await getTeam(run.accountId, mapped.our_id) : null;
    const ourId = await keepUpdateOrCreate(run, { kind: 'team', sourceId: team.sourceId, name: team.name }, current, {
      same: (c) =>
        c.name === fields.name &&
        sameSet(c.member_account_user_ids, fields.member_account_user_ids) &&
        sameSet(c.admin_account_user_ids, fields.admin_account_user_ids),
      update: (c) => updateTeam(run.principal, c.id, fields),
      create: () => createTeam(run.principal, fields),
    });
    if (ourId) run.teams.set(team.sourceId, ourId);
    if (!current) await run.remember('team', team.sourceId, team.name, ourId);
  }
}

// ── events ─────────────────────────────────────────────────────────────────────────────────

function draftOfSpec(run: Run, spec: EventSpec, scheduleId: string, parentId: string | null): EventDraft | null {
  const attendees = spec.userSourceIds
    .map((id) => run.people.get(id))
    // A dry run's new people have no ids yet: their events are planned (and proven) all the same.
    .filter((person): person is Person => person !== undefined && (person.userId !== '' || run.options.dryRun))
    .map((person) => ({ attendee_id: person.accountUserId, user_id: person.userId }));
  if (attendees.length === 0 || attendees.length < spec.userSourceIds.length) return null;
  return newDraft(
    {
      layer: spec.layer,
      repeat: spec.repeat !== null,
      frequency: spec.repeat?.frequency ?? null,
      frequency_unit: spec.repeat?.unit ?? null,
      rotation: spec.rotation,
      meta: { imported_from: run.snapshot.source, import_key: spec.key },
    },
    {
      start: spec.start,
      end: spec.end,
      time_zone: spec.timeZone,
      repeat_end: spec.repeat?.until ?? null,
      parent_id: parentId,
      schedule_ids: [scheduleId],
      attendees,
      exceptions: [],
    },
  );
}

function sameEvent(record: EventRecord, draft: EventDraft): boolean {
  return (
    Date.parse(record.start_datetime) === draft.start &&
    Date.parse(record.end_datetime) === draft.end &&
    record.layer === draft.layer &&
    record.time_zone === draft.time_zone &&
    record.repeat === draft.repeat &&
    (record.frequency ?? null) === (draft.frequency ?? null) &&
    (record.frequency_unit ?? null) === (draft.frequency_unit ?? null) &&
    (record.repeat_end_datetime ? Date.parse(record.repeat_end_datetime) : null) === draft.repeat_end &&
    record.rotation === draft.rotation &&
    record.parent_id === draft.parent_id &&
    record.schedule_ids.join() === draft.schedule_ids.join() &&
    record.event_attendees.map((a) => a.attendee_id).join() === draft.attendees.map((a) => a.attendee_id).join() &&
    record.exceptions.length === 0
  );
}

interface EventSync {
  parts: Record<string, string>;
  counts: Record<'create' | 'update' | 'keep' | 'delete', number>;
}

/** Makes the schedule's imported events exactly `specs`: keeps equal ones, updates changed ones, deletes the rest. */
async function syncEvents(
  run: Run,
  scheduleId: string | null,
  specs: EventSpec[],
  previous: Record<string, string>,
  owner: string,
): Promise<EventSync> {
  const counts = { create: 0, update: 0, keep: 0, delete: 0 };
  const parts: Record<string, string> = {};
  const wanted = new Set(specs.map((spec) => spec.key));
  // Stale events go first: a parent that goes takes its override children along.
  for (const [key, id] of Object.entries(previous)) {
    if (wanted.has(key)) continue;
    counts.delete++;
    await run.write(() => exists(() => deleteEvent(run.principal, id)));
  }
  for (const spec of specs) {
    const parentId = spec.parentKey ? (parts[spec.parentKey] ?? null) : null;
    if (spec.parentKey && parentId === null && scheduleId !== null) continue;
    const draft = draftOfSpec(run, spec, scheduleId ?? '', parentId);
    if (!draft) {
      run.note({ kind: 'schedule', sourceId: owner, name: spec.key, reason: 'an event names people who were not imported: left out' });
      continue;
    }
    const currentId = previous[spec.key];
    const current = currentId && scheduleId ? await getEvent(run.accountId, currentId) : null;
    if (current && sameEvent(current, draft)) {
      counts.keep++;
      parts[spec.key] = current.id;
    } else if (current) {
      counts.update++;
      const saved = await run.write(() => updateEvent(run.principal, current, draft, V4_FIELDS));
      parts[spec.key] = saved?.id ?? current.id;
    } else {
      counts.create++;
      const created = scheduleId ? await run.write(() => createEvent(run.principal, draft, V4_FIELDS)) : null;
      parts[spec.key] = created?.id ?? `(new ${spec.key})`;
    }
  }
  return { parts, counts };
}

function eventEntry(run: Run, sourceId: string, name: string, scheduleId: string | null, sync: EventSync): void {
  const { create, update, keep, delete: removed } = sync.counts;
  const action: PlanAction = create + update + removed === 0 ? 'keep' : 'update';
  run.record({
    action,
    kind: 'event',
    sourceId,
    name,
    ourId: scheduleId,
    detail: `events: ${create} to create, ${update} to update, ${removed} to delete, ${keep} unchanged`,
  });
}

const translateOptions = (run: Run) => ({ shiftsFrom: run.options.shiftsFrom ?? Date.parse(run.snapshot.readAt) });

// ── schedules ──────────────────────────────────────────────────────────────────────────────

/** Our schedule for a mapping, created or renamed as needed. */
async function scheduleFor(
  run: Run,
  kind: MappedKind,
  sourceId: string,
  name: string,
  planName: string,
): Promise<{ id: string | null; parts: Record<string, string> }> {
  const mapped = run.mapping(kind, sourceId);
  const scheduleId = kind === 'schedule' ? mapped?.our_id : mapped?.parts['@schedule'];
  const current = scheduleId ? await getSchedule(run.accountId, scheduleId) : null;
  if (current) {
    const same = current.name === name;
    if (!same) await run.write(() => updateSchedule(run.principal, current.id, { name }));
    if (kind === 'schedule')
      run.record({ action: same ? 'keep' : 'update', kind: 'schedule', sourceId, name: planName, ourId: current.id });
    return { id: current.id, parts: mapped?.parts ?? {} };
  }
  const created = await run.write(() => createSchedule(run.principal, { name }));
  if (kind === 'schedule') run.record({ action: 'create', kind: 'schedule', sourceId, name: planName, ourId: created?.id ?? null });
  return { id: created?.id ?? null, parts: {} };
}

async function importSchedule(run: Run, schedule: SourceSchedule): Promise<void> {
  const { id, parts } = await scheduleFor(run, 'schedule', schedule.sourceId, schedule.name, schedule.name);
  if (id) run.ourSchedules.set(schedule.sourceId, id);
  if (!schedule.enabled) {
    run.note({
      kind: 'schedule',
      sourceId: schedule.sourceId,
      name: schedule.name,
      reason: 'disabled there; a schedule here has no such switch: imported as it is',
    });
  }
  const translated = translateSchedule(schedule, 1, '', translateOptions(run));
  translated.unsupported.forEach((item) => run.note(item));
  const sync = await syncEvents(run, id, translated.events, parts, schedule.sourceId);
  eventEntry(run, schedule.sourceId, schedule.name, id, sync);
  run.schedules.push({ sourceId: schedule.sourceId, name: schedule.name, scheduleId: id, eventIds: Object.values(sync.parts) });
  await run.remember('schedule', schedule.sourceId, schedule.name, id, sync.parts);
}

// ── escalation policies ────────────────────────────────────────────────────────────────────

/** An event putting people on call around the clock on `layer`, from the day of the import on. */
function alwaysOn(run: Run, key: string, layer: number, userSourceIds: string[]): EventSpec {
  const day = Math.floor(Date.parse(run.snapshot.readAt) / DAY_MS) * DAY_MS;
  return {
    key,
    layer,
    start: day,
    end: day + DAY_MS,
    timeZone: 'UTC',
    repeat: { unit: 'daily', frequency: 1, until: null },
    rotation: false,
    userSourceIds,
  };
}

function policyLayers(run: Run, policy: SourceEscalationPolicy): { specs: EventSpec[]; timeouts: number[]; reassignTeams: string[] } {
  const specs: EventSpec[] = [];
  const timeouts: number[] = [];
  const reassignTeams: string[] = [];
  const note = (reason: string) => run.note({ kind: 'escalation-policy', sourceId: policy.sourceId, name: policy.name, reason });
  const teams = new Map(run.snapshot.teams.map((team) => [team.sourceId, team]));
  const schedules = new Map(run.snapshot.schedules.map((schedule) => [schedule.sourceId, schedule]));
  if ((policy.steps[0]?.atMinute ?? 0) > 0) {
    note(`its first step waits ${policy.steps[0].atMinute} minutes; here layer 1 is paged at once`);
  }
  policy.steps.forEach((step, index) => {
    const layer = index + 1;
    const next = policy.steps[index + 1];
    timeouts.push(next ? Math.max(1, next.atMinute - step.atMinute) : Math.max(1, policy.repeat.afterMinutes ?? 5));
    if (step.condition === 'if-not-closed')
      note(`step ${layer} runs until the alert is closed there; here a layer stops at the acknowledgement`);
    step.targets.forEach((target, t) => {
      const key = `step${layer}/${t}/`;
      if (target.kind === 'user') specs.push(alwaysOn(run, `${key}user`, layer, [target.userSourceId]));
      else if (target.kind === 'schedule') {
        const schedule = schedules.get(target.scheduleSourceId);
        if (!schedule) return note(`step ${layer} names a schedule that was not read (${target.scheduleSourceId})`);
        if (target.who !== 'on-call')
          note(`step ${layer} pages the ${target.who} person of ${schedule.name}; here it pages who is on call`);
        specs.push(...translateSchedule(schedule, layer, key, translateOptions(run)).events);
      } else if (target.kind === 'team') {
        const team = teams.get(target.teamSourceId);
        if (!team) return note(`step ${layer} names a team that was not read (${target.teamSourceId})`);
        if (target.who === 'escalation') {
          reassignTeams.push(target.teamSourceId);
          if (next)
            note(
              `step ${layer} hands the alert to team ${team.name}'s escalation; here that happens after the last layer (reassign_team_ids)`,
            );
        } else {
          const people = target.who === 'admins' ? team.adminSourceIds : team.memberSourceIds;
          if (people.length > 0) specs.push(alwaysOn(run, `${key}team`, layer, people));
        }
      } else {
        note(`step ${layer} runs another escalation policy (${target.policySourceId}); here a layer pages people`);
      }
    });
  });
  if (policy.repeat.times > 3) note(`repeats ${policy.repeat.times} times; here at most 3`);
  return { specs, timeouts, reassignTeams };
}

async function importPolicy(run: Run, policy: SourceEscalationPolicy, claimed: Set<string>): Promise<void> {
  if (policy.steps.length === 0) {
    run.note({ kind: 'escalation-policy', sourceId: policy.sourceId, name: policy.name, reason: 'no steps: a policy here needs a layer' });
    return;
  }
  const { specs, timeouts, reassignTeams } = policyLayers(run, policy);
  const ownerTeamId = policy.teamSourceId ? run.teams.get(policy.teamSourceId) : undefined;
  const fields = {
    name: policy.name,
    repeat: Math.min(3, policy.repeat.times),
    escalation_layers: timeouts.map((timeout, i) => ({ layer: i + 1, timeout, timeout_unit: 'minutes' })),
    reassign_team_ids: reassignTeams.map((id) => run.teams.get(id)).filter((id): id is string => id !== undefined),
  };
  const mapped = run.mapping('escalation-policy', policy.sourceId);
  let current = mapped ? await getEscalationPolicy(run.accountId, mapped.our_id) : null;
  let scheduleId: string | null = mapped?.parts['@schedule'] ?? null;
  let parts = mapped?.parts ?? {};
  // A team made by this import comes with a policy and a schedule of its own: its first policy uses them.
  const team = ownerTeamId && !claimed.has(ownerTeamId) ? await getTeam(run.accountId, ownerTeamId) : null;
  if (!current && team?.escalation_policy_id && team.schedule_id && run.mapping('team', policy.teamSourceId!)) {
    current = await getEscalationPolicy(run.accountId, team.escalation_policy_id);
    scheduleId = current ? team.schedule_id : null;
    parts = {};
  }
  if (ownerTeamId) claimed.add(ownerTeamId);
  const layersOf = (layers: { layer: number; timeout: number; timeout_unit: string }[]) =>
    layers.map((l) => `${l.layer}:${l.timeout}:${l.timeout_unit}`).join();
  const policyId = await keepUpdateOrCreate(run, { kind: 'escalation-policy', sourceId: policy.sourceId, name: policy.name }, current, {
    same: (c) =>
      c.name === fields.name &&
      c.repeat === fields.repeat &&
      sameSet(c.reassign_team_ids, fields.reassign_team_ids) &&
      layersOf(c.escalation_layers) === layersOf(fields.escalation_layers),
    update: (c) => updateEscalationPolicy(run.principal, c.id, fields),
    create: () => createEscalationPolicy(run.principal, fields),
  });
  const stored = scheduleId ? await getSchedule(run.accountId, scheduleId) : null;
  if (!stored) {
    const made = await run.write(() => createSchedule(run.principal, { name: `${policy.name} layers` }));
    scheduleId = made?.id ?? null;
    parts = {};
  }
  const { '@schedule': _schedule, ...eventParts } = parts;
  const sync = await syncEvents(run, scheduleId, specs, eventParts, policy.sourceId);
  eventEntry(run, policy.sourceId, `${policy.name} (its layers' people)`, scheduleId, sync);
  if (team && policyId && scheduleId && (team.escalation_policy_id !== policyId || team.schedule_id !== scheduleId)) {
    await run.write(() => updateTeam(run.principal, team.id, { escalation_policy_id: policyId, schedule_id: scheduleId }));
    run.record({
      action: 'update',
      kind: 'team',
      sourceId: policy.teamSourceId!,
      name: team.name,
      ourId: team.id,
      detail: `uses ${policy.name}`,
    });
  } else if (policy.teamSourceId && ownerTeamId && !team) {
    run.note({
      kind: 'escalation-policy',
      sourceId: policy.sourceId,
      name: policy.name,
      reason: 'its team already uses another imported policy: imported, not attached to the team',
    });
  }
  await run.remember(
    'escalation-policy',
    policy.sourceId,
    policy.name,
    policyId,
    scheduleId ? { ...sync.parts, '@schedule': scheduleId } : sync.parts,
  );
}

/**
 * Where senders reach our integration: its inbound URL; a sender that held a key to the source's
 * own API changes that API's URL to ours and puts in our integration's id (our drop-ins of the
 * sources' sending APIs take any integration's id as the key, docs/api.md).
 */
function newAddressOf(run: Run, ourId: string, kind: SourceIntegration['addressKind'], keyCarried: boolean): string {
  const base = run.options.baseUrl ?? '';
  const url = inboundUrlOf({ id: ourId }, base);
  const key = keyCarried ? 'the same key' : prefixId('integration', ourId);
  const dropIns: Partial<Record<SourceName, string>> = {
    opsgenie: `${base}/v2/alerts with GenieKey ${key}`,
    pagerduty: `${base}/v2/enqueue with routing_key ${key}`,
  };
  const dropIn = dropIns[run.snapshot.source];
  return kind === 'key' && dropIn ? `${dropIn} (or ${url})` : url;
}

/** Opsgenie's integrations whose senders call its Alert API with their key: our Opsgenie drop-in's type. */
const OPSGENIE_ALERT_API_TYPES = new Set(['api', 'rest api', 'prometheus', 'alertmanager', 'grafana']);

/** Makes the key the source's senders hold name our integration too (a re-run points it again); false when it cannot. */
async function carryKey(run: Run, integration: SourceIntegration, ourId: string | null): Promise<boolean> {
  if (!integration.senderKey || !ourId || run.options.dryRun) return false;
  const record = await getIntegration(run.accountId, ourId);
  if (record && (await carrySenderKey(record, integration.senderKey, run.snapshot.source))) return true;
  run.note({
    kind: 'integration',
    sourceId: integration.sourceId,
    name: integration.name,
    reason: "its senders' key already names an integration of another account here: they must change to the new key",
  });
  return false;
}

// ── integrations ───────────────────────────────────────────────────────────────────────────

async function importIntegrations(run: Run): Promise<void> {
  for (const integration of run.snapshot.integrations) {
    const slug =
      run.snapshot.source === 'opsgenie' &&
      integration.addressKind === 'key' &&
      OPSGENIE_ALERT_API_TYPES.has(integration.type.toLowerCase())
        ? 'opsgenie'
        : INTEGRATION_TYPES[integration.type.toLowerCase()];
    if (!slug) {
      run.note({
        kind: 'integration',
        sourceId: integration.sourceId,
        name: integration.name,
        reason: `type ${integration.type} has no equivalent here`,
      });
      continue;
    }
    const teamId = integration.teamSourceId ? run.teams.get(integration.teamSourceId) : undefined;
    const fields = {
      name: integration.name,
      enabled: integration.enabled,
      team_ids: teamId ? [teamId] : [],
      account_user_ids: teamId ? [] : [run.principal.accountUserId],
    };
    const mapped = run.mapping('integration', integration.sourceId);
    const current = mapped ? await getIntegration(run.accountId, mapped.our_id) : null;
    const ourId = await keepUpdateOrCreate(
      run,
      { kind: 'integration', sourceId: integration.sourceId, name: integration.name, ...(current ? {} : { detail: `type ${slug}` }) },
      current,
      {
        same: (c) =>
          c.name === fields.name &&
          c.enabled === fields.enabled &&
          sameSet(c.team_ids, fields.team_ids) &&
          sameSet(c.account_user_ids, fields.account_user_ids),
        update: (c) => updateIntegrationV4(run.principal, c.id, fields),
        create: () => createIntegrationV4(run.principal, { ...fields, integration_type_id: slug, urgency: 'high' }),
      },
    );
    const keyCarried = await carryKey(run, integration, ourId);
    const newAddress = ourId ? newAddressOf(run, ourId, integration.addressKind, keyCarried) : null;
    run.integrations.push({ name: integration.name, oldAddress: integration.oldAddress ?? null, newAddress });
    await run.remember('integration', integration.sourceId, integration.name, ourId);
  }
}

/** Imports a snapshot into the principal's account (an admin); with dryRun, only plans. */
export async function applySnapshot(principal: Principal, snapshot: Snapshot, options: ApplyOptions): Promise<ImportResult> {
  const run = new Run(principal, snapshot, options);
  await run.load();
  await importUsers(run);
  await importTeams(run);
  for (const schedule of snapshot.schedules) await importSchedule(run, schedule);
  const claimed = new Set<string>();
  for (const policy of snapshot.escalationPolicies) await importPolicy(run, policy, claimed);
  await importIntegrations(run);
  return {
    source: snapshot.source,
    dryRun: options.dryRun,
    plan: run.plan,
    unsupported: run.unsupported,
    integrations: run.integrations,
    schedules: run.schedules,
    people: Object.fromEntries([...run.people].map(([sourceId, person]) => [sourceId, person.accountUserId])),
  };
}
