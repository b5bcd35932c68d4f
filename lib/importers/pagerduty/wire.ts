// PagerDuty REST API v2 answers, as far as the importer reads them (developer.pagerduty.com): what
// it needs is required, the rest is left unread. Lists page with `limit`/`offset`/`more`.
import * as z from 'zod';
import { lazySchema } from '../../lazy-schema';

const reference = () => z.object({ id: z.string(), type: z.string(), summary: z.string().nullish() });

export const pdContactMethod = lazySchema(() =>
  z.object({
    id: z.string(),
    type: z.string(),
    address: z.string().nullish(),
    country_code: z.number().nullish(),
    label: z.string().nullish(),
  }),
);

export const pdUser = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    time_zone: z.string().nullish(),
    role: z.string().nullish(),
    contact_methods: z.array(pdContactMethod).nullish(),
  }),
);

export const pdTeam = lazySchema(() => z.object({ id: z.string(), name: z.string(), description: z.string().nullish() }));

export const pdMember = lazySchema(() => z.object({ user: reference(), role: z.string().nullish() }));

export const pdRestriction = lazySchema(() =>
  z.object({
    type: z.string(),
    start_time_of_day: z.string(),
    duration_seconds: z.number(),
    start_day_of_week: z.number().nullish(),
  }),
);

export const pdLayer = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string().nullish(),
    start: z.string(),
    end: z.string().nullish(),
    rotation_virtual_start: z.string(),
    rotation_turn_length_seconds: z.number(),
    users: z.array(z.object({ user: reference() })),
    restrictions: z.array(pdRestriction).nullish(),
  }),
);

export const pdScheduleSummary = lazySchema(() => z.object({ id: z.string(), name: z.string() }));

const renderedEntries = () =>
  z.object({
    rendered_schedule_entries: z.array(z.object({ start: z.string(), end: z.string(), user: reference().nullish() })).nullish(),
  });

export const pdScheduleAnswer = lazySchema(() =>
  z.object({
    schedule: z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullish(),
      time_zone: z.string(),
      teams: z.array(reference()).nullish(),
      schedule_layers: z.array(pdLayer).nullish(),
      final_schedule: renderedEntries().nullish(),
    }),
  }),
);

export const pdOverridesAnswer = lazySchema(() =>
  z.object({ overrides: z.array(z.object({ id: z.string(), start: z.string(), end: z.string(), user: reference() })) }),
);

export const pdEscalationPolicy = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullish(),
    num_loops: z.number().nullish(),
    teams: z.array(reference()).nullish(),
    escalation_rules: z.array(z.object({ id: z.string(), escalation_delay_in_minutes: z.number(), targets: z.array(reference()) })),
  }),
);

export const pdService = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    status: z.string().nullish(),
    escalation_policy: reference().nullish(),
    teams: z.array(reference()).nullish(),
    integrations: z
      .array(
        reference().extend({
          name: z.string().nullish(),
          integration_key: z.string().nullish(),
          integration_email: z.string().nullish(),
        }),
      )
      .nullish(),
  }),
);

/** One page of a classic-paginated list whose items sit under `key`. */
export function pdPage<T extends z.ZodType>(key: string, item: T) {
  return z.object({
    [key]: z.array(item),
    more: z.boolean().nullish(),
    limit: z.number().nullish(),
    offset: z.number().nullish(),
  }) as unknown as z.ZodType<{ more?: boolean | null; limit?: number | null; offset?: number | null } & Record<string, z.output<T>[]>>;
}

export type PdUser = z.output<typeof pdUser>;
export type PdTeam = z.output<typeof pdTeam>;
export type PdMember = z.output<typeof pdMember>;
export type PdLayer = z.output<typeof pdLayer>;
export type PdRestriction = z.output<typeof pdRestriction>;
export type PdSchedule = z.output<typeof pdScheduleAnswer>['schedule'];
export type PdOverride = z.output<typeof pdOverridesAnswer>['overrides'][number];
export type PdEscalationPolicy = z.output<typeof pdEscalationPolicy>;
export type PdService = z.output<typeof pdService>;
