// Entry point: the caller's account (earlier interface).
import { accountRoutes } from '../../lib/accounts/routes';
import { httpHandler } from '../../lib/api/handler';
import { findAccount } from '../../lib/accounts/read-account';
import { accountToEarlier } from '../../lib/accounts/represent';
import { updateAccount } from '../../lib/accounts/update-account';
import { ok } from '../../lib/http/replies';

export const handler = httpHandler(accountRoutes, {
  get: async (req) => ok(accountToEarlier(await findAccount(req.principal, req.params.id))),
  update: async (req) => ok(accountToEarlier(await updateAccount(req.principal, req.params.id, req.body()))),
});
