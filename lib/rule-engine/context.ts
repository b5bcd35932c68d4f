// The data a rule's match and templates see (the real service's documented context):
//   {always: true, alert: {...}, log: {data: {...}, headers: {...}}, log_parsed: boolean}
// `alert` is the alert as the routing worker represents it; `log` the integration request that made
// it (empty when there was none); log_parsed whether that request's body was read into an object.
import { isMapping } from './faults';

export interface RoutingContext {
  always: true;
  alert: Record<string, unknown>;
  log: { data: unknown; headers: Record<string, unknown> };
  log_parsed: boolean;
}

export interface RoutingInput {
  alert: Record<string, unknown>;
  log?: { data?: unknown; headers?: Record<string, unknown> | null } | null;
}

export function buildRoutingContext(input: RoutingInput): RoutingContext {
  const data = input.log?.data;
  return {
    always: true,
    alert: input.alert,
    log: { data: data ?? {}, headers: input.log?.headers ?? {} },
    log_parsed: isMapping(data) || Array.isArray(data),
  };
}
