// The heartbeat integration type (docs/api.md#heartbeats, contract §15): instead of reading alerts
// out of requests, it expects a request (a beat) at least every `interval_seconds` (+ `grace_seconds`)
// and opens an alert when one does not come. Pure: the options' checks, the deadline and the status
// the integration shows, so they are tested without a store.

export const HEARTBEAT_SLUG = 'heartbeat';
/** Its fixed id in the catalogue (lib/integrations/integration-types.ts): the sweeper tells a heartbeat by it without loading the catalogue. */
export const HEARTBEAT_TYPE_ID = '01KDVDNA09HB7T2XQ4M8RZ6KCE';

export const MIN_INTERVAL_SECONDS = 60;
/** A month: a monitor silent for longer than that is not a heartbeat. Also keeps the sums exact. */
export const MAX_SECONDS = 30 * 86_400;

export type HeartbeatStatus = 'waiting' | 'up' | 'missed';

/** A whole number of seconds from JSON (30) or a form post ("30"); null when it is neither. */
function wholeSeconds(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) ? number : null;
}

/**
 * Normalizes a heartbeat's options in place (the two durations as numbers, grace 0 when absent)
 * and returns the faults, each naming its option.
 */
export function heartbeatFaults(options: Record<string, unknown>): string[] {
  const faults: string[] = [];
  const interval = options.interval_seconds;
  if (interval === undefined || interval === null) {
    faults.push(`options.interval_seconds can't be blank (a whole number of seconds, at least ${MIN_INTERVAL_SECONDS})`);
  } else {
    const seconds = wholeSeconds(interval);
    if (seconds === null || seconds < MIN_INTERVAL_SECONDS || seconds > MAX_SECONDS)
      faults.push(`options.interval_seconds must be a whole number of seconds from ${MIN_INTERVAL_SECONDS} to ${MAX_SECONDS}`);
    else options.interval_seconds = seconds;
  }
  const grace = options.grace_seconds;
  if (grace === undefined || grace === null) options.grace_seconds = 0;
  else {
    const seconds = wholeSeconds(grace);
    if (seconds === null || seconds < 0 || seconds > MAX_SECONDS)
      faults.push(`options.grace_seconds must be a whole number of seconds from 0 to ${MAX_SECONDS}`);
    else options.grace_seconds = seconds;
  }
  return faults;
}

/** How long after a beat the next must come, as it runs here: (interval + grace) ÷ TIME_SCALE, in ms. */
export function heartbeatWindowMs(options: Record<string, unknown>, timeScale: number): number {
  const interval = Number(options.interval_seconds) || MIN_INTERVAL_SECONDS;
  const grace = Number(options.grace_seconds) || 0;
  return Math.max(1, Math.round(((interval + grace) * 1000) / timeScale));
}

/** What a heartbeat's state says about it: the time counting starts from and the last beat. */
export interface HeartbeatClock {
  /** When counting started: the integration's creation, or when it was enabled again (epoch ms). */
  armed_at: number;
  last_beat_at: number | null;
}

/** The deadline: the last beat (or the arming, when later) + the window. */
export function nextDueAt(state: HeartbeatClock, windowMs: number): number {
  return Math.max(state.armed_at, state.last_beat_at ?? 0) + windowMs;
}

/** `missed` once the deadline has passed; before it `up` after a first beat, else `waiting`. */
export function heartbeatStatus(state: HeartbeatClock, windowMs: number, now: number): HeartbeatStatus {
  if (now >= nextDueAt(state, windowMs)) return 'missed';
  return state.last_beat_at === null ? 'waiting' : 'up';
}
