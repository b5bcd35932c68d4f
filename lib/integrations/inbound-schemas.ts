// What the inbound routes read and answer (lib/integrations/inbound-routes.ts): the stored request's
// log id, and PagerDuty's Events API v2 event and answers on its drop-in. Apart from schemas.ts, so
// the inbound function bundles none of the integrations' other schemas.
import * as z from 'zod';
import { lazySchema, lazyStrictObject } from '../lazy-schema';
import { documentNames } from '../http/document-names';
import { prefixIdOf } from '../http/response-fields';
import { OPSGENIE_LIMITS, OPSGENIE_PRIORITIES, OPSGENIE_RESPONDER_TYPES } from './adapters/opsgenie-alert-rules';
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

// ---- Opsgenie's Alert API (its drop-in, docs/api.md#opsgenie-alert-api-drop-in) ----

const opsgenieRecipients = lazySchema(() =>
  z
    .array(
      z.looseObject({
        type: z.enum(OPSGENIE_RESPONDER_TYPES),
        id: z.string().optional(),
        name: z.string().optional(),
        username: z.string().optional(),
      }),
    )
    .nullable()
    .optional(),
);

/**
 * Opsgenie's create-alert request (POST /v2/alerts). ./adapters/opsgenie-alert-rules.ts checks it by
 * hand, to answer with Opsgenie's 422; this is its shape for the document.
 */
export const opsgenieCreateInput = lazySchema(() =>
  z.looseObject({
    message: z.string().min(1).max(OPSGENIE_LIMITS.message).describe("The alert's title (at most 130 characters)"),
    alias: z
      .string()
      .max(OPSGENIE_LIMITS.alias)
      .nullable()
      .optional()
      .describe('Names the alert: a create with the alias of an open alert counts onto it; close and acknowledge find it by it'),
    description: z.string().max(OPSGENIE_LIMITS.description).nullable().optional(),
    priority: z
      .enum(OPSGENIE_PRIORITIES)
      .nullable()
      .optional()
      .describe("P1 critical, P2 high, P3 medium, P4 and P5 low; absent: the integration's urgency"),
    tags: z.array(z.string()).nullable().optional().describe("The alert's tag_list"),
    details: z.record(z.string(), z.unknown()).nullable().optional().describe('Kept as additional_data (details.<key>)'),
    entity: z.string().nullable().optional(),
    source: z.string().nullable().optional(),
    user: z.string().nullable().optional(),
    note: z.string().nullable().optional(),
    actions: z.array(z.string()).nullable().optional(),
    responders: opsgenieRecipients,
    visibleTo: opsgenieRecipients,
  }),
);

/** The optional body of close and acknowledge, and the message / description updates. */
export const opsgenieActionInput = lazySchema(() =>
  z.looseObject({
    user: z.string().nullable().optional(),
    source: z.string().nullable().optional(),
    note: z.string().nullable().optional(),
    message: z.string().max(OPSGENIE_LIMITS.message).optional().describe('PUT …/message only (required there)'),
    description: z.string().max(OPSGENIE_LIMITS.description).optional().describe('PUT …/description only'),
  }),
);

/** Opsgenie's requestId: UUID-shaped. An accepted request's is its log's ULID in hex (not an RFC 4122
 * UUID: its version and variant bits are the ULID's), so the id names the stored request. */
const opsgenieRequestId = lazySchema(() =>
  z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    .describe("UUID-shaped; an accepted request's is its log's ULID in hex"),
);

/** An accepted request: requestId names the stored request (its log). */
export const OpsgenieAccepted = lazyStrictObject(() => ({
  result: z.literal('Request will be processed'),
  took: z.number().nonnegative(),
  requestId: opsgenieRequestId,
}));

/** A refused request, as Opsgenie answers it; a 422 names each fault by its field in `errors`. */
export const OpsgenieError = lazyStrictObject(() => ({
  message: z.string(),
  took: z.number().nonnegative(),
  requestId: opsgenieRequestId,
  errors: z.record(z.string(), z.string()).optional(),
}));

/** GET /v2/alerts/requests/:requestId: what came of an accepted request, in Opsgenie's words. */
export const OpsgenieRequestStatus = lazyStrictObject(() => ({
  data: z.strictObject({
    success: z.boolean(),
    action: z.enum(['Create', 'Close', 'Acknowledge', 'UpdateMessage', 'UpdateDescription']),
    processedAt: z.string().describe('ISO 8601'),
    integrationId: prefixIdOf('integration'),
    isSuccess: z.boolean(),
    status: z.string().describe('Created alert, Alert deduplicated…, Closed alert, Acknowledged alert, Alert does not exist, …'),
    alertId: z.string().describe("The alert's alt_ id, or empty when the request found none"),
    alias: z.string().describe('The alias the request named, or empty'),
  }),
  took: z.number().nonnegative(),
  requestId: opsgenieRequestId,
}));

// The names the OpenAPI document gives these schemas (#/components/schemas/<name>).
documentNames.add(pagerDutyEventInput, { id: 'PagerDutyEventInput' });
documentNames.add(InboundAccepted, { id: 'InboundAccepted' });
documentNames.add(PagerDutyAccepted, { id: 'PagerDutyAccepted' });
documentNames.add(PagerDutyError, { id: 'PagerDutyError' });
documentNames.add(opsgenieCreateInput, { id: 'OpsgenieCreateInput' });
documentNames.add(opsgenieActionInput, { id: 'OpsgenieActionInput' });
documentNames.add(OpsgenieAccepted, { id: 'OpsgenieAccepted' });
documentNames.add(OpsgenieError, { id: 'OpsgenieError' });
documentNames.add(OpsgenieRequestStatus, { id: 'OpsgenieRequestStatus' });
