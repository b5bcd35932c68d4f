// The one clock of the service's timers (escalation steps and leases, routing's aggregate windows,
// outgoing webhook retries, one-click link expiry, attempt limits, ingest rate limits): wall time,
// unless a test replaces it (lib/dependencies.ts) to move time forward. Relative timers are divided
// by TIME_SCALE (docs/api.md#escalation-and-notifications) where they are scheduled, through
// `scaled` / `scaledMs`.
import { config } from './config';
import { dependencies, type Clock } from './dependencies';

/** The service's clock (lib/dependencies.ts: wall time, or the one a test moves forward). */
export const clock: Clock = { now: () => dependencies().clock.now() };

/** Milliseconds since the epoch, as the service sees them. */
export function now(): number {
  return clock.now();
}

export function nowIso(): string {
  return new Date(now()).toISOString();
}

/** A relative duration divided by the time scale, in whole milliseconds. */
export function scaled(ms: number, timeScale: number): number {
  return Math.max(0, Math.round(ms / timeScale));
}

/** TIME_SCALE (default 1): divides every relative timer. */
export function timeScale(): number {
  return config().TIME_SCALE;
}

/** A relative duration of the product (a layer timeout, a delay) as it runs here: ÷ TIME_SCALE. */
export function scaledMs(ms: number): number {
  return scaled(ms, timeScale());
}

/** Waits real time (never more than a step's short in-process wait). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
