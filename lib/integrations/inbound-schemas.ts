// What the inbound routes read and answer (lib/integrations/inbound-routes.ts): the stored request's
// log id, and PagerDuty's Events API v2 event and answers on its drop-in. Apart from schemas.ts, so
// the inbound function bundles none of the integrations' other schemas.
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';
import { prefixIdOf } from '../http/response-fields';
import { MAX_DEDUP_KEY, MAX_SUMMARY, PAGERDUTY_ACTIONS, PAGERDUTY_SEVERITIES } from './adapters/pagerduty-event-rules';

/**
 * A PagerDuty Events API v2 event (POST /v2/enqueue). ./adapters/pagerduty-event-rules.ts
 * checks it by hand, to answer in PagerDuty's words; this is its shape for the document. Fields
 * PagerDuty does not know are ignored, as PagerDuty ignores them.
 */
const pagerDutyText = lazySchema(() => z.string().nullable().optional());
export const pagerDutyEventInput = lazySchema(() =>
  z.looseObject({
    routing_key: z.string().min(1).describe("The integration's id: its int_ prefix id or ULID"),
    event_action: z.enum(PAGERDUTY_ACTIONS),
    dedup_key: z
      .string()
      .max(MAX_DEDUP_KEY)
      .nullable()
      .optional()
      .describe('Names the alert; required for acknowledge and resolve. A trigger without it gets one in the answer.'),
    payload: z
      .looseObject({
        summary: z.string().min(1).max(MAX_SUMMARY),
        source: z.string().min(1),
        severity: z.enum(PAGERDUTY_SEVERITIES),
        timestamp: z.string().nullable().optional().describe('ISO 8601'),
        component: pagerDutyText,
        group: pagerDutyText,
        class: pagerDutyText,
        custom_details: z.unknown().optional(),
      })
      .optional()
      .describe('Required for trigger (not read for acknowledge and resolve)'),
    images: z
      .array(z.looseObject({ src: z.string().min(1), href: pagerDutyText, alt: pagerDutyText }))
      .nullable()
      .optional(),
    links: z
      .array(z.looseObject({ href: z.string().min(1), text: pagerDutyText }))
      .nullable()
      .optional(),
    client: pagerDutyText,
    client_url: pagerDutyText,
  }),
);

/** POST /integration/:id: the stored request's log id, answered before any alert work. */
export const InboundAccepted = lazyStrictObject(() => ({
  log_id: prefixIdOf('log'),
  ignored: z.literal('maintenance_window').optional(),
}));

// ---- PagerDuty's own answers ----

/** An accepted event; `dedup_key` is the sender's, or the one generated for a trigger without it. */
export const PagerDutyAccepted = lazyStrictObject(() => ({
  status: z.literal('success'),
  message: z.literal('Event processed'),
  dedup_key: z.string().min(1),
}));

/** A refused event, as PagerDuty answers it: every fault in `errors`. */
export const PagerDutyError = lazyStrictObject(() => ({
  status: z.enum(['invalid event', 'throttle event', 'forbidden', 'error']),
  message: z.string(),
  errors: z.array(z.string()),
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(pagerDutyEventInput, { id: 'PagerDutyEventInput' });
documentNames.add(InboundAccepted, { id: 'InboundAccepted' });
documentNames.add(PagerDutyAccepted, { id: 'PagerDutyAccepted' });
documentNames.add(PagerDutyError, { id: 'PagerDutyError' });
