// Grafana OnCall public API v1 answers, as far as the importer reads them
// (grafana.com/docs/oncall/latest/oncall-api-reference): what it needs is required, the rest is
// left unread. Lists page through `next`, the whole URL of the following page.
import * as z from 'zod';
import { lazySchema } from '../../lazy-schema';

export const goUser = lazySchema(() =>
  z.object({
    id: z.string(),
    email: z.string(),
    username: z.string().nullish(),
    name: z.string().nullish(),
    role: z.string().nullish(),
    timezone: z.string().nullish(),
    teams: z.array(z.string()).nullish(),
  }),
);

export const goTeam = lazySchema(() => z.object({ id: z.string(), name: z.string() }));

export const goSchedule = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    team_id: z.string().nullish(),
    time_zone: z.string().nullish(),
    shifts: z.array(z.string()).nullish(),
    ical_url_primary: z.string().nullish(),
    ical_url_overrides: z.string().nullish(),
  }),
);

export const goShift = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string().nullish(),
    type: z.string(),
    team_id: z.string().nullish(),
    time_zone: z.string().nullish(),
    level: z.number().nullish(),
    start: z.string(),
    rotation_start: z.string().nullish(),
    duration: z.number(),
    frequency: z.string().nullish(),
    interval: z.number().nullish(),
    until: z.string().nullish(),
    week_start: z.string().nullish(),
    by_day: z.array(z.string()).nullish(),
    by_month: z.array(z.number()).nullish(),
    by_monthday: z.array(z.number()).nullish(),
    users: z.array(z.string()).nullish(),
    rolling_users: z.array(z.array(z.string())).nullish(),
    start_rotation_from_user_index: z.number().nullish(),
  }),
);

export const goEscalationChain = lazySchema(() => z.object({ id: z.string(), name: z.string(), team_id: z.string().nullish() }));

export const goEscalationStep = lazySchema(() =>
  z.object({
    id: z.string(),
    escalation_chain_id: z.string(),
    position: z.number(),
    type: z.string(),
    duration: z.number().nullish(),
    persons_to_notify: z.array(z.string()).nullish(),
    notify_on_call_from_schedule: z.string().nullish(),
    team_to_notify: z.string().nullish(),
  }),
);

export const goIntegration = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    team_id: z.string().nullish(),
    link: z.string().nullish(),
    default_route: z.object({ escalation_chain_id: z.string().nullish() }).nullish(),
    maintenance_mode: z.string().nullish(),
  }),
);

export const goRoute = lazySchema(() =>
  z.object({
    id: z.string(),
    integration_id: z.string(),
    escalation_chain_id: z.string().nullish(),
    routing_type: z.string().nullish(),
    routing_regex: z.string().nullish(),
    is_the_last_route: z.boolean().nullish(),
  }),
);

export const goFinalShift = lazySchema(() => z.object({ user_pk: z.string(), shift_start: z.string(), shift_end: z.string() }));

export function goPage<T extends z.ZodType>(item: T) {
  return z.object({ next: z.string().nullish(), results: z.array(item) });
}

export type GoUser = z.output<typeof goUser>;
export type GoTeam = z.output<typeof goTeam>;
export type GoSchedule = z.output<typeof goSchedule>;
export type GoShift = z.output<typeof goShift>;
export type GoEscalationChain = z.output<typeof goEscalationChain>;
export type GoEscalationStep = z.output<typeof goEscalationStep>;
export type GoIntegration = z.output<typeof goIntegration>;
export type GoRoute = z.output<typeof goRoute>;
