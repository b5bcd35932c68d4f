// Entry point: inbound SMS (POST /public/sms/inbound), End User Messaging's two-way SMS delivered by
// SNS over HTTPS. Flow: the raw SNS envelope → lib/sms-replies (signature, topic, then the reply
// acknowledges or rejects the sender's page) → 200 with what was done (SNS only reads the status).
import { routesOf } from '../../infra/routes';
import { httpHandler } from '../../lib/api/handler';
import { ok } from '../../lib/http/replies';
import { receiveInboundSms } from '../../lib/sms-replies/receive-inbound-sms';

export const handler = httpHandler(routesOf('smsInbound'), {
  receive: async (req) => ok(await receiveInboundSms(req.rawBody)),
});
