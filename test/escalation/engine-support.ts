// A small world for the escalation engine's tests: teams with policies, an on-call table per team
// and layer (fixed, or a function of time), a counting workflow id generator, and a driver that
// fires the earliest timer like the queue would.
import { advance, initialState, pendingTimers } from '../../lib/escalation/engine';
import type {
  AdvanceResult,
  DeliveryStep,
  DropNotifications,
  EngineInputs,
  EscalationEffect,
  EscalationEvent,
  EscalationState,
  PolicyInput,
  StartEvent,
  TeamInput,
} from '../../lib/escalation/engine';

export const MINUTE = 60_000;
export const T0 = Date.UTC(2025, 0, 6, 3, 0, 0);

export type Oncall = string[] | ((at: number) => string[]);

export interface TeamSpec {
  layers?: { layer: number; timeout: number; timeout_unit?: 'minutes' | 'hours' }[];
  repeat?: number;
  reassignTeams?: string[];
  reassignUsers?: string[];
  noPolicy?: boolean;
  /** On-call account users per schedule layer number. */
  oncall?: Record<number, Oncall>;
  members?: string[];
  admins?: string[];
  drop?: DropNotifications;
  dropUsers?: string[];
}

export interface World {
  inputs: EngineInputs;
  teams: Map<string, TeamInput | null>;
}

export function world(
  teams: Record<string, TeamSpec | null>,
  options: { timeScale?: number; plan?: (accountUserId: string) => DeliveryStep[]; deletedUsers?: string[] } = {},
): World {
  const map = new Map<string, TeamInput | null>();
  const oncall = new Map<string, Record<number, Oncall>>();
  for (const [teamId, spec] of Object.entries(teams)) {
    if (spec === null) {
      map.set(teamId, null);
      continue;
    }
    const policy: PolicyInput | null = spec.noPolicy
      ? null
      : {
          escalation_layers: (spec.layers ?? [{ layer: 1, timeout: 5 }]).map((l) => ({ ...l, timeout_unit: l.timeout_unit ?? 'minutes' })),
          repeat: spec.repeat ?? 0,
          reassign_team_ids: spec.reassignTeams ?? [],
          reassign_account_user_ids: spec.reassignUsers ?? [],
        };
    map.set(teamId, {
      policy,
      member_account_user_ids: spec.members ?? [],
      admin_account_user_ids: spec.admins ?? [],
      drop_notifications: spec.drop ?? 'none',
      drop_notification_account_user_ids: spec.dropUsers ?? [],
    });
    oncall.set(teamId, spec.oncall ?? {});
  }
  const read = (value: Oncall | undefined, at: number): string[] => (typeof value === 'function' ? value(at) : (value ?? []));
  let workflows = 0;
  const deleted = new Set(options.deletedUsers ?? []);
  const inputs: EngineInputs = {
    team: (teamId) => (map.has(teamId) ? map.get(teamId)! : undefined),
    oncallAt: (teamId, layer, at) => read(oncall.get(teamId)?.[layer], at),
    oncallAnyLayerAt: (teamId, at) => [...new Set(Object.values(oncall.get(teamId) ?? {}).flatMap((value) => read(value, at)))],
    timeScale: options.timeScale ?? 1,
    newWorkflowId: () => `wkf-${++workflows}`,
    ...(options.plan ? { deliveryPlan: options.plan } : {}),
    accountUserExists: (id) => !deleted.has(id),
  };
  return { inputs, teams: map };
}

/** Runs events in order, each from the previous state; returns every result. */
export function run(w: World, events: EscalationEvent[], from: EscalationState = initialState('alt-1')): AdvanceResult[] {
  const results: AdvanceResult[] = [];
  let state = from;
  for (const event of events) {
    const result = advance(state, event, w.inputs);
    results.push(result);
    state = result.state;
  }
  return results;
}

export function startTeam(teamId: string, at = T0, key = `route-${teamId}`): StartEvent {
  return { type: 'start', at, key, targets: [{ type: 'team', teamId }] };
}

export function startUser(accountUserId: string, at = T0, key = `route-${accountUserId}`): StartEvent {
  return { type: 'start', at, key, targets: [{ type: 'account_user', accountUserId }] };
}

export function of<T extends EscalationEffect['type']>(
  effects: readonly EscalationEffect[],
  type: T,
): Extract<EscalationEffect, { type: T }>[] {
  return effects.filter((effect): effect is Extract<EscalationEffect, { type: T }> => effect.type === type);
}

export function paged(effects: readonly EscalationEffect[]): string[] {
  return of(effects, 'page').map((page) => page.accountUserId);
}

/** The earliest pending timer as the queue would deliver it, exactly at its due time. */
export function nextTimer(state: EscalationState): EscalationEvent | null {
  const [timer] = pendingTimers(state);
  return timer ? { type: 'timeout', at: timer.dueAt, token: timer.token } : null;
}

/**
 * Fires timers until nothing waits; returns every result (bounded, so a bug cannot loop forever).
 * The bound sits well above the largest legitimate life the generators can build: three teams of
 * four layers with six people each, four rounds, three notification steps per page, plus up to 25
 * starts, is about 1,500 timers (lives of 560 were seen; 500 was too tight and failed CI once).
 */
export function runTimers(w: World, state: EscalationState, limit = 5000): AdvanceResult[] {
  const results: AdvanceResult[] = [];
  for (let i = 0; i < limit; i++) {
    const event = nextTimer(state);
    if (!event) return results;
    const result = advance(state, event, w.inputs);
    results.push(result);
    state = result.state;
  }
  throw new Error('timers never settled');
}

export function allEffects(results: readonly AdvanceResult[]): EscalationEffect[] {
  return results.flatMap((result) => result.effects);
}

export function last(results: readonly AdvanceResult[]): EscalationState {
  return results[results.length - 1].state;
}
