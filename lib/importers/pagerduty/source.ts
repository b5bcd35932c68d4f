// The PagerDuty source: reads an account through its REST API v2 (https://api.pagerduty.com unless
// --api-url says else: an account in PagerDuty's EU region answers at https://api.eu.pagerduty.com)
// with an API key (`Authorization: Token token=<key>`), every list paged through with limit/offset
// until `more` is false, and answers PagerDuty's own rendered final schedule for the proof.
import type * as z from 'zod';
import { now as clockNow } from '../../clock';
import { contiguousSpans } from '../rendered-spans';
import { sourceApi, type SourceApi } from '../source-api';
import type { ImportSource, Instant, OnCallSpan, Snapshot, UnsupportedItem } from '../source-model';
import { translateEscalationPolicy, translateSchedule, translateServiceIntegrations, translateTeam, translateUser } from './translate';
import {
  pdEscalationPolicy,
  pdMember,
  pdOverridesAnswer,
  pdPage,
  pdScheduleAnswer,
  pdScheduleSummary,
  pdService,
  pdTeam,
  pdUser,
} from './wire';

export const PAGERDUTY_API_URL = 'https://api.pagerduty.com';

/** How far ahead overrides are read: PagerDuty lists them by window, and those further out are rare. */
const OVERRIDE_HORIZON_MS = 366 * 24 * 3_600_000;
const PAGE_LIMIT = 100;

export interface PagerDutySourceOptions {
  apiKey: string;
  apiUrl?: string;
  /** Private and loopback addresses allowed (the operator's CLI, tests); the console's runs refuse them. */
  allowPrivateAddresses: boolean;
  /** The reader's clock (ms); the service's clock by default. */
  now?: () => number;
}

async function readAll<T extends z.ZodType>(api: SourceApi, path: string, key: string, item: T, query = ''): Promise<z.output<T>[]> {
  const items: z.output<T>[] = [];
  for (let offset = 0; ;) {
    const separator = path.includes('?') ? '&' : '?';
    const page = await api.get(`${path}${separator}limit=${PAGE_LIMIT}&offset=${offset}${query}`, pdPage(key, item));
    const batch = page[key] ?? [];
    items.push(...batch);
    if (!page.more || batch.length === 0) return items;
    offset += batch.length;
  }
}

export function pagerDutySource(options: PagerDutySourceOptions): ImportSource {
  const api = sourceApi({
    sourceLabel: 'PagerDuty',
    apiUrl: options.apiUrl ?? PAGERDUTY_API_URL,
    headers: { authorization: `Token token=${options.apiKey}`, accept: 'application/vnd.pagerduty+json;version=2' },
    allowPrivateAddresses: options.allowPrivateAddresses,
  });
  const now = options.now ?? clockNow;
  const schedulePath = (id: string) => `/schedules/${encodeURIComponent(id)}`;

  return {
    name: 'pagerduty',

    async read(): Promise<Snapshot> {
      const readAt = now();
      const unsupported: UnsupportedItem[] = [];
      const users = (await readAll(api, '/users', 'users', pdUser, '&include[]=contact_methods')).map((u) => translateUser(u, unsupported));
      const teams = [];
      for (const team of await readAll(api, '/teams', 'teams', pdTeam)) {
        teams.push(translateTeam(team, await readAll(api, `/teams/${encodeURIComponent(team.id)}/members`, 'members', pdMember)));
      }
      const schedules = [];
      const since = new Date(readAt).toISOString();
      const until = new Date(readAt + OVERRIDE_HORIZON_MS).toISOString();
      for (const summary of await readAll(api, '/schedules', 'schedules', pdScheduleSummary)) {
        const { schedule } = await api.get(schedulePath(summary.id), pdScheduleAnswer);
        const { overrides } = await api.get(
          `${schedulePath(summary.id)}/overrides?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
          pdOverridesAnswer,
        );
        schedules.push(translateSchedule(schedule, overrides, readAt, unsupported));
      }
      const escalationPolicies = (await readAll(api, '/escalation_policies', 'escalation_policies', pdEscalationPolicy)).map((p) =>
        translateEscalationPolicy(p, unsupported),
      );
      const integrations = (await readAll(api, '/services', 'services', pdService, '&include[]=integrations')).flatMap((s) =>
        translateServiceIntegrations(s, unsupported),
      );
      return {
        source: 'pagerduty',
        readAt: new Date(readAt).toISOString(),
        users,
        teams,
        schedules,
        escalationPolicies,
        integrations,
        unsupported,
      };
    },

    async renderedOnCall(scheduleSourceId: string, from: Instant, to: Instant): Promise<OnCallSpan[]> {
      const [start, end] = [Date.parse(from), Date.parse(to)];
      const query = `since=${encodeURIComponent(new Date(start).toISOString())}&until=${encodeURIComponent(new Date(end).toISOString())}&time_zone=UTC`;
      const { schedule } = await api.get(`${schedulePath(scheduleSourceId)}?${query}`, pdScheduleAnswer);
      const entries = (schedule.final_schedule?.rendered_schedule_entries ?? [])
        .filter((e) => e.user)
        .map((e) => ({ start: Math.max(Date.parse(e.start), start), end: Math.min(Date.parse(e.end), end), userSourceIds: [e.user!.id] }))
        .filter((e) => e.start < e.end);
      return contiguousSpans(entries, start, end);
    },
  };
}
