// Entry point: teams (/api/v4/teams). GET /api/v4/teams/:id/alerts belongs to the alerts function.
import { teamRoutes } from '../../lib/teams/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { createTeam } from '../../lib/teams/create-team';
import { deleteTeam } from '../../lib/teams/delete-team';
import { teamCurrentOncall } from '../../lib/teams/read-team-oncall';
import { findTeam, listTeams } from '../../lib/teams/read-teams';
import { teamToV4 } from '../../lib/teams/represent';
import { updateTeam } from '../../lib/teams/update-team';

export const handler = httpHandler(teamRoutes, {
  list: async (req) => ok(await listTeams(req.principal, req.query)),
  create: async (req) => created(teamToV4(await createTeam(req.principal, req.body()))),
  get: async (req) => ok(teamToV4(await findTeam(req.principal, req.params.id))),
  update: async (req) => ok(teamToV4(await updateTeam(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteTeam(req.principal, req.params.id);
    return noContent();
  },
  currentOncall: async (req) => ok(await teamCurrentOncall(req.principal, req.params.id)),
});
