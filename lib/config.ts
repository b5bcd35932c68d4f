// Configuration is read from the environment once (at cold start) and validated with zod,
// so a missing or malformed variable fails loudly before any request is served.
import * as z from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const schema = z.object({
  TABLE_NAME: z.string().min(3),
  INGEST_QUEUE_URL: z.string().optional(),
  ROUTING_QUEUE_URL: z.string().optional(),
  ESCALATION_QUEUE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(16).optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 3600),
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).default(10),
  SIGNUP_ENABLED: bool,
  /** The local outbox: console, memory and log record every message as sent (nothing leaves the
   * machine); none leaves each channel to its configured provider (else recorded failed). */
  OUTBOX: z.enum(['console', 'log', 'memory', 'none']).default('none'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  INGEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Divides every relative timer of escalation and notification (contract §8). */
  TIME_SCALE: z.coerce.number().positive().max(1_000_000).default(1),
  /** The base of links in messages (one-click responses); the local server sets its own URL. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Signs one-click response links; generated once and kept in the table when unset. */
  RESPONSE_TOKEN_SECRET: z.string().min(32).optional(),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

export function config(): Config {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid configuration: ${fields}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests and the local runtime set the environment before first use; this drops the cached copy. */
export function resetConfig(): void {
  cached = undefined;
}
