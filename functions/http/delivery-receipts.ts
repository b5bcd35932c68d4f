// Entry point: delivery receipts (POST /public/delivery/sns), SES and End User Messaging events
// delivered by SNS over HTTPS. Flow: the raw SNS envelope → lib/delivery-receipts (signature, topic,
// then the notification the provider's message id names takes the event's outcome) → 200 with what
// was done (SNS only reads the status).
import { httpHandler } from '../../lib/api/handler';
import { deliveryReceiptRoutes } from '../../lib/delivery-receipts/routes';
import { receiveDeliveryReceipt } from '../../lib/delivery-receipts/receive-delivery-receipt';
import { ok } from '../../lib/http/replies';

export const handler = httpHandler(deliveryReceiptRoutes, {
  receive: async (req) => ok(await receiveDeliveryReceipt(req.rawBody)),
});
