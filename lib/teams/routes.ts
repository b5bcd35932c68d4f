// The routes of the `teams` function (functions/http/teams.ts): teams and who is on call for one.
import { declareRoutes, READ_ERRORS } from '../http/route-contract';
import { ADMIN_ONLY, standardRoutes } from '../http/standard-routes';
import { ONCALL_ENTRIES, OncallEntries } from '../schedules/schemas';
import { createTeamInput, TeamV4, updateTeamInput } from './schemas';

const v4 = '/api/v4';

export const teamRoutes = declareRoutes('teams', {
  ...standardRoutes(`${v4}/teams`, {
    tag: 'Teams',
    noun: 'team',
    plural: 'teams',
    item: TeamV4,
    create: createTeamInput,
    update: updateTeamInput,
    form: true,
    writers: {
      create: ADMIN_ONLY,
      update: "Account admins and the team's admins; only account admins may change schedule_id or escalation_policy_id (403 otherwise).",
      delete: ADMIN_ONLY,
    },
    descriptions: {
      create:
        'Needs at least one member and one admin (an admin need not be a member). Also creates the team\'s schedule ("<name> Schedule") and escalation policy ("<name> Escalation Policy": one layer, 5 minutes, repeat 0).',
    },
  }),
  currentOncall: {
    method: 'GET',
    path: `${v4}/teams/{id}/current_oncall`,
    summary: 'Who is on call for a team now',
    description: `The team's schedule's current on-call (empty when the team has no schedule). ${ONCALL_ENTRIES}`,
    tag: 'Teams',
    success: [{ status: 200, description: 'The on-call spans in force now', schema: OncallEntries }],
    errors: READ_ERRORS,
  },
});
