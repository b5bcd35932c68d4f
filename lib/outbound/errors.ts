// Typed errors of the outbound client. Both carry the HTTP status the use case answers with
// (400: the target or the request given is not acceptable); neither says anything secret.
export class OutboundTargetRefused extends Error {
  readonly status = 400;
  readonly code = 'target_refused';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`the target ${host} is refused: ${address === host ? '' : `it resolves to ${address}, `}${reason}`);
    this.name = 'OutboundTargetRefused';
  }
}

export class OutboundRequestInvalid extends Error {
  readonly status = 400;
  readonly code = 'request_invalid';

  constructor(message: string) {
    super(message);
    this.name = 'OutboundRequestInvalid';
  }
}
