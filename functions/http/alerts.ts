// Entry point: alerts on both interfaces (/api/v4/alerts, /alert) and the earlier interface's
// /broadcast and /incident views. One domain object, two representations (toV4, toEarlier).
// Each kind of route loads its use case with its first request (a chunk of its own in the deployed
// bundle): a cold start that answers a list does not load creation's, the transitions' escalation
// stop or the comments' code, and one that acknowledges does not load the lists' indexes (issue 21).
import { alertRoutes } from '../../lib/alerts/routes';
import { httpHandler } from '../../lib/api/handler';
import type { ApiRequest } from '../../lib/http/request';
import { created, noContent, ok } from '../../lib/http/replies';
import { loadOnce } from '../../lib/load-once';

const loadAlertsReadComments = /* @__PURE__ */ loadOnce(() => import('../../lib/alerts/read-comments'));
const loadAlertsCreateComment = /* @__PURE__ */ loadOnce(() => import('../../lib/alerts/create-comment'));
const loadAlertTransitionsHandoff = /* @__PURE__ */ loadOnce(() => import('../../lib/alert-transitions/handoff'));
const represent = /* @__PURE__ */ loadOnce(() => import('../../lib/alerts/represent'));
const readAlerts = /* @__PURE__ */ loadOnce(() => import('../../lib/alerts/read-alerts'));

const reads = () => Promise.all([readAlerts(), represent()]);
const creation = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/alerts/create-from-request'), represent()]));
const updates = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/alerts/update-alert'), represent()]));
const deletion = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/alerts/delete-alert'), readAlerts()]));
const transitions = /* @__PURE__ */ loadOnce(() => Promise.all([import('../../lib/alert-transitions/act-on-alert'), represent()]));

const v4Action = (action: 'acknowledge' | 'resolve' | 'reject') => async (req: ApiRequest) => {
  const [{ actOnAlert }, { alertToV4 }] = await transitions();
  return ok(alertToV4(await actOnAlert(req.principal, req.params.id, action, 'v4')));
};
const earlierAction = (action: 'acknowledge' | 'resolve' | 'reject' | 'archive') => async (req: ApiRequest) => {
  const [{ actOnAlert }, { alertToEarlier }] = await transitions();
  return ok(alertToEarlier(await actOnAlert(req.principal, req.params.id, action, 'earlier')));
};

export const handler = httpHandler(alertRoutes, {
  // v4
  list: async (req) => {
    const [{ listAlertsV4 }] = await reads();
    return ok(await listAlertsV4(req.principal, req.query));
  },
  create: async (req) => {
    const [{ createAlertV4 }, { alertToV4 }] = await creation();
    return created(alertToV4(await createAlertV4(req.principal, req.body())));
  },
  get: async (req) => {
    const [{ findAlert }, { alertToV4 }] = await reads();
    return ok(alertToV4(await findAlert(req.principal, req.params.id)));
  },
  update: async (req) => {
    const [{ updateAlertV4 }, { alertToV4 }] = await updates();
    return ok(alertToV4(await updateAlertV4(req.principal, req.params.id, req.body())));
  },
  delete: async (req) => {
    const [{ deleteAlert }] = await deletion();
    await deleteAlert(req.principal, req.params.id);
    return noContent();
  },
  acknowledge: v4Action('acknowledge'),
  resolve: v4Action('resolve'),
  reject: v4Action('reject'),
  listComments: async (req) => {
    const { listComments } = await loadAlertsReadComments();
    return ok(await listComments(req.principal, req.params.id, req.query, req.iface));
  },
  createComment: async (req) => {
    const [{ createComment }, { commentToV4 }] = await Promise.all([loadAlertsCreateComment(), represent()]);
    return created(commentToV4(await createComment(req.principal, req.params.id, req.body())));
  },
  teamAlerts: async (req) => {
    const [{ listTeamAlerts }] = await reads();
    return ok(await listTeamAlerts(req.principal, req.params.id, req.query));
  },

  // earlier interface
  earlierList: async (req) => {
    const [{ listAlertsEarlier }] = await reads();
    return ok(await listAlertsEarlier(req.principal, req.query));
  },
  earlierCreate: async (req) => {
    const [{ createAlertEarlier }, { alertToEarlier }] = await creation();
    return created(alertToEarlier(await createAlertEarlier(req.principal, req.body())));
  },
  earlierGet: async (req) => {
    const [{ findAlert }, { alertToEarlier }] = await reads();
    return ok(alertToEarlier(await findAlert(req.principal, req.params.id)));
  },
  earlierUpdate: async (req) => {
    const [{ updateAlertEarlier }, { alertToEarlier }] = await updates();
    return ok(alertToEarlier(await updateAlertEarlier(req.principal, req.params.id, req.body())));
  },
  earlierDelete: async (req) => {
    const [{ deleteAlert }] = await deletion();
    await deleteAlert(req.principal, req.params.id);
    return noContent();
  },
  earlierAcknowledge: earlierAction('acknowledge'),
  earlierReject: earlierAction('reject'),
  earlierResolve: earlierAction('resolve'),
  earlierArchive: earlierAction('archive'),
  earlierHandoff: async (req) => {
    const [{ handoffAndEscalate }, { alertToEarlier }] = await Promise.all([loadAlertTransitionsHandoff(), represent()]);
    return ok(alertToEarlier(await handoffAndEscalate(req.principal, req.params.id, req.body())));
  },

  // deprecated views
  broadcastList: async (req) => {
    const [{ listAlertsEarlier, BROADCAST_VIEW }] = await reads();
    return ok(await listAlertsEarlier(req.principal, req.query, BROADCAST_VIEW));
  },
  broadcastCreate: async (req) => {
    const [{ createBroadcast }, { alertToEarlier }] = await creation();
    return created(alertToEarlier(await createBroadcast(req.principal, req.body())));
  },
  broadcastGet: async (req) => {
    const [{ findBroadcast }, { alertToEarlier }] = await reads();
    return ok(alertToEarlier(await findBroadcast(req.principal, req.params.id)));
  },
  broadcastDelete: async (req) => {
    const [{ deleteBroadcast }] = await deletion();
    await deleteBroadcast(req.principal, req.params.id);
    return noContent();
  },
  incidentList: async (req) => {
    const [{ listAlertsEarlier, INCIDENT_VIEW }] = await reads();
    return ok(await listAlertsEarlier(req.principal, req.query, INCIDENT_VIEW));
  },
  incidentCreate: async (req) => {
    const [{ createIncident }, { alertToEarlier }] = await creation();
    return created(alertToEarlier(await createIncident(req.principal, req.body())));
  },
  incidentGet: async (req) => {
    const [{ findIncident }, { alertToEarlier }] = await reads();
    return ok(alertToEarlier(await findIncident(req.principal, req.params.id)));
  },
  incidentUpdate: async (req) => {
    const [[{ updateAlertEarlier }, { alertToEarlier }], [{ INCIDENT_VIEW }]] = await Promise.all([updates(), reads()]);
    return ok(alertToEarlier(await updateAlertEarlier(req.principal, req.params.id, req.body(), INCIDENT_VIEW)));
  },
  incidentDelete: async (req) => {
    const [{ deleteAlert }, { INCIDENT_VIEW }] = await deletion();
    await deleteAlert(req.principal, req.params.id, INCIDENT_VIEW);
    return noContent();
  },
  incidentLogs: async (req) => {
    const [{ listIncidentLogs }] = await reads();
    return ok(await listIncidentLogs(req.principal, req.params.id, req.query, req.iface));
  },
});
