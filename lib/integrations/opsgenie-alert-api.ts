// Opsgenie Alert API drop-in (docs/api.md#opsgenie-alert-api-drop-in): POST /v2/alerts, its close and
// acknowledge, and the message / description updates Alertmanager sends. Flow: size → the GenieKey
// names an enabled integration of this deployment (401/403) → parse (400) → Opsgenie's own checks
// (lib/integrations/adapters/opsgenie-alert-rules, 422) → the shared inbound path (token, rate limit,
// maintenance window, store, queue) with the request read by the `opsgenie` adapter → Opsgenie's 202.
// Every answer has Opsgenie's shape (`message` or `result`, `took`, `requestId`), because its senders
// read it; nothing is stored for a refused request.
import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import { HttpError } from '../http/errors';
import { MAX_BODY_BYTES } from '../http/request';
import type { JsonReply } from '../http/route-contract';
import { parseId } from '../ids';
import {
  checkOpsgenieActionBody,
  checkOpsgenieCreate,
  checkOpsgenieTarget,
  type OpsgenieFaults,
  type OpsgenieVerb,
} from './adapters/opsgenie-alert-rules';
import { isHeartbeat, isOutgoingWebhook } from './integration-kinds';
import type { OpsgenieAccepted, OpsgenieError } from './inbound-schemas';
import { integrationById } from './integration-cache';
import { integrationBySenderKey } from './sender-keys';
import { isLiveCall } from './live-calls';
import { acceptRequest, type InboundRequest } from './ingest/receive-webhook';
import type { IntegrationRecord } from './records';

export const OPSGENIE_ADAPTER = 'opsgenie';

/** What the request asks: a create, or a call on the alert its path names. */
export type OpsgenieCall = { verb: 'create' } | { verb: Exclude<OpsgenieVerb, 'create'>; identifier: string };

type RefusalStatus = 400 | 401 | 403 | 413 | 422 | 429;
type Refused = JsonReply<RefusalStatus, z.input<typeof OpsgenieError>>;
export type OpsgenieAnswer = JsonReply<202, z.input<typeof OpsgenieAccepted>> | Refused;

const UNPROCESSABLE = 'Request body is not processable. Please check the errors.';

/** Seconds since the request arrived, as Opsgenie's `took`. */
export function tookSince(receivedAt: number): number {
  return Math.round(Math.max(0, Date.now() - receivedAt)) / 1000;
}

export function refused<Status extends RefusalStatus | 404>(
  status: Status,
  message: string,
  receivedAt: number,
  extra: { errors?: OpsgenieFaults; headers?: Record<string, string> } = {},
): JsonReply<Status, z.input<typeof OpsgenieError>> {
  const requestId = randomUUID();
  return {
    status,
    body: { message, took: tookSince(receivedAt), requestId, ...(extra.errors ? { errors: extra.errors } : {}) },
    headers: { ...extra.headers, 'X-Request-ID': requestId },
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The stored request's ULID (128 bits) written as the UUID-shaped id Opsgenie's requestId is: one id, two spellings. */
export function requestIdOf(ulid: string): string {
  let value = 0n;
  for (const char of ulid) value = value * 32n + BigInt(CROCKFORD.indexOf(char));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The ULID a requestId spells (requestIdOf's inverse); null when it is not one of ours. */
export function ulidOfRequestId(requestId: string): string | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(requestId)) return null;
  let value = BigInt(`0x${requestId.replace(/-/g, '')}`);
  // A ULID holds 128 bits in 26 characters of 5 bits: its first character is at most 7.
  let ulid = '';
  for (let i = 0; i < 26; i++) {
    ulid = CROCKFORD[Number(value % 32n)] + ulid;
    value /= 32n;
  }
  return ulid;
}

/** `GenieKey <integration id>`, or `GenieKey <integration id>:<token>` for an integration with a token option. */
function genieKeyOf(headers: Record<string, string>): { id: string; token?: string } | null {
  const match = /^\s*GenieKey\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (!match) return null;
  const [id, ...token] = match[1].split(':');
  return token.length > 0 ? { id, token: token.join(':') } : { id };
}

/** The integration a GenieKey names: 401 when it names none that is enabled (as Opsgenie answers a key
 * that is invalid or whose integration is disabled), 403 when it names one that takes no alerts. */
export async function integrationOfKey(
  headers: Record<string, string>,
  receivedAt: number,
): Promise<
  { integration: IntegrationRecord; key: { id: string; token?: string } } | { refused: JsonReply<401 | 403, z.input<typeof OpsgenieError>> }
> {
  const key = genieKeyOf(headers);
  if (!key)
    return { refused: refused(401, 'Could not authenticate: send the header Authorization: GenieKey <integration id>', receivedAt) };
  const id = parseId('integration', key.id);
  // Its own id, or the Opsgenie API key an import carried over (lib/integrations/sender-keys.ts).
  const integration =
    (id ? await integrationById(id) : null) ?? (await integrationBySenderKey(key.token === undefined ? key.id : `${key.id}:${key.token}`));
  if (!integration || !integration.enabled) {
    return { refused: refused(401, 'Could not authenticate: the key names no enabled integration', receivedAt) };
  }
  if (isOutgoingWebhook(integration) || isHeartbeat(integration) || isLiveCall(integration)) {
    return {
      refused: refused(
        403,
        'The key names an integration that takes no alerts (an outgoing webhook, a heartbeat or a live call)',
        receivedAt,
      ),
    };
  }
  return { integration, key };
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The route as the adapter reads it back from the log: the identifier percent-encoded, so any alias survives. */
function storedPath(call: OpsgenieCall): string {
  return call.verb === 'create' ? '/v2/alerts' : `/v2/alerts/${encodeURIComponent(call.identifier)}/${call.verb}`;
}

function faultsOf(call: OpsgenieCall, body: unknown, query: URLSearchParams): OpsgenieFaults {
  if (call.verb === 'create') return checkOpsgenieCreate(body);
  return { ...checkOpsgenieTarget(call.identifier, query.get('identifierType')).faults, ...checkOpsgenieActionBody(call.verb, body) };
}

export async function receiveOpsgenieRequest(call: OpsgenieCall, request: Omit<InboundRequest, 'rawId'>): Promise<OpsgenieAnswer> {
  const { receivedAt } = request;
  if ((request.bytes ?? Buffer.byteLength(request.body, 'utf8')) > MAX_BODY_BYTES) {
    return refused(413, `Request body is larger than ${MAX_BODY_BYTES / 1024} KiB`, receivedAt);
  }

  const authenticated = await integrationOfKey(request.headers, receivedAt);
  if ('refused' in authenticated) return authenticated.refused;
  const { integration, key } = authenticated;

  const parsed = request.bodyEncoding === 'base64' ? { ok: false as const } : parseJson(request.body);
  if (!parsed.ok) return refused(400, 'The request body is not valid JSON', receivedAt);
  const faults = faultsOf(call, parsed.value, new URLSearchParams(request.query));
  if (Object.keys(faults).length > 0) return refused(422, UNPROCESSABLE, receivedAt, { errors: faults });

  // The token a key carries stands for the pagertree-token header the shared path checks (both are redacted in the log).
  const headers = key.token !== undefined ? { ...request.headers, 'pagertree-token': key.token } : request.headers;
  let log;
  try {
    ({ log } = await acceptRequest(integration, { ...request, headers }, { adapter: OPSGENIE_ADAPTER, path: storedPath(call) }));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.status === 403) return refused(401, 'Could not authenticate: the key does not carry the integration token', receivedAt);
    if (error.status === 413) return refused(413, error.messages[0], receivedAt);
    if (error.status === 429) {
      return refused(429, 'You are making too many requests to this integration; retry after Retry-After seconds', receivedAt, {
        headers: { ...error.headers, 'X-RateLimit-State': 'THROTTLED' },
      });
    }
    throw error;
  }
  const requestId = requestIdOf(log.id);
  return {
    status: 202,
    body: { result: 'Request will be processed', took: tookSince(receivedAt), requestId },
    headers: { 'X-Request-ID': requestId },
  };
}
