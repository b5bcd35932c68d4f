// The routes of the `deliveryReceipts` function (functions/http/delivery-receipts.ts): SES and End
// User Messaging delivery events, delivered by SNS over HTTPS (the SNS signature and the topic are
// the credential).
import { declareRoutes } from '../http/route-contract';
import { DeliveryReceiptResult } from './schemas';

export const deliveryReceiptRoutes = declareRoutes('deliveryReceipts', {
  receive: {
    method: 'POST',
    path: '/public/delivery/sns',
    public: true,
    summary: 'Delivery receipts: SES and End User Messaging events (through SNS)',
    description:
      "SNS delivers the stack's delivery topic here over HTTPS. Only messages whose SNS signature verifies (an unreachable signing certificate: accepted unverified unless SNS_SIGNATURE_REQUIRED, then 503) and whose TopicArn is DELIVERY_TOPIC_ARN are read (403 otherwise; 404 when it is unset). A SubscriptionConfirmation is confirmed. An event is matched by the provider's message id (the notification's provider_message_id): SES Delivery, End User Messaging TEXT_DELIVERED and VOICE_COMPLETED → delivered; SES Bounce (Permanent), Complaint, Reject, RenderingFailure and the End User Messaging failures → failed (the page fails over to the next channel); other event types only show as provider_status. delivered and failed are final: the first wins. An unknown message id is ignored (200). See docs/api.md#delivery-receipts.",
    tag: 'Notifications',
    anyBody: true,
    success: [{ status: 200, description: 'What was done', schema: DeliveryReceiptResult }],
    errors: [400, 403, 404, 413],
  },
});
