// The guarded outbound HTTP client (automations, outgoing webhooks). Does I/O; takes its settings
// as options and never reads configuration.
export { canonicalAddress, forbiddenReason, isForbiddenAddress, refusedHost } from './address-guard';
export { OutboundRequestInvalid, OutboundTargetRefused } from './errors';
export type { Resolver } from './guarded-lookup';
export { guardedLookup, systemResolver } from './guarded-lookup';
export type { OutboundOptions, OutboundRequest, OutboundResult } from './http-client';
export { DEFAULT_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS, sendOutbound } from './http-client';
