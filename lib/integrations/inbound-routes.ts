// The routes of the `inbound` function (functions/http/inbound.ts): the webhooks third-party
// monitoring posts without credentials, and PagerDuty's Events API v2 drop-in. Apart from
// routes.ts, so the inbound function bundles none of the integrations' other routes.
import { declareRoutes } from '../http/route-contract';
import { InboundAccepted, PagerDutyAccepted, PagerDutyError, pagerDutyEventInput } from './inbound-schemas';

export const inboundRoutes = declareRoutes('inbound', {
  receive: {
    method: 'POST',
    path: '/integration/{id}',
    public: true,
    summary: 'Inbound webhook',
    description:
      'No credentials. Any body up to 256 KiB (JSON, form-encoded or text) is stored as it came as a log and answered 202 before any alert work; the integration type\'s adapter then turns it into create, acknowledge, resolve or ignore, exactly once. During a maintenance window listing the integration the request is logged and ignored ("ignored": "maintenance_window"). When the integration has a token option, the pagertree-token header must carry it (403). To a heartbeat integration, any request is a beat: the body is ignored, and a GET without credentials is a beat too.',
    tag: 'Inbound webhooks',
    anyBody: true,
    success: [{ status: 202, description: 'Stored and queued', schema: InboundAccepted }],
    errors: [403, 404, 405, 413, 429],
  },
  enqueue: {
    method: 'POST',
    path: '/v2/enqueue',
    public: true,
    summary: 'PagerDuty Events API v2 drop-in',
    description:
      "No credentials. A PagerDuty Events API v2 event, for any tool that can page PagerDuty: point its events URL at this route and use an integration's id (int_… or ULID) as the routing key. The event is checked at once as PagerDuty checks it (required fields per action, the four severities, length limits, images and links; event_action and severity are read case-insensitively) and refused with PagerDuty's 400 naming every fault, nothing stored; an unknown or disabled integration is an invalid routing key. A valid event is stored and processed like any inbound webhook of the integration (its token, rate limit and maintenance windows apply) and answered with PagerDuty's 202. A trigger without dedup_key gets one (the log's prefix id), returned for the acknowledge and resolve that follow. payload.custom_details, component, group, class, source, links and images are kept on the alert as additional_data. Every answer has PagerDuty's shape.",
    tag: 'Inbound webhooks',
    body: pagerDutyEventInput,
    success: [{ status: 202, description: 'Stored and queued (PagerDuty\'s "Event processed")', schema: PagerDutyAccepted }],
    errors: [],
    ownErrors: [
      {
        status: 400,
        description: 'Invalid event: malformed JSON, a missing or invalid field, or an invalid routing key (each fault in errors)',
        schema: PagerDutyError,
      },
      {
        status: 403,
        description: 'The integration has a token option and the pagertree-token header does not carry it',
        schema: PagerDutyError,
      },
      { status: 413, description: 'The event is larger than 256 KiB', schema: PagerDutyError },
      { status: 429, description: 'Throttled: retry after the Retry-After seconds', schema: PagerDutyError },
    ],
  },
});
