// The routes of the `alerts` function (functions/http/alerts.ts): alerts on both interfaces
// (/api/v4/alerts, /alert), their transitions and comments, and the earlier interface's deprecated
// /broadcast and /incident views of alerts.
import { NESTED_LIST_ERRORS, declareRoutes } from '../http/route-contract';
import { standardRoutes } from '../http/standard-routes';
import { LogEarlier } from '../logs/schemas';
import {
  AlertEarlier,
  AlertV4,
  commentInput,
  CommentV4,
  earlierCreateInput,
  earlierUpdateInput,
  handoffInput,
  v4CreateInput,
  v4UpdateInput,
} from './schemas';

const v4 = '/api/v4';

const action = (verb: string, from: string, effect: string) =>
  ({
    method: 'POST',
    summary: `${verb[0].toUpperCase()}${verb.slice(1)} an alert`,
    description: `Allowed from ${from}; any other status is a 409 naming the current one. ${effect} Any body is ignored.`,
    errors: [401, 404, 409],
  }) as const;

const v4Action = <const Path extends string>(path: Path, verb: string, from: string, effect: string) => ({
  ...action(verb, from, effect),
  path,
  tag: 'Alerts',
  success: [{ status: 200, description: 'The updated alert', schema: AlertV4 }] as const,
});

const earlierAction = <const Path extends string>(path: Path, verb: string, from: string, effect: string) => ({
  ...action(verb, from, effect),
  path,
  tag: 'Alerts (earlier)',
  success: [{ status: 200, description: 'The updated alert', schema: AlertEarlier }] as const,
});

const REJECT =
  'The caller must hold an open notification workflow for the alert (else 409): it closes, and once no other workflow of that step is open the alert escalates to the next layer, staying open (dropped when no layer is left).';

const VIEWS = 'Broadcasts and incidents (earlier, deprecated)';
const BROADCASTER = 'Needs the admin or broadcaster role (403 otherwise).';

export const alertRoutes = declareRoutes('alerts', {
  // v4
  ...standardRoutes(`${v4}/alerts`, {
    tag: 'Alerts',
    noun: 'alert',
    plural: 'alerts',
    item: AlertV4,
    create: v4CreateInput,
    update: v4UpdateInput,
    form: true,
    descriptions: {
      create:
        'Needs at least one destination. The alert is answered open and handed to routing asynchronously. tags is another name for tag_list; null inside meta unsets a key.',
      list: 'tags filters as tag_list.',
    },
  }),
  acknowledge: v4Action(
    `${v4}/alerts/{id}/acknowledge`,
    'acknowledge',
    'open, dropped or suppressed',
    'acknowledged_at is set on the first acknowledgement only.',
  ),
  resolve: v4Action(`${v4}/alerts/{id}/resolve`, 'resolve', 'open, dropped or acknowledged', 'Sets resolved_at.'),
  reject: v4Action(`${v4}/alerts/{id}/reject`, 'reject', 'open', REJECT),
  listComments: {
    method: 'GET',
    path: `${v4}/alerts/{id}/comments`,
    summary: "List an alert's comments",
    tag: 'Alerts',
    list: CommentV4,
    success: [{ status: 200, description: 'A page of comments' }],
    errors: NESTED_LIST_ERRORS,
  },
  createComment: {
    method: 'POST',
    path: `${v4}/alerts/{id}/comments`,
    summary: 'Comment on an alert',
    tag: 'Alerts',
    body: commentInput,
    form: true,
    success: [{ status: 201, description: 'The new comment', schema: CommentV4 }],
    errors: [400, 401, 404, 413, 'invalid'],
  },
  teamAlerts: {
    method: 'GET',
    path: `${v4}/teams/{id}/alerts`,
    summary: "List a team's alerts",
    description:
      "Alerts sent to the team or assigned to it now. Newest first (or sort=created_at) unfiltered or with status=, read from the team's own index at any size; other filters read the team's alerts within the list read budget.",
    tag: 'Alerts',
    list: AlertV4,
    success: [{ status: 200, description: 'A page of alerts' }],
    errors: NESTED_LIST_ERRORS,
  },

  // earlier interface
  ...standardRoutes(
    '/alert',
    {
      tag: 'Alerts (earlier)',
      noun: 'alert',
      plural: 'alerts',
      item: AlertEarlier,
      create: earlierCreateInput,
      update: earlierUpdateInput,
      form: false,
      descriptions: {
        create: 'destination_ids: team, user, account user, router or schedule prefix ids. urgency defaults to medium.',
      },
    },
    { prefix: 'earlier' },
  ),
  earlierAcknowledge: earlierAction('/alert/{id}/acknowledge', 'acknowledge', 'open or dropped', 'Records the caller as acknowledgedby.'),
  earlierReject: earlierAction('/alert/{id}/reject', 'reject', 'open', REJECT),
  earlierResolve: earlierAction('/alert/{id}/resolve', 'resolve', 'acknowledged', 'Records the caller as resolvedby.'),
  earlierArchive: earlierAction('/alert/{id}/archive', 'archive', 'resolved or dropped', 'Records the caller as archivedby.'),
  earlierHandoff: {
    method: 'POST',
    path: '/alert/{id}/handoff',
    summary: 'Hand an alert off',
    description:
      'Allowed from open or acknowledged (409 otherwise). to is a user (usr_) or team (tem_) id of the account: appends {to, from, time, acknowledged} to handoffs, assigns the alert to it, sets it open (acknowledged stays) and notifies the new assignee.',
    tag: 'Alerts (earlier)',
    body: handoffInput,
    success: [{ status: 200, description: 'The updated alert', schema: AlertEarlier }],
    errors: [400, 401, 404, 409, 413],
  },

  // the deprecated views
  ...standardRoutes(
    '/broadcast',
    {
      tag: VIEWS,
      noun: 'broadcast',
      plural: 'broadcasts',
      item: AlertEarlier,
      create: earlierCreateInput,
      form: false,
      writers: { create: BROADCASTER, delete: BROADCASTER },
      descriptions: {
        list: 'A view of alerts: those of subtype broadcast.',
        create: 'Creates an alert of subtype broadcast; destination_ids names users and teams.',
        get: 'An alert of subtype broadcast; any other alert is a 404.',
      },
    },
    { prefix: 'broadcast' },
  ),
  ...standardRoutes(
    '/incident',
    {
      tag: VIEWS,
      noun: 'incident',
      plural: 'incidents',
      item: AlertEarlier,
      create: earlierCreateInput,
      update: earlierUpdateInput,
      form: false,
      descriptions: {
        list: 'A view of alerts: those with meta.incident true.',
        create: 'Creates an alert with meta.incident true; destination_ids names users and teams.',
        get: 'An alert with meta.incident true; any other alert is a 404.',
        update: 'meta.incident, meta.incident_severity and meta.incident_message set the incident flags.',
      },
    },
    { prefix: 'incident' },
  ),
  incidentLogs: {
    method: 'GET',
    path: '/incident/{id}/logs',
    summary: "List an incident's logs",
    description: "The alert's timeline: one log per change (who, what, when).",
    tag: VIEWS,
    list: LogEarlier,
    success: [{ status: 200, description: 'A page of logs' }],
    errors: NESTED_LIST_ERRORS,
  },
});
