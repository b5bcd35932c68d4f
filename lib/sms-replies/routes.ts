// The routes of the `smsInbound` function (functions/http/sms-inbound.ts): replies to pages by SMS,
// End User Messaging's inbound SMS delivered by SNS over HTTPS (the SNS signature and the topic are
// the credential).
import { declareRoutes } from '../http/route-contract';
import { InboundSmsResult } from './schemas';

export const smsInboundRoutes = declareRoutes('smsInbound', {
  receive: {
    method: 'POST',
    path: '/public/sms/inbound',
    public: true,
    summary: 'Inbound SMS: replies to pages (End User Messaging through SNS)',
    description:
      'SNS delivers End User Messaging two-way SMS here over HTTPS. Only messages whose SNS signature verifies and whose TopicArn is SMS_INBOUND_TOPIC_ARN are read (403 otherwise; 404 when it is unset; 503 when the signing certificate cannot be fetched, so SNS delivers again). A SubscriptionConfirmation is confirmed. A reply "A" or "R", with the tiny id when several alerts wait ("A 42"), acknowledges or rejects the sender\'s page; anything else gets a help SMS.',
    tag: 'Notifications',
    anyBody: true,
    success: [{ status: 200, description: 'What was done', schema: InboundSmsResult }],
    errors: [403, 404],
  },
});
