// The engine never reads the system time: evaluation takes the time as a parameter, either an
// epoch-ms number or a clock object (the service's injectable clock).
export interface Clock {
  now(): number;
}

export type ClockInput = Clock | (() => number) | number;

export function readClock(clock: ClockInput): number {
  if (typeof clock === 'number') return clock;
  if (typeof clock === 'function') return clock();
  return clock.now();
}
