// advance() with the teams loaded on demand: the engine names every team it needs
// (MissingTeamInputs), the caller's loader fetches them into the maps that `inputs` reads, and
// the step is tried again. Two rounds at most in practice (targets, then their reassign targets).
import { advance } from './advance';
import { MissingTeamInputs } from './errors';
import type { AdvanceResult, EngineInputs, EscalationEvent, EscalationState } from './types';

const MAX_ROUNDS = 5;

export async function advanceWithLoader(
  state: EscalationState,
  event: EscalationEvent,
  inputs: EngineInputs,
  loadTeams: (teamIds: readonly string[]) => Promise<void>,
): Promise<AdvanceResult> {
  for (let round = 1; ; round++) {
    try {
      return advance(state, event, inputs);
    } catch (error) {
      if (!(error instanceof MissingTeamInputs) || round >= MAX_ROUNDS) throw error;
      await loadTeams(error.teamIds);
    }
  }
}
