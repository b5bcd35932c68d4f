// Stored inbound request → alert actions (docs/api.md#inbound-webhooks). Flow: parse the body in the formats the
// sender uses → select the payload with wrapper_key → adapt it (each element when it is an array)
// → add capture_additional_data to creates. Pure: no I/O, no clock, no randomness. JMESPath (21.5 KiB)
// loads with the first wrapper_key read (lib/on-first-use.ts: run adaptPayload through whenLoaded),
// not at the start of every function that adapts payloads (issue 21).
import { onFirstUse } from '../../on-first-use';
import type { AdaptContext, PayloadAdapter } from './adapter';
import { awsCloudwatchAdapter } from './aws-cloudwatch';
import { datadogAdapter } from './datadog';
import { isRecord } from './fields';
import { grafanaAdapter } from './grafana';
import { healthchecksAdapter } from './healthchecks';
import { opsgenieAlertsAdapter } from './opsgenie-alerts';
import { pagerdutyEventsV2Adapter } from './pagerduty-events-v2';
import { parseBody } from './parse-body';
import { prometheusAdapter } from './prometheus';
import { capDetails, mergeDetails } from './sender-details';
import { UnreadablePayload, type AdapterAction, type AdapterInput, type AlertFields } from './types';
import { uptimeRobotAdapter } from './uptime-robot';
import { webhookAdapter } from './webhook';

export * from './types';

const jmespath = /* @__PURE__ */ onFirstUse(() => import('jmespath').then((module) => module.default));

const ADAPTERS: Record<string, PayloadAdapter> = {
  webhook: webhookAdapter,
  prometheus: prometheusAdapter,
  grafana: grafanaAdapter,
  aws_cloudwatch: awsCloudwatchAdapter,
  datadog: datadogAdapter,
  pagerduty_events_v2: pagerdutyEventsV2Adapter,
  uptime_robot: uptimeRobotAdapter,
  healthchecks: healthchecksAdapter,
  opsgenie: opsgenieAlertsAdapter,
};

/** The integration type slugs that have an adapter. */
export const ADAPTER_SLUGS: readonly string[] = Object.keys(ADAPTERS);

/** A slug no adapter exists for: a configuration fault, not a fault of the request. */
export class UnknownIntegrationType extends Error {
  override name = 'UnknownIntegrationType';
  constructor(slug: string) {
    super(`no payload adapter for integration type "${slug}"`);
  }
}

/**
 * The actions one stored request asks for. Throws UnreadablePayload when the body cannot be read as
 * the sender's format (the log is then marked failed with its message).
 */
export function adaptPayload(slug: string, input: AdapterInput): AdapterAction[] {
  const adapter = Object.hasOwn(ADAPTERS, slug) ? ADAPTERS[slug] : undefined;
  if (!adapter) throw new UnknownIntegrationType(slug);

  const { options } = input.integration;
  const ctx: AdaptContext = {
    urgency: input.integration.urgency,
    fallbackId: input.logId,
    headers: input.headers,
    ...(input.route ? { route: input.route } : {}),
  };
  const wrapperKey = typeof options.wrapper_key === 'string' ? options.wrapper_key.trim() : '';
  // A drop-in's call on an existing alert may carry no body at all (Opsgenie's close needs none).
  const parsed =
    input.route && input.body.trim() === '' ? { format: 'json' as const, data: {} } : parseBody(input.body, input.headers, adapter.accepts);

  if (parsed.format === 'text') {
    if (wrapperKey !== '') throw new UnreadablePayload('wrapper_key is set but the body is not JSON or form data');
    if (!adapter.adaptText) throw new UnreadablePayload('body is not JSON');
    return adapter.adaptText(parsed.text, ctx);
  }

  const payload = wrapperKey === '' ? parsed.data : unwrap(parsed.data, wrapperKey);
  // Integrations created from form data may hold the flag as the string "true".
  const captureOption: unknown = options.capture_additional_data;
  const capture = captureOption === true || captureOption === 'true';
  if (!Array.isArray(payload)) return adaptOne(adapter, payload, ctx, capture);
  if (payload.length === 0) return [{ action: 'ignore', reason: 'empty batch' }];
  // Each element gets its own fallback id, still a function of the log alone.
  return payload.flatMap((element, index) => adaptOne(adapter, element, { ...ctx, fallbackId: `${input.logId}-${index}` }, capture));
}

function adaptOne(adapter: PayloadAdapter, payload: unknown, ctx: AdaptContext, capture: boolean): AdapterAction[] {
  const actions = adapter.adapt(payload, ctx);
  const fields = !capture ? undefined : adapter.capturedFields ? adapter.capturedFields(payload) : isRecord(payload) ? payload : undefined;
  const captured = additionalDataOf(fields);
  // What the sender said beyond title and description, plus what capture_additional_data adds,
  // within the caps of sender-details.ts (a marker says what was cut).
  return actions.map((action) => {
    if (action.action !== 'create') return action;
    const kept = capDetails(mergeDetails(action.alert.additionalData ?? [], captured));
    const { additionalData: _all, ...alert } = action.alert;
    return { ...action, alert: kept.length > 0 ? { ...alert, additionalData: kept } : alert };
  });
}

/** The payload inside the body, selected by the integration's JMESPath wrapper_key. */
function unwrap(data: unknown, wrapperKey: string): unknown {
  const { search } = jmespath();
  let selected: unknown;
  try {
    selected = search(data, wrapperKey);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnreadablePayload(`wrapper_key "${wrapperKey}" is not a valid JMESPath expression: ${reason}`);
  }
  if (selected === null || selected === undefined) {
    throw new UnreadablePayload(`wrapper_key "${wrapperKey}" selects nothing in this body`);
  }
  // Wrappers often carry the payload as a JSON string (a queue message, an SNS-style envelope).
  if (typeof selected === 'string') {
    const inner = selected.trim();
    if (inner.startsWith('{') || inner.startsWith('[')) {
      try {
        return JSON.parse(inner);
      } catch {
        // not JSON after all: the adapter sees the string and says what it expected
      }
    }
  }
  return selected;
}

type AdditionalDatum = NonNullable<AlertFields['additionalData']>[number];

function additionalDataOf(fields: Record<string, unknown> | undefined): AdditionalDatum[] {
  if (!fields) return [];
  return Object.entries(fields).map(([label, value]) => ({ type: datumType(value), label, value }));
}

function datumType(value: unknown): 'json' | 'string' | 'number' | 'boolean' {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}
