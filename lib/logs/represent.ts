// The earlier interface's log object (api-earlier.md "Log"): prefix ids throughout.
import { prefixId } from '../ids';
import type { ListSpec } from '../list/query';
import { EARLIER_COMMON_ATTRIBUTES } from '../list/common-attributes';
import type { LogRecord } from './records';
import type * as z from 'zod';
import type { LogEarlier } from './schemas';

/** Request headers that carry credentials are never shown, even inside a stored webhook request. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'x-api-secret', 'pagertree-token', 'proxy-authorization']);

function redacted(data: Record<string, unknown>): Record<string, unknown> {
  const headers = data.headers;
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return data;
  return {
    ...data,
    headers: Object.fromEntries(
      Object.entries(headers as Record<string, unknown>).map(([name, value]) => [
        name,
        SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value,
      ]),
    ),
  };
}

export function logToEarlier(log: LogRecord): z.input<typeof LogEarlier> {
  return {
    sid: prefixId('account', log.account_id),
    id: prefixId('log', log.id),
    tinyId: log.tiny_id ?? null,
    createdAt: log.created_at,
    updatedAt: log.updated_at,
    meta: log.meta ?? {},
    content: log.content,
    type: log.type,
    subtype: log.subtype,
    owner_id: log.owner_id,
    source_id: log.source_id,
    level: log.level,
    data: redacted(log.data ?? {}),
    ...(log.status !== undefined ? { status: log.status } : {}),
    ...(log.reason !== undefined ? { reason: log.reason } : {}),
  };
}

export const logListSpec: ListSpec = {
  attributes: {
    ...EARLIER_COMMON_ATTRIBUTES,
    tinyId: 'number',
    content: 'string',
    type: 'string',
    subtype: 'string',
    owner_id: 'string',
    source_id: 'string',
    level: 'number',
    data: 'object',
    status: 'string',
    reason: 'string',
  },
  search: ['content'],
};
