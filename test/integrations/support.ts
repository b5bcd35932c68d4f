// Helpers of the integration and ingest tests: integrations made through the API, webhooks posted
// like a sender does, and polling until the asynchronous pipeline has done its work.
import { readFileSync } from 'node:fs';
import { storeIncomingLog, type IncomingLog } from '../../lib/integrations/ingest/incoming-log';
import type { ApiClient } from '../support/api-client';

export function senderFixture(path: string): string {
  return readFileSync(new URL(`../fixtures/senders/${path}`, import.meta.url), 'utf8');
}

/**
 * A JSON request to `integration` stored pending, as the inbound path stores one, and not queued (as
 * if its queue send had failed): due for the sweeper at `dueAt` (the grace period after it was
 * received, by default).
 */
export function storePendingLog(
  integration: { id: string; [field: string]: unknown },
  body: unknown,
  options: { receivedAt?: number; dueAt?: number } = {},
): Promise<IncomingLog> {
  return storeIncomingLog(
    {
      integrationId: integration.id,
      accountId: integration.account_id as string,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      query: '',
      receivedAt: options.receivedAt ?? Date.now(),
      sourceIp: '127.0.0.1',
    },
    { status: 'pending' },
    options.dueAt === undefined ? {} : { dueAt: options.dueAt },
  );
}

/** The bootstrap admin's account user (a destination every test account has). */
export async function adminAccountUser(admin: ApiClient): Promise<{ id: string; user_id: string }> {
  const res = await admin.get('/api/v4/account_users?limit=100');
  if (res.status !== 200) throw new Error(`account users: ${res.status} ${res.text}`);
  const found = (res.body.data as Array<{ id: string; user_id: string; roles: { admin: boolean } }>).find((a) => a.roles.admin);
  if (!found) throw new Error('no admin account user');
  return found;
}

export async function createIntegration(
  admin: ApiClient,
  fields: Record<string, unknown> & { type?: string },
): Promise<{ id: string; prefix_id: string; [k: string]: unknown }> {
  const { type = 'webhook', ...rest } = fields;
  const destination =
    rest.account_user_ids || rest.team_ids || rest.router_ids ? {} : { account_user_ids: [(await adminAccountUser(admin)).id] };
  const res = await admin.post('/api/v4/integrations', {
    name: `${type} integration`,
    urgency: 'high',
    integration_type_id: type,
    ...destination,
    ...rest,
  });
  if (res.status !== 201) throw new Error(`create integration: ${res.status} ${res.text}`);
  return res.body;
}

/** Waits until `probe` returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${last instanceof Error ? String(last) : JSON.stringify(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Posts a raw body the way a sender does: exactly these bytes and headers (no default Content-Type). */
export async function postRaw(
  baseUrl: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', body: Buffer.from(body, 'utf8'), headers });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** The alerts of the account with this third-party id, through the API, oldest first. */
export async function alertsWithThirdpartyId(admin: ApiClient, thirdpartyId: string): Promise<any[]> {
  const res = await admin.get(`/api/v4/alerts?limit=100&thirdparty_id=${encodeURIComponent(thirdpartyId)}`);
  if (res.status !== 200) throw new Error(`alerts: ${res.status} ${res.text}`);
  return [...res.body.data].reverse();
}

/** Waits until exactly `count` alerts carry the id (and stays there for a moment), and returns them. */
export async function settledAlerts(admin: ApiClient, thirdpartyId: string, count = 1, timeoutMs = 10_000): Promise<any[]> {
  const alerts = await eventually(
    async () => {
      const found = await alertsWithThirdpartyId(admin, thirdpartyId);
      return found.length >= count ? found : undefined;
    },
    timeoutMs,
    `${count} alert(s) for ${thirdpartyId}`,
  );
  return alerts;
}

/** One alert by id, through the API. */
export async function alertById(admin: ApiClient, id: string): Promise<any> {
  const res = await admin.get(`/api/v4/alerts/${id}`);
  if (res.status !== 200) throw new Error(`alert ${id}: ${res.status} ${res.text}`);
  return res.body;
}
