// GETs of a source's REST API for the readers of PagerDuty and Grafana OnCall: one request at a
// time (a source's rate limit is per key, and an import is not in a hurry), its 429 waited out as
// the source's Retry-After asks, every other failure an error naming the URL and the source's own
// message. The key travels in the header the source wants and nowhere else (never in an error).
import type * as z from 'zod';
import { sleep as clockSleep } from '../clock';
import { sourceGet } from './source-fetch';

const TIMEOUT_MS = 30_000;
const MAX_RATE_LIMIT_WAITS = 5;

export class SourceApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'SourceApiError';
  }
}

export interface SourceApi {
  /** GETs `pathOrUrl` (a path under the API URL, or a whole URL the source gave) and checks its body. */
  get<T extends z.ZodType>(pathOrUrl: string, schema: T): Promise<z.output<T>>;
}

function sourceMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const error = record.error as Record<string, unknown> | undefined;
      const message = error?.message ?? record.detail ?? record.message;
      if (typeof message === 'string') return message;
    }
  } catch {
    // not JSON: its beginning says enough
  }
  return body.slice(0, 200);
}

export function sourceApi(options: {
  sourceLabel: string;
  apiUrl: string;
  headers: Record<string, string>;
  /** Private and loopback addresses allowed (the operator's CLI, tests); the console's runs refuse them. */
  allowPrivateAddresses: boolean;
  sleep?: (ms: number) => Promise<void>;
}): SourceApi {
  const base = options.apiUrl.replace(/\/+$/, '');
  const sleep = options.sleep ?? clockSleep;
  return {
    async get(pathOrUrl, schema) {
      const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
      for (let attempt = 0; ; attempt += 1) {
        // Nothing usable answered: SourceUnreachable, as is (the console answers 502 with it).
        const response = await sourceGet(
          url,
          { accept: 'application/json', ...options.headers },
          { allowPrivateAddresses: options.allowPrivateAddresses, timeoutMs: TIMEOUT_MS },
        );
        const text = response.text;
        if (response.status === 429 && attempt < MAX_RATE_LIMIT_WAITS) {
          const retryAfter = Number(response.header('retry-after'));
          await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : 2000 * (attempt + 1));
          continue;
        }
        if (response.status < 200 || response.status > 299) {
          const hint = response.status === 401 || response.status === 403 ? ' (is the API key right, and may it read this?)' : '';
          throw new SourceApiError(
            `${options.sourceLabel}: GET ${url} answered ${response.status}: ${sourceMessage(text)}${hint}`,
            response.status,
          );
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new SourceApiError(`${options.sourceLabel}: GET ${url} answered something other than JSON`, response.status);
        }
        const parsed = schema.safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new SourceApiError(
            `${options.sourceLabel}: GET ${url} answered an unexpected shape at ${issue?.path.join('.') || '(top)'}: ${issue?.message}`,
            response.status,
          );
        }
        return parsed.data;
      }
    },
  };
}
