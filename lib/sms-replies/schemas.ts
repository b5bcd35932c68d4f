// What POST /public/sms/inbound answers SNS (receive-inbound-sms.ts).
import * as z from 'zod';
import { lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';

/** What POST /public/sms/inbound did with an SNS delivery (SNS reads only the status). */
export const InboundSmsResult = lazyStrictObject(() => ({
  received: z.enum(['subscription_confirmation', 'unsubscribe_confirmation', 'sms']),
  confirmed: z.boolean().optional(),
  outcome: z.enum(['acknowledged', 'rejected', 'refused', 'not_understood', 'ambiguous', 'nothing_pending', 'ignored']).optional(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(InboundSmsResult, { id: 'InboundSmsResult' });
