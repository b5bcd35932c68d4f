// The stored escalation policy (docs/api.md#escalation-policies): layers notified one after another, each for its
// timeout; then the whole policy repeats `repeat` times; then the alert goes to the reassign targets.
export const TIMEOUT_UNITS = ['minutes', 'hours'] as const;
export type TimeoutUnit = (typeof TIMEOUT_UNITS)[number];

export interface EscalationLayerRecord {
  id: string;
  layer: number;
  timeout: number;
  timeout_unit: TimeoutUnit;
}

export interface EscalationPolicyRecord {
  id: string;
  account_id: string;
  version: number;
  name: string;
  repeat: number;
  reassign_team_ids: string[];
  reassign_account_user_ids: string[];
  /** Sorted by layer number. */
  escalation_layers: EscalationLayerRecord[];
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** A layer's timeout in milliseconds (the rule engine's timers). */
export function layerTimeoutMs(layer: Pick<EscalationLayerRecord, 'timeout' | 'timeout_unit'>): number {
  return layer.timeout * (layer.timeout_unit === 'hours' ? 3_600_000 : 60_000);
}

/** The policy a new team gets (docs/api.md#teams): one layer, 5 minutes, no repeat. */
export const DEFAULT_LAYERS: Omit<EscalationLayerRecord, 'id'>[] = [{ layer: 1, timeout: 5, timeout_unit: 'minutes' }];
