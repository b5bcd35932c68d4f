// Faults at the AWS SDK's transport of the service's own clients (lib/store/client.ts db(),
// lib/queues/client.ts sqs()), the way AWS shows them: a call throttled (nothing applied), failed
// with a 500 (nothing applied), or applied with its answer lost (the request reached the emulator and
// changed the table or queue, then the connection reset). Each is an error the SDK's retry strategy
// retries, so the code under test sees what it sees in AWS: a retried write that may find its own
// change. A middleware on each client's stack, inside the retry middleware (it runs per attempt),
// faults the first attempt of the calls it picks; the retry goes through (aws-calls.ts).
import { callOf, onServiceClients, type AwsCall, type Middleware } from './aws-calls';
import { seededRandom } from './seeded-random';

export type { AwsCall } from './aws-calls';
export type FaultKind = 'throttle' | 'fail' | 'lost';

export interface FaultPlan {
  /** The share of the calls picked (0..1). */
  rate: number;
  /** What a picked call suffers, in turn (default: throttle, fail, lost). */
  kinds?: FaultKind[];
  /** Seed of the pick (the same seed picks the same calls of the same sequence). */
  seed?: number;
  /** Only calls for which this is true may be picked (default: every call). */
  only?: (call: AwsCall) => boolean;
}

export interface InjectedFault extends AwsCall {
  kind: FaultKind;
}

export interface FaultInjector {
  /** Every fault injected so far, in order. */
  readonly injected: readonly InjectedFault[];
  /** How many calls went through the clients meanwhile. */
  readonly calls: number;
  /** Removes the middleware from both clients. */
  stop(): void;
}

const MIDDLEWARE = 'injectedAwsFaults';

/** An error the SDK classifies as the service would: a throttle, or a 500. */
function serviceError(name: string, status: number, message: string): Error {
  return Object.assign(new Error(message), { name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });
}

/** What a connection reset after the request was sent looks like to the SDK (a transient network error). */
function lostAnswer(operation: string): Error {
  return Object.assign(new Error(`injected: the answer of ${operation} was lost after it applied (socket hang up)`), {
    code: 'ECONNRESET',
  });
}

/** Starts injecting faults into the service's DynamoDB and SQS clients (create them first: startService). */
export function injectAwsFaults(plan: FaultPlan): FaultInjector {
  const kinds = plan.kinds ?? ['throttle', 'fail', 'lost'];
  const random = seededRandom(plan.seed ?? 20_261_126);
  const injected: InjectedFault[] = [];
  let calls = 0;
  let turn = 0;
  const middleware =
    (service: AwsCall['service']): Middleware =>
    (next, context) => {
      // The handler runs once per attempt; the attempts of one call share its input (a client that
      // resolves its stack once, as the table's does, makes this closure once for every call).
      const attempts = new WeakMap<object, number>();
      return async (args) => {
        const attempt = (attempts.get(args.input) ?? 0) + 1;
        attempts.set(args.input, attempt);
        if (attempt === 1) calls += 1;
        const call = callOf(service, context, args.input);
        if (attempt > 1 || (plan.only && !plan.only(call)) || random() >= plan.rate) return next(args);
        const kind = kinds[turn++ % kinds.length];
        injected.push({ ...call, kind });
        if (kind === 'throttle') {
          const name = service === 'dynamodb' ? 'ProvisionedThroughputExceededException' : 'ThrottlingException';
          throw serviceError(name, 400, `injected: ${call.operation} throttled`);
        }
        if (kind === 'fail') throw serviceError('InternalServerError', 500, `injected: ${call.operation} failed`);
        await next(args);
        throw lostAnswer(call.operation);
      };
    };
  const remove = onServiceClients(MIDDLEWARE, middleware);
  return {
    get injected() {
      return injected;
    },
    get calls() {
      return calls;
    },
    stop: remove,
  };
}
