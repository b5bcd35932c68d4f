// Benchmark of the pure escalation engine: 1 000 alerts escalating at once over random policies
// (1–4 layers, 0–5 people each, repeat 0–3, some reassignments, some acknowledged or rejected on
// the way), every timer fired in due order as the queue would. Reports steps per second, effects
// per step, and the size of the state item the store would write (with its JSON round trip).
import { advance, initialState, openWorkflows } from '../lib/escalation/engine';
import type { EngineInputs, EscalationEvent, EscalationState, TeamInput } from '../lib/escalation/engine';
import { percentile } from './support';
import { seededRandom } from '../test/support/seeded-random';

const ALERTS = 1_000;
const TEAMS = 200;
const T0 = Date.UTC(2025, 0, 6);

interface Due {
  at: number;
  alert: number;
  event: EscalationEvent;
}

/** A binary min-heap on `at`: the timer queue. */
class Heap {
  private readonly items: Due[] = [];
  get size(): number {
    return this.items.length;
  }
  push(item: Due): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent].at <= items[i].at) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }
  pop(): Due | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && items[left].at < items[smallest].at) smallest = left;
        if (right < items.length && items[right].at < items[smallest].at) smallest = right;
        if (smallest === i) break;
        [items[smallest], items[i]] = [items[i], items[smallest]];
        i = smallest;
      }
    }
    return top;
  }
}

function buildWorld(random: () => number) {
  const teams = new Map<string, TeamInput>();
  const oncall = new Map<string, Map<number, string[]>>();
  for (let t = 0; t < TEAMS; t++) {
    const layerCount = 1 + Math.floor(random() * 4);
    const layers = Array.from({ length: layerCount }, (_, i) => ({
      layer: i + 1,
      timeout: 1 + Math.floor(random() * 30),
      timeout_unit: 'minutes' as const,
    }));
    const byLayer = new Map<number, string[]>();
    for (const layer of layers) {
      byLayer.set(
        layer.layer,
        Array.from({ length: Math.floor(random() * 6) }, (_, n) => `acu-${t}-${layer.layer}-${n}`),
      );
    }
    oncall.set(`team-${t}`, byLayer);
    teams.set(`team-${t}`, {
      policy: {
        escalation_layers: layers,
        repeat: Math.floor(random() * 4),
        reassign_team_ids: random() < 0.3 ? [`team-${Math.floor(random() * TEAMS)}`] : [],
        reassign_account_user_ids: random() < 0.2 ? [`acu-spare-${t}`] : [],
      },
      member_account_user_ids: [`acu-${t}-m`],
      admin_account_user_ids: [`acu-${t}-a`],
      drop_notifications: 'team_admins',
      drop_notification_account_user_ids: [],
    });
  }
  let workflows = 0;
  const inputs: EngineInputs = {
    team: (id) => teams.get(id) ?? null,
    oncallAt: (teamId, layer) => oncall.get(teamId)?.get(layer) ?? [],
    oncallAnyLayerAt: (teamId) => [...(oncall.get(teamId)?.values() ?? [])].flat(),
    timeScale: 1,
    newWorkflowId: () => `wkf-${++workflows}`,
  };
  return inputs;
}

interface RunFigures {
  steps: number;
  ignored: number;
  effects: number;
  pages: number;
  seconds: number;
  stateBytes: number[];
}

function runOnce(seed: number, storeRoundTrip: boolean): RunFigures {
  const random = seededRandom(seed);
  const inputs = buildWorld(random);
  const states: EscalationState[] = [];
  const heap = new Heap();
  const figures: RunFigures = { steps: 0, ignored: 0, effects: 0, pages: 0, seconds: 0, stateBytes: [] };

  const apply = (alert: number, event: EscalationEvent) => {
    const stored = storeRoundTrip ? (JSON.parse(JSON.stringify(states[alert])) as EscalationState) : states[alert];
    const result = advance(stored, event, inputs);
    if (!result.changed) {
      figures.ignored += 1;
      return;
    }
    figures.steps += 1;
    figures.effects += result.effects.length;
    for (const effect of result.effects) if (effect.type === 'page') figures.pages += 1;
    states[alert] = result.state;
    if (storeRoundTrip) figures.stateBytes.push(JSON.stringify(result.state).length);
    for (const effect of result.effects) {
      if (effect.type === 'schedule_timer')
        heap.push({ at: effect.dueAt, alert, event: { type: 'timeout', at: effect.dueAt, token: effect.token } });
    }
  };

  const started = process.hrtime.bigint();
  for (let alert = 0; alert < ALERTS; alert++) {
    states.push(initialState(`alt-${alert}`));
    const teamCount = 1 + Math.floor(random() * 3);
    const targets = Array.from({ length: teamCount }, () => ({ type: 'team' as const, teamId: `team-${Math.floor(random() * TEAMS)}` }));
    apply(alert, { type: 'start', at: T0 + alert * 10, key: `route-${alert}`, targets });
    // A third are acknowledged and a fifth see a reject somewhere along the way.
    const roll = random();
    if (roll < 0.33) heap.push({ at: T0 + Math.floor(random() * 90 * 60_000), alert, event: { type: 'acknowledge', at: 0 } });
    else if (roll < 0.53)
      heap.push({ at: T0 + Math.floor(random() * 30 * 60_000), alert, event: { type: 'reject', at: 0, accountUserId: '' } });
  }
  while (heap.size) {
    const due = heap.pop()!;
    let event: EscalationEvent = { ...due.event, at: due.at };
    if (event.type === 'reject') {
      const [open] = openWorkflows(states[due.alert]);
      if (!open) continue;
      event = { ...event, accountUserId: open.accountUserId, workflowIds: [open.workflowId] };
    }
    apply(due.alert, event);
  }
  figures.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return figures;
}

export function benchEscalationEngine(): Record<string, number | string> {
  runOnce(1, false); // warm-up
  // Side by side, alternating: the engine alone, and with the JSON round trip of the stored item.
  const alone: RunFigures[] = [];
  const stored: RunFigures[] = [];
  for (let round = 0; round < 5; round++) {
    alone.push(runOnce(7, false));
    stored.push(runOnce(7, true));
  }
  const best = (runs: RunFigures[]) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const a = best(alone);
  const s = best(stored);
  const sizes = [...s.stateBytes].sort((x, y) => x - y);
  return {
    alerts_in_flight: ALERTS,
    steps: a.steps,
    stale_timers_and_late_events: a.ignored,
    pages: a.pages,
    effects_per_step: Number((a.effects / a.steps).toFixed(2)),
    steps_per_second: Math.round(a.steps / a.seconds),
    microseconds_per_step: Number(((a.seconds / a.steps) * 1e6).toFixed(1)),
    steps_per_second_with_json_round_trip: Math.round(s.steps / s.seconds),
    json_round_trip_cost_ratio: Number((s.seconds / a.seconds).toFixed(2)),
    state_bytes_p50: percentile(sizes, 50),
    state_bytes_p99: percentile(sizes, 99),
    state_bytes_max: sizes[sizes.length - 1],
  };
}
