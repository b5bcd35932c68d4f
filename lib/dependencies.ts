// The pieces of the service that tests and the local runtime replace, wired in one place: the clock
// every timer reads, where OUTBOX=memory keeps the messages, the HTTPS agent of Web Push requests and
// the HTTP client that fetches SNS certificates. Production code reads them through `dependencies()`
// and never changes them; `replaceDependencies` is the one way in (test/support, infra/local), and
// it hands back the undo. Values cached from the environment (the parsed configuration, secrets
// read from the table) are dropped together through `environmentChanged` when the local runtime or
// a test points the process at another table or changes a variable.
import type { Agent } from 'node:https';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

/** GETs a URL; throws only when no HTTP answer came. */
export type HttpGet = (url: string) => Promise<HttpAnswer>;

export interface Dependencies {
  clock: Clock;
  /** Where OUTBOX=memory keeps every message, oldest first (tests read what a person received). */
  memoryOutbox: unknown[];
  /** The HTTPS agent of push requests (a local push service with its own certificate); default: the guarded agent. */
  pushAgent?: Agent;
  /** How SNS certificates and SubscribeURLs are fetched; default: fetch without redirects. */
  snsHttp?: HttpGet;
  /**
   * scrypt's cost (N) for new password hashes: 2^15 in production. Tests, which create hundreds of
   * people, use a cheaper one; verifying reads the cost from the stored hash either way.
   */
  passwordHashCost: number;
  /** The API's request limits (lib/auth/request-limits.ts); a benchmark turns them off to measure what they cost. */
  requestLimits?: 'off';
}

/** scrypt's cost (N) for new password hashes in production. */
export const PRODUCTION_PASSWORD_HASH_COST = 1 << 15;

const production: Dependencies = { clock: { now: () => Date.now() }, memoryOutbox: [], passwordHashCost: PRODUCTION_PASSWORD_HASH_COST };
let current: Dependencies = production;

export function dependencies(): Readonly<Dependencies> {
  return current;
}

/** Replaces some pieces until the returned function is called, which puts back what they replaced. */
export function replaceDependencies(changes: Partial<Dependencies>): () => void {
  const keys = Object.keys(changes) as (keyof Dependencies)[];
  const replaced = Object.fromEntries(keys.map((key) => [key, current[key]])) as Partial<Dependencies>;
  current = { ...current, ...changes };
  return () => {
    current = { ...current, ...replaced };
  };
}

const forgetters = new Set<() => void>();

/** Registers how a module forgets what it derived from the environment (config, a secret read from the table). */
export function onEnvironmentChange(forget: () => void): void {
  forgetters.add(forget);
}

/** The environment changed (another table, another variable): every value derived from it is read again on next use. */
export function environmentChanged(): void {
  for (const forget of forgetters) forget();
}
