// The routes of the `inbound` function (functions/http/inbound.ts): the webhooks third-party
// monitoring posts without credentials, PagerDuty's Events API v2 drop-in and Opsgenie's Alert API
// drop-in (its GenieKey is an integration id, checked by the use case, not by the handler). Apart from
// routes.ts, so the inbound function bundles none of the integrations' other routes.
import { declareRoutes } from '../http/route-contract';
import type { OwnErrorDoc, QueryDoc, RouteDeclaration } from '../http/route-contract';
import {
  InboundAccepted,
  OpsgenieAccepted,
  opsgenieActionInput,
  opsgenieCreateInput,
  OpsgenieError,
  OpsgenieRequestStatus,
  PagerDutyAccepted,
  PagerDutyError,
  pagerDutyEventInput,
} from './inbound-schemas';

const OPSGENIE_TAG = 'Opsgenie Alert API drop-in';

const OPSGENIE_ERRORS: readonly OwnErrorDoc[] = [
  { status: 400, description: 'The body is not valid JSON', schema: OpsgenieError },
  {
    status: 401,
    description: 'No GenieKey, or one that names no enabled integration (or lacks its token: GenieKey <id>:<token>)',
    schema: OpsgenieError,
  },
  { status: 403, description: 'The key names an outgoing webhook or a heartbeat, which take no alerts', schema: OpsgenieError },
  { status: 413, description: 'The body is larger than 256 KiB', schema: OpsgenieError },
  { status: 422, description: 'A field is missing or invalid: errors names each by its field', schema: OpsgenieError },
  { status: 429, description: "Over the integration's rate limit: retry after the Retry-After seconds", schema: OpsgenieError },
];

const IDENTIFIER_TYPE: readonly QueryDoc[] = [
  {
    name: 'identifierType',
    required: false,
    description:
      "How the path's identifier is read: id (default; the alert's ULID or alt_ id), alias (the create's alias), tiny (its tiny id)",
    example: 'alias',
  },
];

/** A call on the alert the path names, answered 202 as Opsgenie answers (the work follows through the ingest queue). */
function opsgenieCall(method: 'POST' | 'PUT', verb: string, summary: string, description: string) {
  return {
    method,
    path: `/v2/alerts/{identifier}/${verb}`,
    public: true,
    summary,
    description: `Authorization: GenieKey <integration id>. ${description} Every answer has Opsgenie's shape; nothing is stored for a refused request.`,
    tag: OPSGENIE_TAG,
    body: opsgenieActionInput,
    query: IDENTIFIER_TYPE,
    success: [{ status: 202, description: 'Stored and queued ("Request will be processed")', schema: OpsgenieAccepted }],
    errors: [],
    ownErrors: OPSGENIE_ERRORS,
  } as const satisfies RouteDeclaration;
}

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
  opsgenieCreate: {
    method: 'POST',
    path: '/v2/alerts',
    public: true,
    summary: 'Opsgenie Alert API drop-in: create an alert',
    description:
      "Authorization: GenieKey <integration id> (any enabled integration that takes alerts; GenieKey <id>:<token> when it has a token option). Opsgenie's create-alert request, for any tool configured for Opsgenie (Alertmanager's opsgenie_configs, Grafana's Opsgenie contact point): point its API URL at this service. Checked at once as Opsgenie checks it (message required, at most 130 characters; alias 512; description 15 000; priority P1-P5; the shapes of tags, details, actions, responders and visibleTo) and refused with Opsgenie's 422 naming each field, nothing stored. A valid request is stored and processed like any inbound webhook of the integration (its rate limit and maintenance windows apply): one alert per alias while it is open (a second create counts onto it), priority P1 critical, P2 high, P3 medium, P4 and P5 low (absent: the integration's urgency), tags as tag_list, details, entity, source, user, note, actions and responders kept as additional_data. Every answer has Opsgenie's shape.",
    tag: OPSGENIE_TAG,
    body: opsgenieCreateInput,
    success: [{ status: 202, description: 'Stored and queued ("Request will be processed")', schema: OpsgenieAccepted }],
    errors: [],
    ownErrors: OPSGENIE_ERRORS,
  },
  opsgenieClose: opsgenieCall(
    'POST',
    'close',
    'Opsgenie Alert API drop-in: close an alert',
    "Resolves the alert the identifier names, as the integration: by id (default), alias (within the alerts this integration created) or tiny id, in the integration's account only. An unknown alert is still 202, as in Opsgenie (its log says no_alert).",
  ),
  opsgenieAcknowledge: opsgenieCall(
    'POST',
    'acknowledge',
    'Opsgenie Alert API drop-in: acknowledge an alert',
    'Acknowledges the alert the identifier names, as the integration, found as close finds it.',
  ),
  opsgenieMessage: opsgenieCall(
    'PUT',
    'message',
    "Opsgenie Alert API drop-in: update an alert's message",
    'What Alertmanager sends after each create with update_alerts: true. Checked (message required, at most 130 characters), stored and answered 202, but not applied: the alert keeps the title of its create.',
  ),
  opsgenieDescription: opsgenieCall(
    'PUT',
    'description',
    "Opsgenie Alert API drop-in: update an alert's description",
    'What Alertmanager sends after each create with update_alerts: true. Checked, stored and answered 202, but not applied: the alert keeps the description of its create.',
  ),
  opsgenieRequestStatus: {
    method: 'GET',
    path: '/v2/alerts/requests/{requestId}',
    public: true,
    summary: "Opsgenie Alert API drop-in: a request's status",
    description:
      "Authorization: GenieKey <integration id>. What came of a request this integration sent through the drop-in, as Opsgenie's Get Request Status answers: the action, whether it succeeded, the alert's alt_ id (for close and acknowledge by id) and the alias. 404 while the request is still pending, and for a request of another integration.",
    tag: OPSGENIE_TAG,
    success: [{ status: 200, description: "The request's outcome", schema: OpsgenieRequestStatus }],
    errors: [],
    ownErrors: OPSGENIE_ERRORS.filter((error) => error.status === 401 || error.status === 403).concat([
      { status: 404, description: 'No processed request of this integration has this id', schema: OpsgenieError },
    ]),
  },
});
