// Entry point: teams (/api/v4/teams). GET /api/v4/teams/:id/alerts belongs to the alerts function.
// The writes (their chat webhooks' address checks: ipaddr.js) and the current on-call (the time
// zones' rules) load with their first request: a list or a read loads neither (issue 21).
import { teamRoutes } from '../../lib/teams/routes';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';
import { findTeam, listTeams } from '../../lib/teams/read-teams';
import { teamToV4 } from '../../lib/teams/represent';

const loadCreate = /* @__PURE__ */ loadOnce(() => import('../../lib/teams/create-team'));
const loadUpdate = /* @__PURE__ */ loadOnce(() => import('../../lib/teams/update-team'));
const loadDelete = /* @__PURE__ */ loadOnce(() => import('../../lib/teams/delete-team'));
const loadOncall = /* @__PURE__ */ loadOnce(() => import('../../lib/teams/read-team-oncall'));

export const handler = httpHandler(teamRoutes, {
  list: async (req) => ok(await listTeams(req.principal, req.query)),
  create: async (req) => {
    const { createTeam } = await loadCreate();
    return created(teamToV4(await createTeam(req.principal, req.body())));
  },
  get: async (req) => ok(teamToV4(await findTeam(req.principal, req.params.id))),
  update: async (req) => {
    const { updateTeam } = await loadUpdate();
    return ok(teamToV4(await updateTeam(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const { deleteTeam } = await loadDelete();
    await deleteTeam(req.principal, req.params.id);
    return noContent();
  },
  currentOncall: async (req) => {
    const { teamCurrentOncall } = await loadOncall();
    return ok(await teamCurrentOncall(req.principal, req.params.id));
  },
});
