// The contract between the ingest worker and the payload adapters (docs/api.md#inbound-webhooks): a stored inbound
// request goes in, create / acknowledge / resolve / ignore actions come out. Pure data, no I/O.

export interface AdapterInput {
  body: string; // raw request body as received
  headers: Record<string, string>; // lower-cased header names
  logId: string; // the stored log's id (log_…); deterministic fallback for a missing thirdparty id
  receivedAt: number; // epoch ms
  /** The route a drop-in stored the request under (`/v2/alerts/{identifier}/close`) and its query
   * string: the Opsgenie adapter reads its verb and identifier there. Absent for POST /integration/:id. */
  route?: { path: string; query: string };
  integration: { id: string; urgency: Urgency; options: IntegrationOptions };
}

export type Urgency = 'silent' | 'low' | 'medium' | 'high' | 'critical';

export interface IntegrationOptions {
  token?: string;
  capture_additional_data?: boolean;
  wrapper_key?: string;
  [k: string]: unknown;
}

export interface AlertFields {
  title: string;
  description?: string;
  urgency: Urgency;
  tags?: string[];
  dedupKeys?: string[];
  meta?: { incident?: boolean; incident_severity?: string; incident_message?: string };
  additionalData?: { type: string; label: string; value: unknown }[];
}

/** An alert named by the service's own id (ULID or `alt_…`) or its tiny id, within the integration's account. */
export type AlertReference = { by: 'id'; id: string } | { by: 'tiny'; tinyId: number };

export type AdapterAction =
  | { action: 'create'; thirdpartyId: string; alert: AlertFields }
  | { action: 'acknowledge' | 'resolve'; thirdpartyId: string }
  | { action: 'acknowledge' | 'resolve'; alertRef: AlertReference }
  | { action: 'ignore'; reason: string; details?: Record<string, unknown> }; // e.g. SNS SubscriptionConfirmation with subscribeUrl

/** A body the adapter cannot read: the worker marks the log failed with this message. */
export class UnreadablePayload extends Error {
  override name = 'UnreadablePayload';
}
