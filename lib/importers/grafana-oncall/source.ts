// The Grafana OnCall source: reads a stack through its public API v1 with an API token
// (`Authorization: <token>`). The API URL is per stack (Grafana OnCall's settings page shows it,
// e.g. https://oncall-prod-eu-west-0.grafana.net/oncall), so --api-url is required; every list is
// followed through `next` until it is null. The proof reads the schedule's own final shifts.
import type * as z from 'zod';
import { now as clockNow } from '../../clock';
import { contiguousSpans } from '../rendered-spans';
import { sourceApi, type SourceApi } from '../source-api';
import type { ImportSource, Instant, OnCallSpan, Snapshot, UnsupportedItem } from '../source-model';
import { translateEscalationChain, translateIntegration, translateSchedule, translateTeams, translateUser } from './translate';
import {
  goEscalationChain,
  goEscalationStep,
  goFinalShift,
  goIntegration,
  goPage,
  goRoute,
  goSchedule,
  goShift,
  goTeam,
  goUser,
} from './wire';

export interface GrafanaOnCallSourceOptions {
  apiKey: string;
  /** The stack's OnCall API URL (without /api/v1). */
  apiUrl: string;
  /** Private and loopback addresses allowed (the operator's CLI, tests); the console's runs refuse them. */
  allowPrivateAddresses: boolean;
  now?: () => number;
}

async function readAll<T extends z.ZodType>(api: SourceApi, path: string, item: T): Promise<z.output<T>[]> {
  const items: z.output<T>[] = [];
  const seen = new Set<string>();
  for (let next: string | null | undefined = path; next;) {
    // A `next` that loops back would never end the read.
    if (seen.has(next)) break;
    seen.add(next);
    const page: { next?: string | null; results: z.output<T>[] } = await api.get(next, goPage(item));
    items.push(...page.results);
    next = page.next;
  }
  return items;
}

export function grafanaOnCallSource(options: GrafanaOnCallSourceOptions): ImportSource {
  const apiUrl = options.apiUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  const api = sourceApi({
    sourceLabel: 'Grafana OnCall',
    apiUrl: `${apiUrl}/api/v1`,
    headers: { authorization: options.apiKey },
    allowPrivateAddresses: options.allowPrivateAddresses,
  });
  const now = options.now ?? clockNow;

  return {
    name: 'grafana-oncall',

    async read(): Promise<Snapshot> {
      const readAt = now();
      const unsupported: UnsupportedItem[] = [];
      const rawUsers = await readAll(api, '/users/', goUser);
      const users = rawUsers.map(translateUser);
      if (users.length > 0) {
        unsupported.push({
          kind: 'other',
          sourceId: 'phone-numbers',
          name: 'Phone numbers',
          reason:
            "Grafana OnCall's API does not give people's phone numbers: each person adds theirs here (Profile) before SMS or voice pages reach them",
        });
      }
      const teams = translateTeams(await readAll(api, '/teams/', goTeam), rawUsers);
      if (teams.length > 0 && rawUsers.every((u) => u.teams == null)) {
        unsupported.push({
          kind: 'other',
          sourceId: 'team-members',
          name: 'Team members',
          reason: "this Grafana OnCall's API names no user's teams: its teams are imported without members (add them here)",
        });
      }
      const shifts = await readAll(api, '/on_call_shifts/', goShift);
      const schedules = (await readAll(api, '/schedules/', goSchedule))
        .map((s) => translateSchedule(s, shifts, unsupported))
        .filter((s) => s !== null);
      const steps = await readAll(api, '/escalation_policies/', goEscalationStep);
      const escalationPolicies = (await readAll(api, '/escalation_chains/', goEscalationChain)).map((chain) =>
        translateEscalationChain(
          chain,
          steps.filter((s) => s.escalation_chain_id === chain.id),
          unsupported,
        ),
      );
      const routes = await readAll(api, '/routes/', goRoute);
      const integrations = (await readAll(api, '/integrations/', goIntegration))
        .map((i) => translateIntegration(i, routes, unsupported))
        .filter((i) => i !== null);
      return {
        source: 'grafana-oncall',
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
      // final_shifts takes whole UTC dates, both included.
      const startDate = new Date(start).toISOString().slice(0, 10);
      const endDate = new Date(Math.max(start, end - 1)).toISOString().slice(0, 10);
      const path = `/schedules/${encodeURIComponent(scheduleSourceId)}/final_shifts?start_date=${startDate}&end_date=${endDate}`;
      const entries = (await readAll(api, path, goFinalShift))
        .map((s) => ({
          start: Math.max(Date.parse(s.shift_start), start),
          end: Math.min(Date.parse(s.shift_end), end),
          userSourceIds: [s.user_pk],
        }))
        .filter((e) => e.start < e.end);
      return contiguousSpans(entries, start, end);
    },
  };
}
