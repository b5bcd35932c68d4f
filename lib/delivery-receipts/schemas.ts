// What POST /public/delivery/sns answers SNS (receive-delivery-receipt.ts).
import * as z from 'zod';
import { lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';

/** What POST /public/delivery/sns did with an SNS delivery (SNS reads only the status). */
export const DeliveryReceiptResult = lazyStrictObject(() => ({
  received: z.enum(['subscription_confirmation', 'unsubscribe_confirmation', 'receipt']),
  confirmed: z.boolean().optional(),
  outcome: z.enum(['delivered', 'failed', 'recorded', 'already_final', 'unknown_message', 'ignored']).optional(),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(DeliveryReceiptResult, { id: 'DeliveryReceiptResult' });
