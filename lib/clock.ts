// The one clock of the service's timers (routing's aggregate windows, outgoing webhook retries):
// wall time, unless a test sets another. Relative timers are divided by TIME_SCALE (contract §8)
// where they are scheduled, through `scaled`.
export interface ServiceClock {
  now(): number;
}

const systemClock: ServiceClock = { now: () => Date.now() };
let current: ServiceClock = systemClock;

export const clock: ServiceClock = { now: () => current.now() };

/** Tests replace the clock; `null` restores wall time. */
export function setClock(next: ServiceClock | null): void {
  current = next ?? systemClock;
}

/** A relative duration divided by the time scale, in whole milliseconds. */
export function scaled(ms: number, timeScale: number): number {
  return Math.max(0, Math.round(ms / timeScale));
}
