// The service's one clock (contract §8): every timer, lease and due time reads `now()` here, never
// Date.now() directly, so tests can move time forward (advanceClock) and run an escalation in
// seconds together with TIME_SCALE, which divides every relative timer (scaledMs).
import { config } from './config';

let offsetMs = 0;

/** Milliseconds since the epoch, as the service sees them. */
export function now(): number {
  return Date.now() + offsetMs;
}

export function nowIso(): string {
  return new Date(now()).toISOString();
}

/** Tests: moves the service's time forward (the whole process shares it). */
export function advanceClock(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new Error('advanceClock takes a non-negative number of milliseconds');
  offsetMs += ms;
}

/** Tests: back to the system time. */
export function resetClock(): void {
  offsetMs = 0;
}

/** TIME_SCALE (default 1): divides every relative timer. */
export function timeScale(): number {
  return config().TIME_SCALE;
}

/** A relative duration of the product (a layer timeout, a delay) as it runs here: ÷ TIME_SCALE. */
export function scaledMs(ms: number): number {
  return Math.max(0, Math.round(ms / timeScale()));
}

/** Waits real time (never more than a step's short in-process wait). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
