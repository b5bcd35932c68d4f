// GET /api/v4/alerts/:id/comments: an alert's comments through the list engine.
import type { Principal } from '../http/principal';
import { runList } from '../list/engine';
import { parseListQuery, type ApiInterface } from '../list/query';
import { listCommentsOfAlert } from './comment-store';
import { findAlert } from './read-alerts';
import { commentListSpec, commentToV4 } from './represent';

export async function listComments<Iface extends ApiInterface>(
  principal: Principal,
  rawAlertId: string,
  params: URLSearchParams,
  iface: Iface,
) {
  const alert = await findAlert(principal, rawAlertId);
  const query = parseListQuery(params, commentListSpec, iface);
  const source = { all: () => listCommentsOfAlert(principal.accountId, alert.id) };
  return runList(query, source, commentToV4, { search: commentListSpec.search });
}
