// The routes of the `broadcasts` function (functions/http/broadcasts.ts): broadcasts on v4 (the
// earlier /broadcast is a view of alerts: lib/alerts/routes.ts, docs/api.md#broadcasts).
import { declareRoutes } from '../http/route-contract';
import { standardRoutes } from '../http/standard-routes';
import { BroadcastV4, createBroadcastInput, respondInput, updateBroadcastInput } from './schemas';

const v4 = '/api/v4';

export const broadcastRoutes = declareRoutes('broadcasts', {
  ...standardRoutes(`${v4}/broadcasts`, {
    tag: 'Broadcasts',
    noun: 'broadcast',
    plural: 'broadcasts',
    item: BroadcastV4,
    create: createBroadcastInput,
    update: updateBroadcastInput,
    form: true,
    writers: {
      create: 'Needs the admin or broadcaster role (403 otherwise).',
      update: "Account admins and the broadcast's creator (403 otherwise).",
      delete: "Account admins and the broadcast's creator (403 otherwise).",
    },
    extra: { update: [409] },
    descriptions: {
      create:
        'Needs a title, at least one destination (teams, account users) and, when response_requested is true, at least one entry of broadcast_response_options_attributes; response_requested_by must lie ahead. Answered queued; it is delivered asynchronously (template alert_broadcast) to every member and admin of the teams and every account user, each person once, and becomes open once sent (errored when nothing could be sent). Not an alert: the earlier /broadcast view does not show it.',
      update: 'title, description and tag_list change; status is writable only as closed (from queued or open, else 409).',
      delete: 'Its notifications stay.',
    },
  }),
  respond: {
    method: 'POST',
    path: `${v4}/broadcasts/{id}/respond`,
    summary: 'Respond to a broadcast',
    description:
      'By an addressee (403 otherwise) of an open broadcast that asks for a response (409 otherwise, and once response_requested_by has passed). One answer per person: a second replaces the first. The option is named by its id; one of another broadcast is a 422. Answers the broadcast with its counts.',
    tag: 'Broadcasts',
    body: respondInput,
    form: true,
    success: [{ status: 200, description: 'The broadcast, with the answer counted', schema: BroadcastV4 }],
    errors: [400, 401, 403, 404, 409, 413, 'invalid'],
  },
});
