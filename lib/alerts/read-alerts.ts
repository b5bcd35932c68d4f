// GET one alert and the alert lists of both interfaces, the views (incidents, broadcasts) and a
// team's alerts. Absent, of another account, or of another view: 404.
import { NotFound } from '../http/errors';
import type { Principal } from '../http/principal';
import { parseId, prefixId } from '../ids';
import { runList } from '../list/engine';
import { normalizeIdFilters, prefixIdFilters } from '../list/id-filters';
import { parseListQuery, type ApiInterface } from '../list/query';
import { listLogsOfOwner } from '../logs/read-logs';
import { getTeam } from '../teams/store';
import { alertListSource, EARLIER_FILTERS, EARLIER_PATHS, V4_FILTERS, type AlertView } from './list-source';
import { isIncident, teamsOf, type AlertRecord } from './records';
import { alertEarlierListSpec, alertToEarlier, alertToV4, alertV4ListSpec } from './represent';
import { alertIdOfTinyId, getAlert } from './store';

export const INCIDENT_VIEW: AlertView = { kind: 'incident', value: 'true', includes: isIncident };
export const BROADCAST_VIEW: AlertView = {
  kind: 'subtype',
  value: 'broadcast',
  includes: (alert) => alert.subtype === 'broadcast',
};
export const teamView = (teamId: string): AlertView => ({
  kind: 'team',
  value: teamId,
  includes: (alert) => teamsOf(alert).includes(teamId),
});

/**
 * The ULID a path's `:id` names: the ULID, the prefix id (docs/api.md#ids), or the alert's tiny id, the
 * number people see (`/alert/4/acknowledge`), looked up in gsi5. Null when it names nothing.
 */
export async function resolveAlertId(accountId: string, rawId: string): Promise<string | null> {
  const id = parseId('alert', rawId);
  if (id) return id;
  if (!/^[1-9]\d{0,14}$/.test(rawId)) return null;
  return alertIdOfTinyId(accountId, Number(rawId));
}

export async function findAlert(principal: Principal, rawId: string, view?: AlertView): Promise<AlertRecord> {
  const id = await resolveAlertId(principal.accountId, rawId);
  const alert = id ? await getAlert(principal.accountId, id) : null;
  if (!alert || (view && !view.includes(alert)))
    throw new NotFound(view === INCIDENT_VIEW ? 'Incident not found' : view === BROADCAST_VIEW ? 'Broadcast not found' : 'Alert not found');
  return alert;
}

/** v4 accepts `tags` as another name for tag_list (docs/api.md#requests), in filters too. */
function v4Params(params: URLSearchParams): URLSearchParams {
  if (!params.has('tags') && !(params.get('ops') ?? '').includes('tags:')) return params;
  const out = new URLSearchParams();
  for (const [key, value] of params) {
    if (key === 'tags') out.append('tag_list', value);
    else if (key === 'ops') out.append(key, value.replace(/(^|,)\s*tags:/g, '$1tag_list:'));
    else out.append(key, value);
  }
  return out;
}

/** Reference filters read in the form each representation shows, whichever form the client sent (docs/api.md#ids). */
const V4_REFERENCE_FILTERS = {
  id: 'alert',
  destination_team_ids: 'team',
  destination_account_user_ids: 'accountUser',
  destination_router_ids: 'router',
} as const;
const EARLIER_REFERENCE_FILTERS = { d_team_id: 'team', d_user_id: 'user', parent_id: 'alert' } as const;

export async function listAlertsV4(principal: Principal, params: URLSearchParams, view?: AlertView) {
  const query = parseListQuery(normalizeIdFilters(v4Params(params), V4_REFERENCE_FILTERS), alertV4ListSpec, 'v4');
  const source = alertListSource(principal.accountId, query, { mapping: V4_FILTERS, view });
  return runList(query, source, alertToV4);
}

export async function listAlertsEarlier(principal: Principal, params: URLSearchParams, view?: AlertView) {
  const query = parseListQuery(prefixIdFilters(params, EARLIER_REFERENCE_FILTERS), alertEarlierListSpec, 'earlier');
  const source = alertListSource(principal.accountId, query, { mapping: EARLIER_FILTERS, view, paths: EARLIER_PATHS });
  return runList(query, source, alertToEarlier);
}

/** GET /api/v4/teams/:id/alerts: alerts sent to the team or assigned to it now. */
export async function listTeamAlerts(principal: Principal, rawTeamId: string, params: URLSearchParams) {
  const teamId = parseId('team', rawTeamId);
  const team = teamId ? await getTeam(principal.accountId, teamId) : null;
  if (!team) throw new NotFound('Team not found');
  return listAlertsV4(principal, params, teamView(teamId!));
}

export const findBroadcast = (principal: Principal, rawId: string) => findAlert(principal, rawId, BROADCAST_VIEW);
export const findIncident = (principal: Principal, rawId: string) => findAlert(principal, rawId, INCIDENT_VIEW);

/** GET /incident/:id/logs: an alert's timeline, oldest first. */
export async function listIncidentLogs<Iface extends ApiInterface>(
  principal: Principal,
  rawAlertId: string,
  params: URLSearchParams,
  iface: Iface,
) {
  const alert = await findAlert(principal, rawAlertId);
  return listLogsOfOwner(principal, prefixId('alert', alert.id), params, iface);
}
