// Entry point: inbound SMS (POST /public/sms/inbound), End User Messaging's two-way SMS delivered by
// SNS over HTTPS. Flow: the raw SNS envelope → lib/sms-replies (signature, topic, then the reply
// acknowledges or rejects the sender's page) → 200 with what was done (SNS only reads the status).
import { smsInboundRoutes } from '../../lib/sms-replies/routes';
import { httpHandler } from '../../lib/api/handler';
import { ok } from '../../lib/http/replies';
import { receiveInboundSms } from '../../lib/sms-replies/receive-inbound-sms';

export const handler = httpHandler(smsInboundRoutes, {
  receive: async (req) => ok(await receiveInboundSms(req.rawBody)),
});
