// DELETE /api/v4/routers/:id and DELETE /router/:id of a router (account admins). Alerts and
// integrations that name it keep the id (api-earlier.md warns of the effect): routing logs the
// unknown router and skips it; a router whose default receiver it was falls back to its others.
import { requireAdmin } from '../auth/permissions';
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { findRouter } from './read-routers';
import type { RouterRecord } from './records';
import { forgetRouter } from './router-cache';
import { removeRouter } from './store';

export async function removeRouterOf(principal: Principal, current: RouterRecord): Promise<void> {
  requireAdmin(principal, 'delete routers');
  if (!(await removeRouter(principal.accountId, current.id))) throw new NotFound('Router not found');
  forgetRouter(principal.accountId, current.id);
}

export async function deleteRouter(principal: Principal, rawId: string): Promise<void> {
  await removeRouterOf(principal, await findRouter(principal, rawId));
}
