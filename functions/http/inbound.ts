// Entry point: inbound webhooks, no credentials. Flow: event → store the request and queue it
// (lib/integrations/ingest/receive-webhook) → 202 {log_id}; and PagerDuty's Events API v2 drop-in
// (POST /v2/enqueue → lib/integrations/pagerduty-enqueue) → PagerDuty's own answers; Opsgenie's Alert
// API drop-in (/v2/alerts… → lib/integrations/opsgenie-alert-api) → Opsgenie's own answers.
import { inboundRoutes } from '../../lib/integrations/inbound-routes';
import { httpHandler } from '../../lib/api/handler';
import { accepted } from '../../lib/http/replies';
import { inboundRequest } from '../../lib/integrations/ingest/inbound-request';
import { receiveWebhook } from '../../lib/integrations/ingest/receive-webhook';
import { receiveOpsgenieRequest } from '../../lib/integrations/opsgenie-alert-api';
import { opsgenieRequestStatus } from '../../lib/integrations/opsgenie-request-status';
import { enqueuePagerDutyEvent } from '../../lib/integrations/pagerduty-enqueue';

export const handler = httpHandler(inboundRoutes, {
  receive: async (req) => accepted(await receiveWebhook({ rawId: req.params.id, ...inboundRequest(req) })),
  enqueue: async (req) => enqueuePagerDutyEvent(inboundRequest(req)),
  opsgenieCreate: async (req) => receiveOpsgenieRequest({ verb: 'create' }, inboundRequest(req)),
  opsgenieClose: async (req) =>
    receiveOpsgenieRequest({ verb: 'close', identifier: pathSegment(req.params.identifier) }, inboundRequest(req)),
  opsgenieAcknowledge: async (req) =>
    receiveOpsgenieRequest({ verb: 'acknowledge', identifier: pathSegment(req.params.identifier) }, inboundRequest(req)),
  opsgenieMessage: async (req) =>
    receiveOpsgenieRequest({ verb: 'message', identifier: pathSegment(req.params.identifier) }, inboundRequest(req)),
  opsgenieDescription: async (req) =>
    receiveOpsgenieRequest({ verb: 'description', identifier: pathSegment(req.params.identifier) }, inboundRequest(req)),
  opsgenieRequestStatus: async (req) => opsgenieRequestStatus(req.params.requestId, req),
});

/** A path parameter as the sender meant it: percent escapes decoded (an alias may hold any character). */
function pathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
