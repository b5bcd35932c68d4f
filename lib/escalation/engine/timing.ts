// Relative timers of docs/api.md#escalation-and-notifications, divided by TIME_SCALE. Kept in whole milliseconds so due times compare
// exactly after a JSON round trip.
import type { EscalationLayerInput } from './types';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** An account user paged alone has 5 minutes to acknowledge (docs/api.md#escalation-and-notifications). */
export const USER_TIMEOUT_MS = 5 * MINUTE;

export function layerTimeoutMs(layer: Pick<EscalationLayerInput, 'timeout' | 'timeout_unit'>): number {
  return layer.timeout * (layer.timeout_unit === 'hours' ? HOUR : MINUTE);
}

export function scaled(ms: number, timeScale: number): number {
  return Math.max(0, Math.round(ms / timeScale));
}
