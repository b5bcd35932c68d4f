// What POST /public/sms/inbound answers SNS (receive-inbound-sms.ts). zod/mini: the function
// validates nothing with zod, and this schema (read by the OpenAPI document and the tests only) would
// otherwise load zod's classic API at its start (lib/page-responses/schemas.ts).
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { documentNames } from '../http/document-names';

/** What POST /public/sms/inbound did with an SNS delivery (SNS reads only the status). */
export const InboundSmsResult = lazySchema(() =>
  z.strictObject({
    received: z.enum(['subscription_confirmation', 'unsubscribe_confirmation', 'sms']),
    confirmed: z.optional(z.boolean()),
    outcome: z.optional(z.enum(['acknowledged', 'rejected', 'refused', 'not_understood', 'ambiguous', 'nothing_pending', 'ignored'])),
  }),
);

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(InboundSmsResult, { id: 'InboundSmsResult' });
