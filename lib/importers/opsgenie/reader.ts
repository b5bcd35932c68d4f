// Reads an Opsgenie account through its REST API v2 (`Authorization: GenieKey <key>`) into the
// source model: users and their contacts, teams and members, schedules with rotations and
// overrides, escalations, integrations; and a schedule's rendered timeline for the proof.
// Lists page with `offset`/`limit` and follow `paging.next` while the answer gives one.
import * as z from 'zod';
import type {
  ImportSource,
  IsoWeekday,
  OnCallSpan,
  Snapshot,
  SourceEscalationPolicy,
  SourceEscalationStep,
  SourceEscalationTarget,
  SourceIntegration,
  SourceLayer,
  SourceParticipant,
  SourcePhone,
  SourceRestriction,
  SourceRole,
  SourceSchedule,
  SourceTeam,
  SourceUser,
  UnsupportedItem,
} from '../source-model';
import { now as clockNow, sleep as clockSleep } from '../../clock';
import { sourceGet } from '../source-fetch';
import { mapInTurns } from '../../in-turns';
import { spansFromPeriods } from '../spans';

export const OPSGENIE_API_URL = 'https://api.opsgenie.com';
const PAGE_SIZE = 100;

const ref = z.object({ id: z.string(), name: z.string().optional(), username: z.string().optional() }).passthrough();

const userSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    fullName: z.string().optional(),
    role: z.object({ id: z.string().optional(), name: z.string() }).optional(),
    timeZone: z.string().optional(),
  })
  .passthrough();
const contactSchema = z.object({ method: z.string(), to: z.string(), enabled: z.boolean().optional() }).passthrough();
const teamSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    members: z.array(z.object({ user: ref, role: z.string().optional() }).passthrough()).optional(),
  })
  .passthrough();
const participantSchema = z.object({
  type: z.string(),
  id: z.string().optional(),
  name: z.string().optional(),
  username: z.string().optional(),
});
const restrictionSchema = z.object({
  startDay: z.string().optional(),
  endDay: z.string().optional(),
  startHour: z.number().int(),
  startMin: z.number().int(),
  endHour: z.number().int(),
  endMin: z.number().int(),
});
const rotationSchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    startDate: z.string(),
    endDate: z.string().optional().nullable(),
    type: z.string(),
    length: z.number().int().optional(),
    participants: z.array(participantSchema).default([]),
    timeRestriction: z
      .object({ type: z.string(), restriction: restrictionSchema.optional(), restrictions: z.array(restrictionSchema).optional() })
      .optional()
      .nullable(),
  })
  .passthrough();
const scheduleSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    timezone: z.string().optional(),
    enabled: z.boolean().optional(),
    ownerTeam: ref.optional().nullable(),
    rotations: z.array(rotationSchema).default([]),
  })
  .passthrough();
const overrideSchema = z
  .object({
    alias: z.string(),
    user: participantSchema,
    startDate: z.string(),
    endDate: z.string(),
    rotations: z.array(ref).optional(),
  })
  .passthrough();
const escalationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    ownerTeam: ref.optional().nullable(),
    rules: z.array(
      z
        .object({
          condition: z.string().optional(),
          notifyType: z.string().optional(),
          delay: z.object({ timeAmount: z.number(), timeUnit: z.string().optional() }).optional(),
          recipient: participantSchema,
        })
        .passthrough(),
    ),
    repeat: z
      .object({ waitInterval: z.number().optional(), count: z.number().optional(), closeAlertAfterAll: z.boolean().optional() })
      .passthrough()
      .optional()
      .nullable(),
  })
  .passthrough();
const integrationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    enabled: z.boolean().optional(),
    teamId: z.string().optional().nullable(),
    ownerTeam: ref.optional().nullable(),
    apiKey: z.string().optional(),
    emailAddress: z.string().optional(),
  })
  .passthrough();
const timelineSchema = z.object({
  data: z.object({
    finalTimeline: z
      .object({
        rotations: z
          .array(
            z.object({
              id: z.string().optional(),
              periods: z
                .array(z.object({ startDate: z.string(), endDate: z.string(), recipient: participantSchema.optional() }).passthrough())
                .default([]),
            }),
          )
          .default([]),
      })
      .optional(),
  }),
});

const pageSchema = z.object({ data: z.array(z.unknown()), paging: z.object({ next: z.string().optional() }).passthrough().optional() });

/** One request's deadline: a source that stops answering fails the import instead of holding it. */
const TIMEOUT_MS = 30_000;

export class OpsgenieError extends Error {
  constructor(
    message: string,
    /** Opsgenie's HTTP status, when it answered with an error. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface OpsgenieOptions {
  apiKey: string;
  apiUrl?: string;
  /** Private and loopback addresses allowed (the operator's CLI, tests); the console's runs refuse them. */
  allowPrivateAddresses: boolean;
  /** For tests and the console: the reader's clock. */
  now?: () => Date;
}

const WEEKDAYS: Record<string, IsoWeekday> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 };
const pad = (n: number) => String(n).padStart(2, '0');
const minutesOf = (hour: number, minute: number) => hour * 60 + minute;

/** Opsgenie's end-before-start wraps: a day (time-of-day) or a week (weekday-and-time-of-day); equal means the whole period. */
export function restrictionsOf(timeRestriction: z.infer<typeof rotationSchema>['timeRestriction']): SourceRestriction[] {
  if (!timeRestriction) return [];
  if (timeRestriction.type === 'time-of-day' && timeRestriction.restriction) {
    const r = timeRestriction.restriction;
    const start = minutesOf(r.startHour, r.startMin);
    const span = (minutesOf(r.endHour, r.endMin) - start + 1440) % 1440 || 1440;
    return [{ kind: 'daily', start: `${pad(r.startHour)}:${pad(r.startMin)}`, minutes: span }];
  }
  return (timeRestriction.restrictions ?? []).map((r) => {
    const startDay = WEEKDAYS[(r.startDay ?? '').toLowerCase()];
    const endDay = WEEKDAYS[(r.endDay ?? '').toLowerCase()];
    if (!startDay || !endDay) throw new OpsgenieError(`a weekday restriction names an unknown day: ${r.startDay} – ${r.endDay}`);
    const start = (startDay - 1) * 1440 + minutesOf(r.startHour, r.startMin);
    const end = (endDay - 1) * 1440 + minutesOf(r.endHour, r.endMin);
    const span = (end - start + 10080) % 10080 || 10080;
    return { kind: 'weekly', startDay, start: `${pad(r.startHour)}:${pad(r.startMin)}`, minutes: span };
  });
}

function roleOf(name: string | undefined): SourceRole {
  switch ((name ?? '').toLowerCase()) {
    case 'owner':
      return 'owner';
    case 'admin':
      return 'admin';
    case 'stakeholder':
      return 'observer';
    default:
      return 'user';
  }
}

const MINUTES_PER: Record<string, number> = { minutes: 1, hours: 60, days: 1440 };

/** Requests at once per list of details (contacts of each user, …): Opsgenie answers 429 to bursts. */
const AT_ONCE = 4;

const inTurns = <T, R>(items: readonly T[], work: (item: T) => Promise<R>) => mapInTurns(items, AT_ONCE, work);

export function opsgenieSource(options: OpsgenieOptions): ImportSource {
  const base = (options.apiUrl ?? OPSGENIE_API_URL).replace(/\/+$/, '');
  const readNow = options.now ?? (() => new Date(clockNow()));

  async function get(pathOrUrl: string): Promise<unknown> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${base}${pathOrUrl}`;
    // The next page's URL comes from the answer: it must stay on the API the key was given for.
    if (!url.startsWith(`${base}/`)) throw new OpsgenieError(`Opsgenie answered with a page outside ${base}: ${url}`);
    for (let attempt = 1; ; attempt++) {
      // Through the guarded client (source-fetch.ts): no redirects, a deadline, checked addresses.
      const response = await sourceGet(
        url,
        { Authorization: `GenieKey ${options.apiKey}`, Accept: 'application/json' },
        { allowPrivateAddresses: options.allowPrivateAddresses, timeoutMs: TIMEOUT_MS },
      );
      if (response.status === 429 && attempt < 5) {
        await clockSleep(500 * attempt);
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        const text = response.text.slice(0, 300);
        const hint = response.status === 401 || response.status === 403 ? ' (check the API key and its access rights)' : '';
        throw new OpsgenieError(`Opsgenie answered ${response.status} to GET ${new URL(url).pathname}${hint}: ${text}`, response.status);
      }
      try {
        return JSON.parse(response.text) as unknown;
      } catch {
        throw new OpsgenieError(`Opsgenie answered something other than JSON to GET ${new URL(url).pathname}`, response.status);
      }
    }
  }

  async function list<T>(path: string, schema: z.ZodType<T>): Promise<T[]> {
    const items: T[] = [];
    const separator = path.includes('?') ? '&' : '?';
    let next: string | undefined = `${path}${separator}limit=${PAGE_SIZE}&offset=0`;
    while (next) {
      const page = pageSchema.parse(await get(next));
      for (const item of page.data) items.push(schema.parse(item));
      next = page.data.length > 0 ? page.paging?.next : undefined;
    }
    return items;
  }

  async function one<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return z.object({ data: schema }).parse(await get(path)).data;
  }

  async function readUsers(): Promise<SourceUser[]> {
    const users = await list('/v2/users', userSchema);
    return inTurns(users, async (user) => {
      const contacts = z.array(contactSchema).parse(z.object({ data: z.unknown() }).parse(await get(`/v2/users/${user.id}/contacts`)).data);
      const emails = [user.username, ...contacts.filter((c) => c.method === 'email').map((c) => c.to)];
      const phones = new Map<string, SourcePhone['use']>();
      for (const contact of contacts) {
        if (contact.method !== 'sms' && contact.method !== 'voice') continue;
        const number = contact.to.replace(/^\+?(\d+)-/, '+$1');
        const before = phones.get(number);
        phones.set(number, before && before !== contact.method ? 'both' : contact.method);
      }
      return {
        sourceId: user.id,
        name: user.fullName ?? user.username,
        emails: [...new Set(emails.map((e) => e.toLowerCase()))],
        phones: [...phones].map(([number, use]) => ({ number, use })),
        ...(user.timeZone ? { timeZone: user.timeZone } : {}),
        role: roleOf(user.role?.name),
        ...(user.role?.name ? { sourceRole: user.role.name } : {}),
      };
    });
  }

  async function readTeams(): Promise<SourceTeam[]> {
    const teams = z.array(teamSchema).parse(z.object({ data: z.unknown() }).parse(await get('/v2/teams')).data);
    return inTurns(teams, async ({ id }) => {
      const team = await one(`/v2/teams/${id}?identifierType=id`, teamSchema);
      const members = team.members ?? [];
      return {
        sourceId: team.id,
        name: team.name,
        ...(team.description ? { description: team.description } : {}),
        memberSourceIds: members.map((m) => m.user.id),
        adminSourceIds: members.filter((m) => m.role === 'admin').map((m) => m.user.id),
      };
    });
  }

  function participantOf(p: z.infer<typeof participantSchema>, unsupported: UnsupportedItem[], where: string): SourceParticipant {
    switch (p.type) {
      case 'user':
        return p.id ? { kind: 'users', userSourceIds: [p.id] } : { kind: 'nobody' };
      case 'team':
        return { kind: 'team', teamSourceId: p.id ?? '' };
      case 'escalation':
        return { kind: 'escalation-policy', policySourceId: p.id ?? '' };
      case 'none':
      case 'noone':
        return { kind: 'nobody' };
      default:
        unsupported.push({
          kind: 'layer',
          sourceId: where,
          name: where,
          reason: `participant type ${p.type} is unknown here: its turns have nobody`,
        });
        return { kind: 'nobody' };
    }
  }

  async function readSchedules(unsupported: UnsupportedItem[]): Promise<SourceSchedule[]> {
    const schedules = await list('/v2/schedules?expand=rotation', scheduleSchema);
    return inTurns(schedules, async (schedule) => {
      const timeZone = schedule.timezone ?? 'UTC';
      const layers: SourceLayer[] = schedule.rotations.map((rotation) => {
        const unit =
          rotation.type === 'hourly' ? 'hours' : rotation.type === 'daily' ? 'days' : rotation.type === 'weekly' ? 'weeks' : null;
        if (!unit) throw new OpsgenieError(`rotation ${rotation.id} of schedule ${schedule.name} has an unknown type: ${rotation.type}`);
        return {
          kind: 'rotation',
          sourceId: rotation.id,
          name: rotation.name ?? rotation.id,
          start: rotation.startDate,
          ...(rotation.endDate ? { end: rotation.endDate } : {}),
          length: { unit, count: rotation.length ?? 1 },
          timeZone,
          participants: rotation.participants.map((p) => participantOf(p, unsupported, rotation.id)),
          restrictions: restrictionsOf(rotation.timeRestriction),
          restrictionTimeZone: timeZone,
          restrictionMode: 'partial',
        };
      });
      const overrides = await list(`/v2/schedules/${schedule.id}/overrides?scheduleIdentifierType=id`, overrideSchema);
      return {
        sourceId: schedule.id,
        name: schedule.name,
        ...(schedule.description ? { description: schedule.description } : {}),
        timeZone,
        ...(schedule.ownerTeam ? { teamSourceId: schedule.ownerTeam.id } : {}),
        enabled: schedule.enabled ?? true,
        layerCombination: 'all-at-once',
        layers,
        overrides: overrides.map((o) => ({
          sourceId: o.alias,
          start: o.startDate,
          end: o.endDate,
          userSourceIds: o.user.type === 'user' && o.user.id ? [o.user.id] : [],
          replaces: o.rotations?.length ? { layerSourceIds: o.rotations.map((r) => r.id) } : 'schedule',
        })),
      };
    });
  }

  function targetOf(rule: z.infer<typeof escalationSchema>['rules'][number]): SourceEscalationTarget | null {
    const { recipient } = rule;
    const notify = (rule.notifyType ?? 'default').toLowerCase();
    if (!recipient.id) return null;
    if (recipient.type === 'user') return { kind: 'user', userSourceId: recipient.id };
    if (recipient.type === 'schedule') {
      return {
        kind: 'schedule',
        scheduleSourceId: recipient.id,
        who: notify === 'next' ? 'next' : notify === 'previous' ? 'previous' : 'on-call',
      };
    }
    if (recipient.type === 'team') {
      return {
        kind: 'team',
        teamSourceId: recipient.id,
        who: notify === 'admins' ? 'admins' : notify === 'users' || notify === 'all' ? 'members' : 'escalation',
      };
    }
    if (recipient.type === 'escalation') return { kind: 'escalation-policy', policySourceId: recipient.id };
    return null;
  }

  async function readEscalations(unsupported: UnsupportedItem[]): Promise<SourceEscalationPolicy[]> {
    const escalations = z.array(escalationSchema).parse(z.object({ data: z.unknown() }).parse(await get('/v2/escalations')).data);
    return escalations.map((escalation) => {
      const byMinute = new Map<string, SourceEscalationStep>();
      for (const rule of escalation.rules) {
        const atMinute = (rule.delay?.timeAmount ?? 0) * (MINUTES_PER[rule.delay?.timeUnit ?? 'minutes'] ?? 1);
        const condition = rule.condition === 'if-not-closed' ? 'if-not-closed' : 'if-not-acknowledged';
        const target = targetOf(rule);
        if (!target) {
          unsupported.push({
            kind: 'escalation-step',
            sourceId: escalation.id,
            name: escalation.name,
            reason: `a rule notifying ${rule.recipient.type} ${rule.recipient.name ?? ''} has no equivalent here`,
          });
          continue;
        }
        const key = `${atMinute}/${condition}`;
        const step = byMinute.get(key) ?? { atMinute, targets: [], condition };
        step.targets.push(target);
        byMinute.set(key, step);
      }
      const repeat = escalation.repeat;
      const repeats = repeat && (repeat.waitInterval ?? 0) > 0 ? (repeat.count ?? 0) : 0;
      return {
        sourceId: escalation.id,
        name: escalation.name,
        ...(escalation.description ? { description: escalation.description } : {}),
        ...(escalation.ownerTeam ? { teamSourceId: escalation.ownerTeam.id } : {}),
        steps: [...byMinute.values()].sort((a, b) => a.atMinute - b.atMinute),
        repeat: { times: repeats, ...(repeats > 0 ? { afterMinutes: repeat?.waitInterval } : {}) },
      };
    });
  }

  async function readIntegrations(): Promise<SourceIntegration[]> {
    const listed = z.array(integrationSchema).parse(z.object({ data: z.unknown() }).parse(await get('/v2/integrations')).data);
    return inTurns(listed, async ({ id }) => {
      const integration = await one(`/v2/integrations/${id}`, integrationSchema);
      const teamId = integration.ownerTeam?.id ?? integration.teamId ?? undefined;
      // Only the key's end is shown: enough to recognise it, no use to anyone reading the output.
      const oldAddress = integration.apiKey ? `${base}/v2/alerts with GenieKey …${integration.apiKey.slice(-4)}` : integration.emailAddress;
      return {
        sourceId: integration.id,
        name: integration.name,
        type: integration.type,
        enabled: integration.enabled ?? true,
        ...(teamId ? { teamSourceId: teamId } : {}),
        ...(oldAddress ? { oldAddress, addressKind: integration.apiKey ? ('key' as const) : ('email' as const) } : {}),
        ...(integration.apiKey ? { senderKey: integration.apiKey } : {}),
      };
    });
  }

  return {
    name: 'opsgenie',
    async read(): Promise<Snapshot> {
      const unsupported: UnsupportedItem[] = [];
      const readAt = readNow().toISOString();
      // One list after another: each already asks for its details a few at a time.
      const users = await readUsers();
      const teams = await readTeams();
      const schedules = await readSchedules(unsupported);
      const escalationPolicies = await readEscalations(unsupported);
      const integrations = await readIntegrations();
      return { source: 'opsgenie', readAt, users, teams, schedules, escalationPolicies, integrations, unsupported };
    },

    async renderedOnCall(scheduleSourceId: string, from: string, to: string): Promise<OnCallSpan[]> {
      const days = Math.ceil((Date.parse(to) - Date.parse(from)) / 86_400_000);
      const query = new URLSearchParams({
        identifierType: 'id',
        date: new Date(from).toISOString(),
        interval: String(days),
        intervalUnit: 'days',
      });
      const timeline = timelineSchema.parse(await get(`/v2/schedules/${scheduleSourceId}/timeline?${query.toString()}`));
      const periods = (timeline.data.finalTimeline?.rotations ?? []).flatMap((rotation) =>
        rotation.periods
          .filter((period) => period.recipient?.type === 'user' && period.recipient.id)
          .map((period) => ({ start: Date.parse(period.startDate), end: Date.parse(period.endDate), userSourceId: period.recipient!.id! })),
      );
      return spansFromPeriods(periods, Date.parse(from), Date.parse(to));
    },
  };
}
