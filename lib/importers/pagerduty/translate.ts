// PagerDuty's objects in the source-neutral terms (lib/importers/source-model.ts). Pure: the reader
// (source.ts) fetches, this decides what each object means here and lists what it cannot carry.
import type {
  SourceEscalationPolicy,
  SourceEscalationTarget,
  SourceIntegration,
  SourceLayer,
  SourceOverride,
  SourcePhone,
  SourceRestriction,
  SourceRole,
  SourceSchedule,
  SourceTeam,
  SourceUser,
  TurnLength,
  UnsupportedItem,
} from '../source-model';
import type { PdEscalationPolicy, PdLayer, PdMember, PdOverride, PdRestriction, PdSchedule, PdService, PdTeam, PdUser } from './wire';

const ROLES: Record<string, SourceRole> = {
  owner: 'owner',
  admin: 'admin',
  user: 'user',
  limited_user: 'user',
  observer: 'observer',
  restricted_access: 'observer',
  read_only_user: 'observer',
  read_only_limited_user: 'observer',
};

export function translateUser(user: PdUser, unsupported: UnsupportedItem[]): SourceUser {
  const methods = user.contact_methods ?? [];
  const emails = [user.email];
  for (const method of methods) {
    if (
      method.type === 'email_contact_method' &&
      method.address &&
      !emails.some((e) => e.toLowerCase() === method.address!.toLowerCase())
    ) {
      emails.push(method.address);
    }
  }
  const phones: SourcePhone[] = [];
  for (const method of methods) {
    const use = method.type === 'phone_contact_method' ? 'voice' : method.type === 'sms_contact_method' ? 'sms' : null;
    if (!use || !method.address) continue;
    const number = method.country_code ? `+${method.country_code}${method.address.replace(/\D/g, '')}` : method.address;
    const same = phones.find((p) => p.number === number);
    if (same) same.use = same.use === use ? use : 'both';
    else phones.push({ number, use });
  }
  if (methods.some((m) => m.type === 'push_notification_contact_method')) {
    unsupported.push({
      kind: 'user',
      sourceId: user.id,
      name: user.name,
      reason: 'PagerDuty app push devices do not carry over: the person signs in to our console and enables push there',
    });
  }
  const role = ROLES[user.role ?? 'user'];
  return {
    sourceId: user.id,
    name: user.name,
    emails,
    phones,
    ...(user.time_zone ? { timeZone: user.time_zone } : {}),
    role: role ?? 'user',
    ...(user.role && role !== user.role ? { sourceRole: user.role } : {}),
  };
}

export function translateTeam(team: PdTeam, members: PdMember[]): SourceTeam {
  return {
    sourceId: team.id,
    name: team.name,
    ...(team.description ? { description: team.description } : {}),
    memberSourceIds: members.map((m) => m.user.id),
    adminSourceIds: members.filter((m) => m.role === 'manager').map((m) => m.user.id),
  };
}

const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** PagerDuty counts turns in seconds; whole days and weeks follow the wall clock there, as here. */
function turnLength(seconds: number): TurnLength | null {
  if (seconds <= 0) return null;
  if (seconds % WEEK === 0) return { unit: 'weeks', count: seconds / WEEK };
  if (seconds % DAY === 0) return { unit: 'days', count: seconds / DAY };
  if (seconds % HOUR === 0) return { unit: 'hours', count: seconds / HOUR };
  return null;
}

function restriction(raw: PdRestriction): SourceRestriction | string {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(raw.start_time_of_day);
  if (!match) return `a restriction starting at "${raw.start_time_of_day}" cannot be read`;
  if (match[3] && match[3] !== '00')
    return `a restriction starting at ${raw.start_time_of_day} (seconds) cannot be carried: ours start on a minute`;
  if (raw.duration_seconds % 60 !== 0 || raw.duration_seconds <= 0)
    return `a restriction lasting ${raw.duration_seconds} s cannot be carried: ours last whole minutes`;
  const start = `${match[1].padStart(2, '0')}:${match[2]}`;
  const minutes = raw.duration_seconds / 60;
  if (raw.type === 'daily_restriction') return { kind: 'daily', start, minutes };
  const day = raw.start_day_of_week ?? 0;
  if (raw.type === 'weekly_restriction' && day >= 1 && day <= 7)
    return { kind: 'weekly', startDay: day as 1 | 2 | 3 | 4 | 5 | 6 | 7, start, minutes };
  return `a restriction of type ${raw.type} (day ${day}) cannot be carried`;
}

function translateLayer(layer: PdLayer, schedule: PdSchedule, now: number, unsupported: UnsupportedItem[]): SourceLayer | null {
  const name = layer.name ?? layer.id;
  const listed = (reason: string) => {
    unsupported.push({ kind: 'layer', sourceId: layer.id, name: `${schedule.name} / ${name}`, reason });
    return null;
  };
  // A layer that ended before the import puts nobody on call again: history, not schedule.
  if (layer.end && Date.parse(layer.end) <= now) return null;
  const length = turnLength(layer.rotation_turn_length_seconds);
  if (!length) return listed(`a turn of ${layer.rotation_turn_length_seconds} s is not whole hours: not imported`);
  const restrictions: SourceRestriction[] = [];
  for (const raw of layer.restrictions ?? []) {
    const read = restriction(raw);
    if (typeof read === 'string') return listed(`${read}: not imported`);
    restrictions.push(read);
  }
  return {
    kind: 'rotation',
    sourceId: layer.id,
    name,
    start: layer.rotation_virtual_start,
    activeFrom: layer.start,
    ...(layer.end ? { end: layer.end } : {}),
    length,
    timeZone: schedule.time_zone,
    participants: layer.users.map((u) => ({ kind: 'users' as const, userSourceIds: [u.user.id] })),
    restrictions,
    restrictionTimeZone: schedule.time_zone,
    restrictionMode: 'partial',
  };
}

/**
 * `schedule_layers` are read lowest first (Layer 1 first; PagerDuty's answers have listed them so
 * since its 2023 layer-order fix): a later layer wins wherever it has somebody on call. An
 * override replaces the whole schedule's result for its span.
 */
export function translateSchedule(
  schedule: PdSchedule,
  overrides: PdOverride[],
  now: number,
  unsupported: UnsupportedItem[],
): SourceSchedule {
  const layers = (schedule.schedule_layers ?? [])
    .map((l) => translateLayer(l, schedule, now, unsupported))
    .filter((l): l is SourceLayer => l !== null);
  const teams = schedule.teams ?? [];
  if (teams.length > 1) {
    unsupported.push({
      kind: 'schedule',
      sourceId: schedule.id,
      name: schedule.name,
      reason: `belongs to ${teams.length} teams; here a schedule belongs to one team: imported under the first (${teams[0].summary ?? teams[0].id})`,
    });
  }
  return {
    sourceId: schedule.id,
    name: schedule.name,
    ...(schedule.description ? { description: schedule.description } : {}),
    timeZone: schedule.time_zone,
    ...(teams[0] ? { teamSourceId: teams[0].id } : {}),
    enabled: true,
    layerCombination: 'higher-wins',
    layers,
    overrides: overrides.map((o): SourceOverride => ({
      sourceId: o.id,
      start: o.start,
      end: o.end,
      userSourceIds: [o.user.id],
      replaces: 'schedule',
    })),
  };
}

function target(raw: { id: string; type: string }): SourceEscalationTarget | null {
  if (raw.type === 'user_reference' || raw.type === 'user') return { kind: 'user', userSourceId: raw.id };
  if (raw.type === 'schedule_reference' || raw.type === 'schedule') return { kind: 'schedule', scheduleSourceId: raw.id, who: 'on-call' };
  return null;
}

/**
 * Rule i notifies when the delays of the rules before it have passed; after the last rule's delay
 * the policy starts over `num_loops` more times.
 */
export function translateEscalationPolicy(policy: PdEscalationPolicy, unsupported: UnsupportedItem[]): SourceEscalationPolicy {
  let atMinute = 0;
  const steps = policy.escalation_rules.map((rule) => {
    const targets: SourceEscalationTarget[] = [];
    for (const raw of rule.targets) {
      const read = target(raw);
      if (read) targets.push(read);
      else
        unsupported.push({
          kind: 'escalation-step',
          sourceId: rule.id,
          name: policy.name,
          reason: `a target of type ${raw.type} (${raw.id}) has no equivalent: left out`,
        });
    }
    const step = { atMinute, targets, condition: 'if-not-acknowledged' as const };
    atMinute += rule.escalation_delay_in_minutes;
    return step;
  });
  const last = policy.escalation_rules.at(-1);
  const teams = policy.teams ?? [];
  return {
    sourceId: policy.id,
    name: policy.name,
    ...(policy.description ? { description: policy.description } : {}),
    ...(teams[0] ? { teamSourceId: teams[0].id } : {}),
    steps,
    repeat: { times: policy.num_loops ?? 0, ...(last ? { afterMinutes: last.escalation_delay_in_minutes } : {}) },
  };
}

/**
 * A service's integrations, each an integration here that runs the service's escalation policy.
 * Senders of the Events API (v1 and v2) keep their payloads and change only the URL; e-mail
 * integrations have no equivalent here.
 */
export function translateServiceIntegrations(service: PdService, unsupported: UnsupportedItem[]): SourceIntegration[] {
  const integrations: SourceIntegration[] = [];
  for (const integration of service.integrations ?? []) {
    const name = `${service.name}: ${integration.name ?? integration.summary ?? integration.type}`;
    if (integration.type.includes('email')) {
      unsupported.push({
        kind: 'integration',
        sourceId: integration.id,
        name,
        reason: `e-mail integrations (${integration.integration_email ?? 'no address'}) have no equivalent here: point the sender at a webhook integration instead`,
      });
      continue;
    }
    integrations.push({
      sourceId: integration.id,
      name,
      type: integration.type.replace(/_reference$/, ''),
      enabled: service.status !== 'disabled',
      ...(service.teams?.[0] ? { teamSourceId: service.teams[0].id } : {}),
      ...(service.escalation_policy ? { escalationPolicySourceId: service.escalation_policy.id } : {}),
      // Only the key's end is printed: enough to recognise it, no use to anyone reading the output.
      ...(integration.integration_key
        ? {
            oldAddress: `routing_key …${integration.integration_key.slice(-4)}`,
            addressKind: 'key' as const,
            senderKey: integration.integration_key,
          }
        : {}),
    });
  }
  return integrations;
}
