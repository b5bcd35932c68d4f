// Entry point: inbound webhooks, no credentials. Flow: event → store the request and queue it
// (lib/integrations/ingest/receive-webhook) → 202 {log_id}; and PagerDuty's Events API v2 drop-in
// (POST /v2/enqueue → lib/integrations/pagerduty-enqueue) → PagerDuty's own answers.
import { inboundRoutes } from '../../lib/integrations/inbound-routes';
import { httpHandler } from '../../lib/api/handler';
import { accepted } from '../../lib/http/replies';
import { inboundRequest } from '../../lib/integrations/ingest/inbound-request';
import { receiveWebhook } from '../../lib/integrations/ingest/receive-webhook';
import { enqueuePagerDutyEvent } from '../../lib/integrations/pagerduty-enqueue';

export const handler = httpHandler(inboundRoutes, {
  receive: async (req) => accepted(await receiveWebhook({ rawId: req.params.id, ...inboundRequest(req) })),
  enqueue: async (req) => enqueuePagerDutyEvent(inboundRequest(req)),
});
