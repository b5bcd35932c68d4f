// The one clock of the service's timers (escalation steps and leases, routing's aggregate windows,
// outgoing webhook retries, one-click link expiry): wall time, unless a test sets another clock or
// moves time forward. Relative timers are divided by TIME_SCALE (docs/api.md#escalation-and-notifications) where they are
// scheduled, through `scaled` / `scaledMs`.
import { config } from './config';

export interface ServiceClock {
  now(): number;
}

const systemClock: ServiceClock = { now: () => Date.now() };
let current: ServiceClock = systemClock;
let offsetMs = 0;

export const clock: ServiceClock = { now: () => current.now() + offsetMs };

/** Milliseconds since the epoch, as the service sees them. */
export function now(): number {
  return clock.now();
}

export function nowIso(): string {
  return new Date(now()).toISOString();
}

/** Tests replace the clock; `null` restores wall time. */
export function setClock(next: ServiceClock | null): void {
  current = next ?? systemClock;
}

/** Tests: moves the service's time forward (the whole process shares it). */
export function advanceClock(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new Error('advanceClock takes a non-negative number of milliseconds');
  offsetMs += ms;
}

/** Tests: back to wall time. */
export function resetClock(): void {
  offsetMs = 0;
  current = systemClock;
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
