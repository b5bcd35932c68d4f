// What POST /public/delivery/sns answers SNS (receive-delivery-receipt.ts). zod/mini: the function
// validates nothing with zod, and this schema (read by the OpenAPI document and the tests only) would
// otherwise load zod's classic API at its start (lib/page-responses/schemas.ts).
import * as z from 'zod/mini';
import { lazySchema } from '../lazy-schema';
import { documentNames } from '../http/document-names';

/** What POST /public/delivery/sns did with an SNS delivery (SNS reads only the status). */
export const DeliveryReceiptResult = lazySchema(() =>
  z.strictObject({
    received: z.enum(['subscription_confirmation', 'unsubscribe_confirmation', 'receipt']),
    confirmed: z.optional(z.boolean()),
    outcome: z.optional(z.enum(['delivered', 'failed', 'recorded', 'already_final', 'unknown_message', 'ignored'])),
  }),
);

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(DeliveryReceiptResult, { id: 'DeliveryReceiptResult' });
