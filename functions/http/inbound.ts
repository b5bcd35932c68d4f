// Entry point: inbound webhooks (POST /integration/{id}, no credentials). Flow: event → store the
// request and queue it (lib/integrations/ingest/receive-webhook) → 202 {log_id}.
import { routesOf } from '../../infra/routes';
import { httpHandler } from '../../lib/api/handler';
import { accepted } from '../../lib/http/responses';
import { receiveWebhook } from '../../lib/integrations/ingest/receive-webhook';

export const handler = httpHandler(routesOf('inbound'), {
  receive: async (req) =>
    accepted(
      await receiveWebhook({
        rawId: req.params.id,
        body: req.rawBody,
        headers: req.headers,
        query: req.query.toString(),
        receivedAt: req.receivedAt,
        sourceIp: req.sourceIp,
      }),
    ),
});
