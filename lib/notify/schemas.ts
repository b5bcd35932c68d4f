// The representations of a notification on both interfaces (api-v4.md, api-earlier.md), which
// represent.ts's serializers return.
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import { CHANNELS } from './records';
import { instant, jsonObject, prefixIdOf, ulid, unixSeconds } from '../http/response-fields';
import { documentNames } from '../http/document-names';

const channel = lazySchema(() => z.enum(CHANNELS));
const notificationStatus = lazySchema(() => z.enum(['queued', 'sent', 'delivered', 'failed']));
const providerStatus = lazySchema(() =>
  z
    .string()
    .nullable()
    .describe(
      "The provider's last word: accepted, delivered, failed, bundled, waiting, cancelled, unknown, or a delivery receipt's event type (Delivery, Bounce, TEXT_DELIVERED, VOICE_NO_ANSWER, …)",
    ),
);

export const NotificationV4 = lazyStrictObject(() => ({
  id: ulid,
  prefix_id: prefixIdOf('notification'),
  account_id: ulid,
  account_user_id: ulid.nullable(),
  alert_id: ulid.nullable(),
  broadcast_id: ulid.nullable(),
  workflow_id: ulid.nullable(),
  channel,
  provider: z.string().nullable(),
  provider_message_id: z.string().nullable().describe("The provider's id of the message: delivery receipts are matched by it"),
  provider_status: providerStatus,
  template: z.string(),
  to: z.string(),
  subject: z.string().nullable(),
  message: z.string(),
  status: notificationStatus,
  sent_at: instant.nullable(),
  delivered_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
}));

export const NotificationEarlier = lazyStrictObject(() => ({
  sid: prefixIdOf('account'),
  id: prefixIdOf('notification'),
  createdAt: instant,
  updatedAt: instant,
  meta: jsonObject,
  thirdparty_id: z.string().nullable(),
  source_id: prefixIdOf('alert').nullable(),
  user_id: prefixIdOf('user').nullable(),
  group_id: prefixIdOf('notification').nullable(),
  workflow_id: prefixIdOf('workflow').nullable(),
  stakeholder_id: z.null(),
  channel,
  provider: z.string().nullable(),
  template: z.string(),
  to: z.string(),
  from: z.string(),
  direction: z.literal('OUTGOING'),
  subject: z.string().nullable(),
  message: z.string(),
  cost: z.number(),
  status: notificationStatus,
  provider_status: providerStatus,
  sent: unixSeconds.nullable(),
  delivered: unixSeconds.nullable(),
  err: z.array(z.string()),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(NotificationV4, { id: 'NotificationV4' });
documentNames.add(NotificationEarlier, { id: 'NotificationEarlier' });
