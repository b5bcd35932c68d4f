// Entry point: the caller's account (earlier interface).
import { routesOf } from '../../infra/routes';
import { accountToEarlier, findAccount, updateAccount } from '../../lib/accounts/account';
import { httpHandler } from '../../lib/http/handler';
import { ok } from '../../lib/http/responses';

export const handler = httpHandler(routesOf('account'), {
  get: async (req) => ok(accountToEarlier(await findAccount(req.principal, req.params.id))),
  update: async (req) => ok(accountToEarlier(await updateAccount(req.principal, req.params.id, req.body()))),
});
