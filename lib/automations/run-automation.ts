// Running an automation (docs/api.md#automations): its settings rendered over the alert (when a router runs it),
// one request through the guarded outbound client (10 s, SSRF guard unless the deployment sets
// ALLOW_PRIVATE_AUTOMATION_TARGETS=true), and a log owned by the automation recording the run:
// status code, duration, an excerpt of the response — never the auth password. POST
// /automation/:id/run answers that log; a refused target is a 400 after its refusal is logged, and
// no packet leaves. A disabled automation does not run (409).
import { requireAdmin } from '../auth/permissions';
import { config } from '../config';
import { BadRequest, Conflict } from '../http/errors';
import type { Principal } from '../http/principal';
import { newId, prefixId } from '../ids';
import type { LogRecord } from '../logs/records';
import { insertNewLog } from '../logs/store';
import { OutboundRequestInvalid, OutboundTargetRefused } from '../outbound/errors';
import type { OutboundResult } from '../outbound/http-client';
import { findAutomation } from './read-automations';
import type { AutomationRecord } from './records';
import { parseAutomationSettings, renderSettings } from './settings';
import { whenLoaded } from '../on-first-use';
import { loadOnce } from '../load-once';

const loadOutboundHttpClient = /* @__PURE__ */ loadOnce(() => import('../outbound/http-client'));

export type RunTrigger =
  | { kind: 'manual'; userId: string }
  | { kind: 'router'; alertId: string; routerId: string | null; ruleIndex: number | null; context: object };

export interface RunOutcome {
  log: LogRecord;
  /** Why nothing was sent (a refused target, a request that cannot be sent); null when it was sent. */
  refusal: string | null;
  status: number | null;
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.slice(0, 500);
  }
}

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

/** Performs the run and records its log; never throws for the target's behaviour. */
export async function performAutomation(record: AutomationRecord, trigger: RunTrigger): Promise<RunOutcome> {
  const parsed = await whenLoaded(() => parseAutomationSettings(record.settings));
  const started = new Date().toISOString();
  const secrets: string[] = [];
  let result: OutboundResult | null = null;
  let refusal: string | null = null;
  let refused: Record<string, string> | null = null;
  let method = 'GET';
  let url = '';
  if (!parsed.ok) {
    refusal = `the settings do not parse: ${parsed.messages.join('; ')}`;
  } else {
    const data =
      trigger.kind === 'router' ? trigger.context : { always: true, alert: {}, log: { data: {}, headers: {} }, log_parsed: false };
    const value = parsed.value;
    const settings = await whenLoaded(() => renderSettings(value, data));
    method = settings.method;
    url = withoutCredentials(settings.url);
    const password = settings.auth?.password ?? '';
    if (settings.auth && password) secrets.push(password, Buffer.from(`${settings.auth.username}:${password}`).toString('base64'));
    try {
      // The guarded client (its address checks with ipaddr.js, node:dns) loads with the first run:
      // the functions that route alerts do not load it at every cold start.
      const { sendOutbound, DEFAULT_TIMEOUT_MS } = await loadOutboundHttpClient();
      result = await sendOutbound(
        {
          url: settings.url,
          method: settings.method,
          headers: settings.headers,
          params: settings.params,
          data: settings.data,
          auth: settings.auth,
        },
        { timeoutMs: DEFAULT_TIMEOUT_MS, allowPrivateTargets: config().ALLOW_PRIVATE_AUTOMATION_TARGETS },
      );
    } catch (error) {
      if (error instanceof OutboundTargetRefused) {
        refusal = redact(error.message, secrets);
        refused = { host: error.host, address: error.address, reason: error.reason };
      } else if (error instanceof OutboundRequestInvalid) refusal = redact(error.message, secrets);
      else throw error;
    }
  }
  const status = result?.status ?? null;
  const failed = refusal !== null || result?.error !== undefined || status === null || status >= 400;
  const outcome = refusal
    ? `refused: ${refusal}`
    : result?.error
      ? `${result.error.code}: ${redact(result.error.message, secrets)}${status ? ` (status ${status})` : ''}`
      : `${status} in ${result?.duration_ms ?? 0} ms`;
  const owner = prefixId('automation', record.id);
  const log: LogRecord = {
    id: newId(),
    account_id: record.account_id,
    type: 'automation',
    subtype: 'OUTGOING',
    content: `Automation ${record.name}: ${method} ${result ? result.url : url} → ${outcome}`.slice(0, 2000),
    owner_id: owner,
    source_id: trigger.kind === 'manual' ? prefixId('user', trigger.userId) : prefixId('alert', trigger.alertId),
    level: failed ? 3 : 1,
    meta: {},
    data: {
      trigger: trigger.kind,
      ...(trigger.kind === 'router'
        ? { alert_id: prefixId('alert', trigger.alertId), router_id: trigger.routerId, rule_index: trigger.ruleIndex }
        : {}),
      request: { method, url: result ? result.url : url },
      status,
      duration_ms: result?.duration_ms ?? 0,
      excerpt: result ? redact(result.excerpt, secrets) : '',
      truncated: result?.truncated ?? false,
      remote_address: result?.remote_address ?? null,
      redirects: result?.redirects ?? [],
      ...(result?.error ? { error: { code: result.error.code, message: redact(result.error.message, secrets) } } : {}),
      ...(refusal ? { refused: refused ?? { reason: refusal } } : {}),
    },
    created_at: started,
    updated_at: started,
    version: 1,
  };
  await insertNewLog(log);
  return { log, refusal, status };
}

/** POST /automation/:id/run (account admins: it acts on a third-party system). */
export async function runAutomation(principal: Principal, rawId: string): Promise<LogRecord> {
  const record = await findAutomation(principal, rawId);
  requireAdmin(principal, 'run automations');
  if (!record.enabled) throw new Conflict('Cannot run a disabled automation: enable it first');
  const outcome = await performAutomation(record, { kind: 'manual', userId: principal.userId });
  if (outcome.refusal) throw new BadRequest(`The automation was not run: ${outcome.refusal}`);
  return outcome.log;
}
