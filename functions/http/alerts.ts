// Entry point: alerts on both interfaces (/api/v4/alerts, /alert) and the earlier interface's
// /broadcast and /incident views. One domain object, two representations (toV4, toEarlier).
import { alertRoutes } from '../../lib/alerts/routes';
import { createAlertEarlier, createAlertV4, createBroadcast, createIncident } from '../../lib/alerts/create-alert';
import { createComment } from '../../lib/alerts/create-comment';
import { deleteAlert, deleteBroadcast } from '../../lib/alerts/delete-alert';
import {
  BROADCAST_VIEW,
  findAlert,
  findBroadcast,
  findIncident,
  INCIDENT_VIEW,
  listAlertsEarlier,
  listAlertsV4,
  listIncidentLogs,
  listTeamAlerts,
} from '../../lib/alerts/read-alerts';
import { listComments } from '../../lib/alerts/read-comments';
import { alertToEarlier, alertToV4, commentToV4 } from '../../lib/alerts/represent';
import { updateAlertEarlier, updateAlertV4 } from '../../lib/alerts/update-alert';
import { httpHandler } from '../../lib/api/handler';
import { actOnAlert } from '../../lib/alert-transitions/act-on-alert';
import { handoffAndEscalate } from '../../lib/alert-transitions/handoff';
import type { ApiRequest } from '../../lib/http/request';
import { created, noContent, ok } from '../../lib/http/replies';

const v4Action = (action: 'acknowledge' | 'resolve' | 'reject') => async (req: ApiRequest) =>
  ok(alertToV4(await actOnAlert(req.principal, req.params.id, action, 'v4')));
const earlierAction = (action: 'acknowledge' | 'resolve' | 'reject' | 'archive') => async (req: ApiRequest) =>
  ok(alertToEarlier(await actOnAlert(req.principal, req.params.id, action, 'earlier')));

export const handler = httpHandler(alertRoutes, {
  // v4
  list: async (req) => ok(await listAlertsV4(req.principal, req.query)),
  create: async (req) => created(alertToV4(await createAlertV4(req.principal, req.body()))),
  get: async (req) => ok(alertToV4(await findAlert(req.principal, req.params.id))),
  update: async (req) => ok(alertToV4(await updateAlertV4(req.principal, req.params.id, req.body()))),
  delete: async (req) => {
    await deleteAlert(req.principal, req.params.id);
    return noContent();
  },
  acknowledge: v4Action('acknowledge'),
  resolve: v4Action('resolve'),
  reject: v4Action('reject'),
  listComments: async (req) => ok(await listComments(req.principal, req.params.id, req.query, req.iface)),
  createComment: async (req) => created(commentToV4(await createComment(req.principal, req.params.id, req.body()))),
  teamAlerts: async (req) => ok(await listTeamAlerts(req.principal, req.params.id, req.query)),

  // earlier interface
  earlierList: async (req) => ok(await listAlertsEarlier(req.principal, req.query)),
  earlierCreate: async (req) => created(alertToEarlier(await createAlertEarlier(req.principal, req.body()))),
  earlierGet: async (req) => ok(alertToEarlier(await findAlert(req.principal, req.params.id))),
  earlierUpdate: async (req) => ok(alertToEarlier(await updateAlertEarlier(req.principal, req.params.id, req.body()))),
  earlierDelete: async (req) => {
    await deleteAlert(req.principal, req.params.id);
    return noContent();
  },
  earlierAcknowledge: earlierAction('acknowledge'),
  earlierReject: earlierAction('reject'),
  earlierResolve: earlierAction('resolve'),
  earlierArchive: earlierAction('archive'),
  earlierHandoff: async (req) => ok(alertToEarlier(await handoffAndEscalate(req.principal, req.params.id, req.body()))),

  // deprecated views
  broadcastList: async (req) => ok(await listAlertsEarlier(req.principal, req.query, BROADCAST_VIEW)),
  broadcastCreate: async (req) => created(alertToEarlier(await createBroadcast(req.principal, req.body()))),
  broadcastGet: async (req) => ok(alertToEarlier(await findBroadcast(req.principal, req.params.id))),
  broadcastDelete: async (req) => {
    await deleteBroadcast(req.principal, req.params.id);
    return noContent();
  },
  incidentList: async (req) => ok(await listAlertsEarlier(req.principal, req.query, INCIDENT_VIEW)),
  incidentCreate: async (req) => created(alertToEarlier(await createIncident(req.principal, req.body()))),
  incidentGet: async (req) => ok(alertToEarlier(await findIncident(req.principal, req.params.id))),
  incidentUpdate: async (req) => ok(alertToEarlier(await updateAlertEarlier(req.principal, req.params.id, req.body(), INCIDENT_VIEW))),
  incidentDelete: async (req) => {
    await deleteAlert(req.principal, req.params.id, INCIDENT_VIEW);
    return noContent();
  },
  incidentLogs: async (req) => ok(await listIncidentLogs(req.principal, req.params.id, req.query, req.iface)),
});
