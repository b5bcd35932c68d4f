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
  JWT_SECRET: z.string().min(16).optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(12 * 3600),
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).default(10),
  SIGNUP_ENABLED: bool,
  OUTBOX: z.enum(['console', 'log', 'memory', 'none']).default('log'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  INGEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  WEBHOOK_QUEUE_URL: z.string().optional(),
  /** Divides every relative timer (contract §8): rule delays, aggregate timeouts, webhook retries. */
  TIME_SCALE: z.coerce.number().positive().max(1_000_000).default(1),
  /** Lets automations and outgoing webhooks reach loopback, private and link-local addresses (contract §10). */
  ALLOW_PRIVATE_AUTOMATION_TARGETS: bool,
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
