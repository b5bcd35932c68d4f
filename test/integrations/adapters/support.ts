// Test helpers: sender fixtures as raw bodies, and the stored request the ingest worker hands over.
import { readFileSync } from 'node:fs';
import type { AdapterInput, IntegrationOptions, Urgency } from '../../../lib/integrations/adapters';

export const LOG_ID = 'log_01KJRDX4B8Q3M7Y2C5V9N6T1WZ';

export function fixture(path: string): string {
  return readFileSync(new URL(`../../fixtures/senders/${path}`, import.meta.url), 'utf8');
}

/** A fixture parsed, to derive a variant of a real payload in one test. */
export function fixtureJson(path: string): Record<string, unknown> {
  return JSON.parse(fixture(path)) as Record<string, unknown>;
}

interface RequestOptions {
  contentType?: string | null;
  headers?: Record<string, string>;
  urgency?: Urgency;
  options?: IntegrationOptions;
  logId?: string;
}

export function request(body: string | object, opts: RequestOptions = {}): AdapterInput {
  const headers: Record<string, string> = { ...opts.headers };
  const contentType = opts.contentType === undefined ? 'application/json' : opts.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  return {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
    logId: opts.logId ?? LOG_ID,
    receivedAt: Date.UTC(2026, 2, 2, 10, 15, 30),
    integration: { id: '01KJRDWZ0000000000000000AB', urgency: opts.urgency ?? 'medium', options: opts.options ?? {} },
  };
}
