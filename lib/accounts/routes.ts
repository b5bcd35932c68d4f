// The routes of the `account` function (functions/http/account.ts): the caller's account on the
// earlier interface.
import { ADMIN_ONLY } from '../http/standard-routes';
import { declareRoutes, READ_ERRORS } from '../http/route-contract';
import { AccountEarlier, updateAccountInput } from './schemas';

export const accountRoutes = declareRoutes('account', {
  get: {
    method: 'GET',
    path: '/account/{id}',
    summary: "Get the caller's account",
    description: 'Any other account id is a 404.',
    tag: 'Account',
    success: [{ status: 200, description: 'The account', schema: AccountEarlier }],
    errors: READ_ERRORS,
  },
  update: {
    method: 'PUT',
    path: '/account/{id}',
    summary: "Update the caller's account",
    description: `Any other account id is a 404. ${ADMIN_ONLY}`,
    tag: 'Account',
    body: updateAccountInput,
    success: [{ status: 200, description: 'The updated account', schema: AccountEarlier }],
    errors: [400, 401, 403, 404, 409, 413],
  },
});
