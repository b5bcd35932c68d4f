// Errors of the escalation engine. Both are the caller's fault, never a client's: MissingTeamInputs
// asks the caller to load more teams and try again (advanceWithLoader does it), InvalidEscalation
// names a malformed event or input.

export class MissingTeamInputs extends Error {
  constructor(readonly teamIds: readonly string[]) {
    super(`escalation engine needs teams not loaded: ${teamIds.join(', ')}`);
    this.name = 'MissingTeamInputs';
  }
}

export class InvalidEscalation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEscalation';
  }
}
