// Puts the service's calls to AWS in the order a test names, instead of hoping that a sleep lands
// them there: a gate holds the calls it picks (before they reach DynamoDB or SQS) until the test
// releases them, and a watch tells when a picked call has been answered. "The acknowledgement comes
// between the step's read of the alert and its commit" is then: hold the commit, acknowledge,
// release. Both sit on the service's own clients (aws-calls.ts), so they see every caller in the
// process: the HTTP functions, the queue workers, the sweeper and the test's direct calls.
import { callOf, onServiceClients, type AwsCall } from './aws-calls';

export interface HeldCall extends AwsCall {
  /** Lets the call go on to AWS; resolves once AWS has answered it (applied, or refused by its condition). */
  release(): Promise<void>;
}

export interface AwsGate {
  /** The next held call (in the order they came), once it is held; fails after `timeoutMs`. */
  next(timeoutMs?: number): Promise<HeldCall>;
  /** Lets every held call go and holds no more (also when a test fails: call it in `finally`). */
  open(): void;
}

let names = 0;

/**
 * Holds the first `limit` calls that `pick` picks, each until it is released (each attempt is a
 * call: the SDK's retry of a held one is not held again). Releasing them one by one, each once the
 * one before was answered, orders them as the test says.
 */
export function holdAwsCalls(pick: (call: AwsCall) => boolean, limit = Infinity): AwsGate {
  const held: HeldCall[] = [];
  const takers: ((call: HeldCall) => void)[] = [];
  const releases: (() => void)[] = [];
  let picked = 0;
  let opened = false;
  const remove = onServiceClients(`awsGate${++names}`, (service) => (next, context) => async (args) => {
    const call = callOf(service, context, args.input);
    if (opened || picked >= limit || !pick(call)) return next(args);
    picked += 1;
    let answered = () => {};
    const answer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    await new Promise<void>((go) => {
      releases.push(go);
      const heldCall: HeldCall = {
        ...call,
        release: () => {
          go();
          return answer;
        },
      };
      const taker = takers.shift();
      if (taker) taker(heldCall);
      else held.push(heldCall);
    });
    try {
      return await next(args);
    } finally {
      answered();
    }
  });
  return {
    next(timeoutMs = 15_000) {
      const waiting = held.shift();
      if (waiting) return Promise.resolve(waiting);
      return new Promise<HeldCall>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no call was held within ${timeoutMs} ms`)), timeoutMs);
        takers.push((call) => {
          clearTimeout(timer);
          resolve(call);
        });
      });
    },
    open() {
      opened = true;
      remove();
      for (const release of releases) release();
    },
  };
}

/** Resolves with the first call `pick` picks once AWS has answered it (applied, or refused by its condition). */
export function awsCallAnswered(pick: (call: AwsCall) => boolean): Promise<AwsCall> {
  return new Promise((resolve) => {
    let seen = false;
    const remove = onServiceClients(`awsWatch${++names}`, (service) => (next, context) => async (args) => {
      const call = callOf(service, context, args.input);
      if (seen || !pick(call)) return next(args);
      seen = true;
      remove();
      try {
        return await next(args);
      } finally {
        resolve(call);
      }
    });
  });
}

/** Every call made until the returned function is called, which returns them (for finding what to pick). */
export function recordAwsCalls(): () => AwsCall[] {
  const calls: AwsCall[] = [];
  const remove = onServiceClients(`awsRecord${++names}`, (service) => (next, context) => (args) => {
    calls.push(callOf(service, context, args.input));
    return next(args);
  });
  return () => {
    remove();
    return calls;
  };
}
